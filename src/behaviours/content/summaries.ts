/**
 * How to summarise an item of each kind (docs/conventions.md#object-shapes) for a page in one statement: its entry in
 * the entity model (table, id, trash column, not-found error and summary columns) and the shape of its summary. Reports
 * and notifications load their includes through it.
 */
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { type Entity, entities, type SummarisedKind } from "../../domain/entities";
import type { View } from "../../http/view";
import {
  type AnswerRow,
  type ArticleRow,
  answerSummary,
  articleSummary,
  type CommentRow,
  commentSummary,
  presentUserSummary,
  type QuestionRow,
  questionSummary,
  type UserRow,
} from "./present";

/** A row of a summary select: the columns named in `summaryColumns`. */
export type SummaryRow = Record<string, unknown>;

export interface Summarised extends Omit<Entity, "summary"> {
  summaryColumns: Record<string, SQLiteColumn>;
  summary(row: SummaryRow, view: View): unknown;
}

/** Each summary reads a row selected with exactly its own summaryColumns, hence the casts. */
const present: Record<SummarisedKind, Summarised["summary"]> = {
  question: (row) => questionSummary(row as QuestionRow),
  answer: (row) => answerSummary(row as AnswerRow),
  article: (row) => articleSummary(row as ArticleRow),
  comment: (row) => commentSummary(row as CommentRow),
  user: (row, view) => presentUserSummary(row as UserRow, view),
  // Whole, as the administrator judging a report must read it (docs/messages.md#moderation).
  message: (row) => ({
    message_id: row.message_id,
    sender_id: row.sender_id,
    receiver_id: row.receiver_id,
    content_markdown: row.content_markdown,
    content_rendered: row.content_rendered,
    create_time: row.create_time,
  }),
};

const summarised = (type: SummarisedKind): Summarised => {
  const entity: Entity = entities[type];
  const columns = (entity.summary ?? []).map((name) => [name, entity.columns[name]]);
  return { ...entity, summaryColumns: Object.fromEntries(columns), summary: present[type] };
};

export const summaries = Object.fromEntries(
  (Object.keys(present) as SummarisedKind[]).map((type) => [type, summarised(type)]),
) as Record<SummarisedKind, Summarised>;

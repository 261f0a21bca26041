/**
 * What can be reported (behaviour.md 1 "report", 3.8) and how a target is named in a path. For each type: its
 * table and id, what makes it reportable (live content; a user only has to exist), its not-found error, and
 * the columns and shape of its summary (behaviour.md 2.1).
 */
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { answers, articles, comments, questions, reports, users } from "../../db/schema";
import { ApiError, validationError, type ErrorName } from "../../lib/errors";
import { isPositiveIntString, MAX_IDS } from "../../lib/ids";
import type { View } from "../../lib/view";
import { contentKinds, type ContentKind } from "../content/kinds";
import {
  answerSummary,
  articleSummary,
  commentSummary,
  questionSummary,
  type AnswerRow,
  type ArticleRow,
  type CommentRow,
  type QuestionRow,
} from "../content/present";
import { presentUserSummary, type UserRow } from "../users/present";

export type ReportableType = (typeof reports.$inferSelect)["reportable_type"];
export const REPORTABLE_TYPES = ["question", "answer", "article", "comment", "user"] as const satisfies readonly ReportableType[];

/** A row of a summary select: the columns named in `summaryColumns`. */
export type SummaryRow = Record<string, unknown>;

export interface Reportable {
  table: SQLiteTable;
  id: SQLiteColumn;
  /** Content in the trash counts as missing (behaviour.md 4.4); users have no trash. */
  deleteTime?: SQLiteColumn;
  notFound: ErrorName;
  summaryColumns: Record<string, SQLiteColumn>;
  summary(row: SummaryRow, view: View): unknown;
}

const content = (kind: ContentKind) => ({ table: kind.table, id: kind.id, deleteTime: kind.deleteTime, notFound: kind.notFound });

// Each summary reads a row selected with exactly its own summaryColumns, hence the casts.
export const reportables: Record<ReportableType, Reportable> = {
  question: {
    ...content(contentKinds.question),
    summaryColumns: {
      question_id: questions.question_id,
      title: questions.title,
      create_time: questions.create_time,
      update_time: questions.update_time,
    },
    summary: (row) => questionSummary(row as QuestionRow),
  },
  answer: {
    ...content(contentKinds.answer),
    summaryColumns: {
      answer_id: answers.answer_id,
      question_id: answers.question_id,
      content_rendered: answers.content_rendered,
      create_time: answers.create_time,
      update_time: answers.update_time,
    },
    summary: (row) => answerSummary(row as AnswerRow),
  },
  article: {
    ...content(contentKinds.article),
    summaryColumns: {
      article_id: articles.article_id,
      title: articles.title,
      create_time: articles.create_time,
      update_time: articles.update_time,
    },
    summary: (row) => articleSummary(row as ArticleRow),
  },
  comment: {
    ...content(contentKinds.comment),
    summaryColumns: {
      comment_id: comments.comment_id,
      content: comments.content,
      create_time: comments.create_time,
      update_time: comments.update_time,
    },
    summary: (row) => commentSummary(row as CommentRow),
  },
  user: {
    table: users,
    id: users.user_id,
    notFound: "USER_NOT_FOUND",
    summaryColumns: { user_id: users.user_id, username: users.username, headline: users.headline, avatar: users.avatar },
    summary: (row, view) => presentUserSummary(row as UserRow, view),
  },
};

export interface Target {
  type: ReportableType;
  id: number;
}

const isReportableType = (value: string): value is ReportableType => (REPORTABLE_TYPES as readonly string[]).includes(value);

/**
 * One `{reportable_type}:{reportable_id}`. The type is checked first (207002, behaviour.md 3.8); a part without
 * a colon or with an id that is not a positive integer is a 200001 naming the path parameter.
 */
export function parseTarget(part: string, param: string): Target {
  const colon = part.indexOf(":");
  if (colon < 0) throw validationError({ [param]: "must be reportable_type:reportable_id" });
  const type = part.slice(0, colon);
  const id = part.slice(colon + 1);
  if (!isReportableType(type)) throw new ApiError("REPORT_TARGET_TYPE_INVALID");
  if (!isPositiveIntString(id)) throw validationError({ [param]: "reportable_id must be a positive integer" });
  return { type, id: Number(id) };
}

/** `type:id` or a comma list of at most 100 of them (DECISIONS.md: path lists hold at most 100). */
export function parseTargetList(value: string, param: string): Target[] {
  const parts = value.split(",");
  if (parts.length > MAX_IDS) throw validationError({ [param]: `at most ${MAX_IDS} targets` });
  return parts.map((part) => parseTarget(part.trim(), param));
}

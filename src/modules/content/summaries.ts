/**
 * How to summarise an item of each kind (behaviour.md 2.1) for a page in one statement: its table and id, the
 * trash column (trashed content counts as missing, behaviour.md 4.4; users have no trash), its not-found
 * error, and the columns and shape of its summary. Reports and notifications load their includes through it.
 */
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { users } from "../../db/schema";
import type { ErrorName } from "../../lib/errors";
import type { View } from "../../lib/view";
import { presentUserSummary, type UserRow } from "../users/present";
import { type ContentKind, contentKinds } from "./kinds";
import {
  type AnswerRow,
  type ArticleRow,
  answerSummary,
  articleSummary,
  type CommentRow,
  commentSummary,
  type QuestionRow,
  questionSummary,
} from "./present";

export type SummaryType = "question" | "answer" | "article" | "comment" | "user";

/** A row of a summary select: the columns named in `summaryColumns`. */
export type SummaryRow = Record<string, unknown>;

export interface Summarised {
  table: SQLiteTable;
  id: SQLiteColumn;
  /** Content in the trash counts as missing (behaviour.md 4.4); users have no trash. */
  deleteTime?: SQLiteColumn;
  notFound: ErrorName;
  summaryColumns: Record<string, SQLiteColumn>;
  summary(row: SummaryRow, view: View): unknown;
}

/** A content type's table, id, trash column and not-found error, and the named columns as its summary columns. */
const content = <C extends Record<string, SQLiteColumn>>(
  kind: ContentKind & { columns: C },
  summary: (keyof C & string)[],
) => ({
  table: kind.table,
  id: kind.id,
  deleteTime: kind.deleteTime,
  notFound: kind.notFound,
  summaryColumns: Object.fromEntries(summary.map((name) => [name, kind.columns[name]])) as Record<string, SQLiteColumn>,
});

/**
 * Each summary reads a row selected with exactly its own summaryColumns, hence the casts.
 */
export const summaries: Record<SummaryType, Summarised> = {
  question: {
    ...content(contentKinds.question, ["question_id", "title", "create_time", "update_time"]),
    summary: (row) => questionSummary(row as QuestionRow),
  },
  answer: {
    ...content(contentKinds.answer, ["answer_id", "question_id", "content_rendered", "create_time", "update_time"]),
    summary: (row) => answerSummary(row as AnswerRow),
  },
  article: {
    ...content(contentKinds.article, ["article_id", "title", "create_time", "update_time"]),
    summary: (row) => articleSummary(row as ArticleRow),
  },
  comment: {
    ...content(contentKinds.comment, ["comment_id", "content", "create_time", "update_time"]),
    summary: (row) => commentSummary(row as CommentRow),
  },
  user: {
    table: users,
    id: users.user_id,
    notFound: "USER_NOT_FOUND",
    summaryColumns: {
      user_id: users.user_id,
      username: users.username,
      headline: users.headline,
      avatar: users.avatar,
    },
    summary: (row, view) => presentUserSummary(row as UserRow, view),
  },
};

/**
 * The content registry: for each kind, its table, id column, selected columns and not-found error. The shared
 * behaviours (votable, commentable, followable, trashable) are parameterised by these entries instead of being
 * written once per resource.
 */
import { getTableColumns } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { answers, articles, comments, questions, topics } from "../../db/schema";
import type { ErrorName } from "../../lib/errors";

export type ContentType = "question" | "answer" | "article" | "comment" | "topic";

export interface ContentKind {
  type: ContentType;
  table: SQLiteTable;
  id: SQLiteColumn;
  /** Every column, as the record shows it (delete_time is removed for non-administrators when presenting). */
  columns: Record<string, SQLiteColumn>;
  deleteTime: SQLiteColumn;
  /** The author's user_id column; topics have no author. */
  author?: SQLiteColumn;
  notFound: ErrorName;
}

export const contentKinds = {
  question: {
    type: "question",
    table: questions,
    id: questions.question_id,
    columns: getTableColumns(questions),
    deleteTime: questions.delete_time,
    author: questions.user_id,
    notFound: "QUESTION_NOT_FOUND",
  },
  answer: {
    type: "answer",
    table: answers,
    id: answers.answer_id,
    columns: getTableColumns(answers),
    deleteTime: answers.delete_time,
    author: answers.user_id,
    notFound: "ANSWER_NOT_FOUND",
  },
  article: {
    type: "article",
    table: articles,
    id: articles.article_id,
    columns: getTableColumns(articles),
    deleteTime: articles.delete_time,
    author: articles.user_id,
    notFound: "ARTICLE_NOT_FOUND",
  },
  comment: {
    type: "comment",
    table: comments,
    id: comments.comment_id,
    columns: getTableColumns(comments),
    deleteTime: comments.delete_time,
    author: comments.user_id,
    notFound: "COMMENT_NOT_FOUND",
  },
  topic: {
    type: "topic",
    table: topics,
    id: topics.topic_id,
    columns: getTableColumns(topics),
    deleteTime: topics.delete_time,
    notFound: "TOPIC_NOT_FOUND",
  },
} as const satisfies Record<ContentType, ContentKind>;

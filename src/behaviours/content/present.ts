/**
 * Wire shapes of questions, answers, articles, comments and topics (spec "Resources",
 * docs/conventions.md#object-shapes) and their summaries. Rows are selected with the spec's column names, so a record
 * is its row with `delete_time` kept for administrators only, and `relationships` only when the caller asked for
 * includes.
 */
import type { Caller } from "../../core/caller";
import type { answers, articles, comments, questions, topics } from "../../db/schema";
import type { View } from "../../http/view";
import { type ImageUrls, imageUrls } from "../../lib/image-urls";
import { contentSummary } from "../../lib/sanitize";

export type QuestionRow = typeof questions.$inferSelect;
export type AnswerRow = typeof answers.$inferSelect;
export type ArticleRow = typeof articles.$inferSelect;
export type CommentRow = typeof comments.$inferSelect;
export type TopicRow = typeof topics.$inferSelect;
export type UserRow = Caller;

export type Relationships = Record<string, unknown>;

/** The wire record of a row: its fields without `delete_time`, which administrators get, and any relationships. */
export type PresentedRecord<R extends { delete_time: number }> = Omit<R, "delete_time"> & {
  delete_time?: number;
  relationships?: Relationships;
};

/**
 * The fields of a row that `keep` keeps, copied key by key in the row's order. Every presenter that leaves fields
 * out goes through here: an object rest (`{delete_time, ...fields}`) and `delete` are V8's slow path, and leave an
 * object that is slower to stringify (docs/performance.md#what-limits-the-ratio).
 */
export function copyFields(row: object, keep: (key: string) => boolean): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key in row) if (keep(key)) copy[key] = (row as Record<string, unknown>)[key];
  return copy;
}

/** A content record: its row, `delete_time` for administrators only, and the requested relationships. */
export function presentRecord<R extends { delete_time: number }>(
  row: R,
  view: View,
  relationships?: Relationships,
): PresentedRecord<R> {
  const record = copyFields(row, (key) => key !== "delete_time");
  if (view.isAdmin) record.delete_time = row.delete_time;
  if (relationships) record.relationships = relationships;
  return record as PresentedRecord<R>;
}

export function presentTopic(row: TopicRow, view: View, relationships?: Relationships) {
  return presentRecord({ ...row, cover: topicCover(row.cover, view) }, view, relationships);
}

export const topicCover = (stored: string, view: View) => imageUrls(stored, "topic_cover.jpg", view);

export const questionSummary = (row: Pick<QuestionRow, "question_id" | "title" | "create_time" | "update_time">) => ({
  question_id: row.question_id,
  title: row.title,
  create_time: row.create_time,
  update_time: row.update_time,
});

export const articleSummary = (row: Pick<ArticleRow, "article_id" | "title" | "create_time" | "update_time">) => ({
  article_id: row.article_id,
  title: row.title,
  create_time: row.create_time,
  update_time: row.update_time,
});

/** content_summary: the first 80 characters of the tag-stripped rendered answer (docs/conventions.md#object-shapes). */
export const answerSummary = (
  row: Pick<AnswerRow, "answer_id" | "question_id" | "content_rendered" | "create_time" | "update_time">,
) => ({
  answer_id: row.answer_id,
  question_id: row.question_id,
  content_summary: contentSummary(row.content_rendered, 80),
  create_time: row.create_time,
  update_time: row.update_time,
});

/** Comments are plain text: their summary is the first 80 characters, as written. */
export const commentSummary = (row: Pick<CommentRow, "comment_id" | "content" | "create_time" | "update_time">) => ({
  comment_id: row.comment_id,
  content_summary: Array.from(row.content).slice(0, 80).join(""),
  create_time: row.create_time,
  update_time: row.update_time,
});

export const topicSummary = (row: Pick<TopicRow, "topic_id" | "name" | "cover">, view: View) => ({
  topic_id: row.topic_id,
  name: row.name,
  cover: topicCover(row.cover, view),
});

/** The user's avatar: the uploaded or generated file, or the site's default image. */
export const avatarUrls = (row: Pick<UserRow, "avatar">, view: View): ImageUrls =>
  imageUrls(row.avatar, "avatar.png", view);

export function presentUserSummary(row: Pick<UserRow, "user_id" | "username" | "headline" | "avatar">, view: View) {
  return { user_id: row.user_id, username: row.username, headline: row.headline, avatar: avatarUrls(row, view) };
}

/** Queries on comments, and on the live rows comments attach to. */
import { and, eq, gt, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { comments } from "../../db/schema";
import type { Order } from "../../lib/order";
import { contentKinds, type ContentKind } from "../content/kinds";
import { orderBy, type ListSource } from "../content/page";
import type { CommentableType, CommentOrderField } from "./schema";

export const commentColumns = contentKinds.comment.columns;

export const liveComments = eq(comments.delete_time, 0);

/** A list of comments: `where` on top of the order (the comment id settles ties). */
export function commentSource(where: SQL | undefined, order: Order<CommentOrderField>): ListSource {
  return { table: comments, id: comments.comment_id, columns: commentColumns, where, orderBy: orderBy(comments, order, comments.comment_id) };
}

export interface CommentFilter {
  comment_id?: number;
  commentable_id?: number;
  commentable_type?: CommentableType;
  user_id?: number;
  trashed: boolean;
}

/** GET /comments: the filters, and either the trash or the live comments. */
export function filteredComments(filter: CommentFilter): SQL | undefined {
  return and(
    filter.trashed ? gt(comments.delete_time, 0) : liveComments,
    filter.comment_id === undefined ? undefined : eq(comments.comment_id, filter.comment_id),
    filter.commentable_id === undefined ? undefined : eq(comments.commentable_id, filter.commentable_id),
    filter.commentable_type === undefined ? undefined : eq(comments.commentable_type, filter.commentable_type),
    filter.user_id === undefined ? undefined : eq(comments.user_id, filter.user_id),
  );
}

/** The live comments on one target (replies when the target is a comment). */
export const commentsOn = (type: CommentableType, id: number) =>
  and(eq(comments.commentable_type, type), eq(comments.commentable_id, id), liveComments);

export const commentsBy = (userId: number) => and(eq(comments.user_id, userId), liveComments);

/** The id of a live row of a content kind; empty when it is missing or trashed. */
export function selectLive(db: Db, target: ContentKind, id: number) {
  return db.select({ id: target.id }).from(target.table).where(and(eq(target.id, id), eq(target.deleteTime, 0)));
}

/** A live comment's whole row. */
export const selectLiveComment = (db: Db, id: number) =>
  db.select().from(comments).where(and(eq(comments.comment_id, id), liveComments));

export function insertComment(db: Db, values: { commentable_type: CommentableType; commentable_id: number; user_id: number; content: string; time: number }) {
  const { time, ...fields } = values;
  return db.insert(comments).values({ ...fields, create_time: time, update_time: time });
}

/**
 * The id of the comment a user has just inserted, for the statements after the insert in the same batch: a
 * batch is one transaction and ids only grow (AUTOINCREMENT), so it is the user's largest comment id.
 */
export const newCommentId = (userId: number): SQL =>
  sql`(SELECT max(${comments.comment_id}) FROM ${comments} WHERE ${comments.user_id} = ${userId})`;

/** `comment_count` (or a parent comment's `reply_count`) + 1. */
export function countNewComment(db: Db, target: ContentKind, counter: "comment_count" | "reply_count", id: number) {
  return db
    .update(target.table)
    .set({ [counter]: sql`${sql.identifier(counter)} + 1` })
    .where(eq(target.id, id));
}

export function updateContent(db: Db, id: number, content: string, time: number) {
  return db.update(comments).set({ content, update_time: time }).where(eq(comments.comment_id, id));
}

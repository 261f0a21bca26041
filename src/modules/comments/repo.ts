/** Writes on comments, and the counter a new comment moves on its target; lists and reads are the content core's. */
import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { comments } from "../../db/schema";
import type { ContentKind } from "../content/kinds";
import type { CommentableType } from "./schema";

export function insertComment(
  db: Db,
  values: { commentable_type: CommentableType; commentable_id: number; user_id: number; content: string; time: number },
) {
  const { time, ...fields } = values;
  return db.insert(comments).values({ ...fields, create_time: time, update_time: time });
}

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

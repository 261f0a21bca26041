/** Writes on comments; lists and reads are the content core's, counters the counters behaviour's. */
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { comments } from "../../db/schema";
import type { CommentableKind } from "../../domain/entities";

export function insertComment(
  db: Db,
  values: { commentable_type: CommentableKind; commentable_id: number; user_id: number; content: string; time: number },
) {
  const { time, ...fields } = values;
  return db.insert(comments).values({ ...fields, create_time: time, update_time: time });
}

export function updateContent(db: Db, id: number, content: string, time: number) {
  return db.update(comments).set({ content, update_time: time }).where(eq(comments.comment_id, id));
}

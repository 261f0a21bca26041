/** Edits of comments; a new comment is behaviours/commentable.ts's, lists and reads the content core's. */
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { comments } from "../../db/schema";

export function updateContent(db: Db, id: number, content: string, time: number) {
  return db.update(comments).set({ content, update_time: time }).where(eq(comments.comment_id, id));
}

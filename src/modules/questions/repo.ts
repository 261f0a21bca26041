/**
 * Writes on questions; lists and reads are the content core's (behaviours/content/repo.ts), counters
 * behaviours/counters.ts'.
 */
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { questions } from "../../db/schema";
import type { Content } from "../../lib/markdown";

export function insertQuestion(db: Db, fields: Content & { user_id: number; title: string; time: number }) {
  const { time, ...values } = fields;
  return db.insert(questions).values({ ...values, create_time: time, update_time: time });
}

export function updateQuestion(db: Db, id: number, changes: Partial<Content> & { title?: string }, time: number) {
  return db
    .update(questions)
    .set({ ...changes, update_time: time })
    .where(eq(questions.question_id, id));
}

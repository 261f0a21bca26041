/** Writes on answers, and the counters an answer moves on its question and its author; lists and reads are the content core's. */
import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { answers, questions, users } from "../../db/schema";
import type { Content } from "../../lib/markdown";

export function insertAnswer(
  db: Db,
  fields: { question_id: number; user_id: number; content_markdown: string; content_rendered: string; time: number },
) {
  const { time, ...values } = fields;
  return db.insert(answers).values({ ...values, create_time: time, update_time: time });
}

/**
 * A new answer moves its question's answer_count, last_answer_time and update_time (the spec: a question's
 * update_time changes "by posting an answer under it"), and its author's answer_count (behaviour.md 3.11).
 */
export function countNewAnswer(db: Db, questionId: number, userId: number, time: number) {
  return [
    db
      .update(questions)
      .set({ answer_count: sql`${questions.answer_count} + 1`, last_answer_time: time, update_time: time })
      .where(eq(questions.question_id, questionId)),
    db
      .update(users)
      .set({ answer_count: sql`${users.answer_count} + 1` })
      .where(eq(users.user_id, userId)),
  ];
}

export function updateAnswer(db: Db, id: number, changes: Partial<Content> & { update_time: number }) {
  return db.update(answers).set(changes).where(eq(answers.answer_id, id));
}

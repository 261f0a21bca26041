/**
 * Writes on questions; lists and reads are the content core's (behaviours/content/repo.ts), counters
 * behaviours/counters.ts'.
 */
import { and, eq, exists, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { answers, questions } from "../../db/schema";
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

/** The answer a question's author would accept: what the checks need, trashed or not. */
export function selectAnswerOf(db: Db, answerId: number) {
  return db
    .select({ question_id: answers.question_id, delete_time: answers.delete_time })
    .from(answers)
    .where(eq(answers.answer_id, answerId));
}

/**
 * Sets the question's accepted answer (0: none). A non-zero one is set only while it is a live answer to this
 * question, so an answer trashed since the checks read it is never accepted.
 */
export function setAcceptedAnswer(db: Db, questionId: number, answerId: number) {
  const live = exists(
    db
      .select({ one: sql`1` })
      .from(answers)
      .where(and(eq(answers.answer_id, answerId), eq(answers.question_id, questionId), eq(answers.delete_time, 0))),
  );
  return db
    .update(questions)
    .set({ accepted_answer_id: answerId })
    .where(and(eq(questions.question_id, questionId), answerId === 0 ? undefined : live));
}

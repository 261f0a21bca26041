/** Writes on answers and on the question a new one moves; lists and reads are the content core's. */
import { asc, desc, eq, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { answers, questions } from "../../db/schema";
import type { Content } from "../../lib/markdown";

export function insertAnswer(
  db: Db,
  fields: { question_id: number; user_id: number; content_markdown: string; content_rendered: string; time: number },
) {
  const { time, ...values } = fields;
  return db.insert(answers).values({ ...values, create_time: time, update_time: time });
}

/**
 * A new answer moves its question's last_answer_time and update_time (the spec: a question's update_time changes
 * "by posting an answer under it"); its counters are recounted with the others (docs/counters.md).
 */
export function markAnswered(db: Db, questionId: number, time: number) {
  return db
    .update(questions)
    .set({ last_answer_time: time, update_time: time })
    .where(eq(questions.question_id, questionId));
}

export function updateAnswer(db: Db, id: number, changes: Partial<Content> & { update_time: number }) {
  return db.update(answers).set(changes).where(eq(answers.answer_id, id));
}

/**
 * The accepted answer of a question before (`desc`) or after the others: the question's accepted_answer_id is read
 * once, by its key.
 */
export function acceptedFirst(questionId: number, first: boolean): SQL {
  const accepted = sql`(SELECT ${questions.accepted_answer_id} FROM ${questions}
    WHERE ${questions.question_id} = ${questionId})`;
  return (first ? desc : asc)(sql`${answers.answer_id} = ${accepted}`);
}

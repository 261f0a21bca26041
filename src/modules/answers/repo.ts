/** Queries on answers, and the counters an answer moves on its question and its author. */
import { and, eq, gt, max, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { answers, questions, users } from "../../db/schema";
import type { Order } from "../../lib/order";
import { contentKinds } from "../content/kinds";
import { orderBy, type ListSource } from "../content/page";
import type { AnswerOrderField } from "./schema";

const columns = contentKinds.answer.columns;
const live = eq(answers.delete_time, 0);

export interface AnswerFilter {
  answer_id?: number;
  question_id?: number;
  user_id?: number;
  /** true: only trashed answers; false: only live ones. */
  trashed: boolean;
}

export function answerList(filter: AnswerFilter, order: Order<AnswerOrderField>): ListSource {
  return {
    table: answers,
    id: answers.answer_id,
    columns,
    where: and(
      filter.trashed ? gt(answers.delete_time, 0) : live,
      filter.answer_id === undefined ? undefined : eq(answers.answer_id, filter.answer_id),
      filter.question_id === undefined ? undefined : eq(answers.question_id, filter.question_id),
      filter.user_id === undefined ? undefined : eq(answers.user_id, filter.user_id),
    ),
    orderBy: orderBy(answers, order, answers.answer_id),
  };
}

/** Answers by id; trashed ones only when `withTrashed` (administrators). */
export const answersById = (withTrashed: boolean) => ({ table: answers, id: answers.answer_id, columns, where: withTrashed ? undefined : live });

/** An answer's row, trashed or not: edits tell "missing or trashed" (203001) apart from refusals themselves. */
export function selectAnswer(db: Db, id: number) {
  return db.select(columns).from(answers).where(eq(answers.answer_id, id));
}

export function insertAnswer(db: Db, fields: { question_id: number; user_id: number; content_markdown: string; content_rendered: string; time: number }) {
  const { time, ...values } = fields;
  return db
    .insert(answers)
    .values({ ...values, create_time: time, update_time: time })
    .returning();
}

/**
 * The id of the user's newest answer, as a parenthesised subquery: statements later in the batch that
 * inserts an answer name it this way. A batch is one transaction and ids only grow, so it is that answer.
 */
export function newestAnswerOf(db: Db, userId: number): SQL {
  return sql`${db.select({ id: max(answers.answer_id) }).from(answers).where(eq(answers.user_id, userId))}`;
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
    db.update(users).set({ answer_count: sql`${users.answer_count} + 1` }).where(eq(users.user_id, userId)),
  ];
}

export function updateAnswer(db: Db, id: number, changes: { content_markdown: string; content_rendered: string; update_time: number }) {
  return db.update(answers).set(changes).where(eq(answers.answer_id, id));
}

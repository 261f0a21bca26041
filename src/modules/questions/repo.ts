/** Queries on questions. Lists are `ListSource`s for the content core's page builder (content/page.ts). */
import { and, eq, gt, max, sql, type SQL } from "drizzle-orm";
import { followingJoin, followTargets } from "../../behaviours/followable";
import type { Db } from "../../db/client";
import { follows, questions, users } from "../../db/schema";
import type { Order } from "../../lib/order";
import { contentKinds } from "../content/kinds";
import { orderBy, type ListSource } from "../content/page";
import { inTopic } from "../topics/repo";
import type { QuestionOrderField } from "./schema";

const columns = contentKinds.question.columns;
const live = eq(questions.delete_time, 0);

export interface QuestionFilter {
  question_id?: number;
  user_id?: number;
  topic_id?: number;
  /** true: only trashed questions; false: only live ones. */
  trashed: boolean;
}

export function questionList(filter: QuestionFilter, order: Order<QuestionOrderField>): ListSource {
  return {
    table: questions,
    id: questions.question_id,
    columns,
    join: filter.topic_id === undefined ? undefined : inTopic("question", questions.question_id, filter.topic_id),
    where: and(
      filter.trashed ? gt(questions.delete_time, 0) : live,
      filter.question_id === undefined ? undefined : eq(questions.question_id, filter.question_id),
      filter.user_id === undefined ? undefined : eq(questions.user_id, filter.user_id),
    ),
    orderBy: orderBy(questions, order, questions.question_id),
  };
}

/** The live questions a user follows, newest follow first. */
export function followedQuestions(userId: number): ListSource {
  const join = followingJoin(followTargets.question, userId);
  return {
    table: questions,
    id: questions.question_id,
    columns,
    join: { table: follows, on: join.on },
    where: and(join.where, live),
    orderBy: join.orderBy,
  };
}

/** Questions by id; trashed ones only when `withTrashed` (administrators). */
export const questionsById = (withTrashed: boolean) => ({ table: questions, id: questions.question_id, columns, where: withTrashed ? undefined : live });

/** A question's row, trashed or not: edits tell "missing or trashed" (202001) apart from refusals themselves. */
export function selectQuestion(db: Db, id: number) {
  return db.select(columns).from(questions).where(eq(questions.question_id, id));
}

/** The live question, if any: the existence check of what hangs under a question (202001). */
export function selectLiveQuestion(db: Db, id: number) {
  return db.select({ question_id: questions.question_id }).from(questions).where(and(eq(questions.question_id, id), live));
}

export function insertQuestion(db: Db, fields: { user_id: number; title: string; content_markdown: string; content_rendered: string; time: number }) {
  const { time, ...values } = fields;
  return db
    .insert(questions)
    .values({ ...values, create_time: time, update_time: time })
    .returning();
}

/**
 * The id of the user's newest question, as a parenthesised subquery: statements later in the batch that
 * inserts a question name it this way. A batch is one transaction and ids only grow, so it is that question.
 */
export function newestQuestionOf(db: Db, userId: number): SQL {
  return sql`${db.select({ id: max(questions.question_id) }).from(questions).where(eq(questions.user_id, userId))}`;
}

export function countNewQuestion(db: Db, userId: number) {
  return db.update(users).set({ question_count: sql`${users.question_count} + 1` }).where(eq(users.user_id, userId));
}

export type QuestionChanges = Partial<Pick<typeof questions.$inferInsert, "title" | "content_markdown" | "content_rendered" | "update_time">>;

export function updateQuestion(db: Db, id: number, changes: QuestionChanges) {
  return db.update(questions).set(changes).where(eq(questions.question_id, id));
}

/**
 * Rules of the answers routes (spec operation 2, behaviour.md 3.2, 3.11, 4.1): who sees trashed answers, the
 * order of checks on a create or an edit, and the counters a new answer moves. A write is one read batch (what
 * the checks need) and one write batch carrying the counters and the record it answers with.
 */
import { runBatch, type BatchStatement, type Db } from "../../db/client";
import type { Caller } from "../../env";
import { ApiError, validationError } from "../../lib/errors";
import { processContent } from "../../lib/markdown";
import { parseOrder } from "../../lib/order";
import { parsePage } from "../../lib/pagination";
import { assertAuthorMay } from "../../lib/permissions";
import { now } from "../../lib/time";
import type { View } from "../../lib/view";
import { loadByIds, loadPage } from "../content/page";
import { presentRecord, type AnswerRow, type Relationships } from "../content/present";
import { parseBody } from "../questions/body";
import { selectLiveQuestion } from "../questions/repo";
import { userExists, type PageQuery } from "../topics/service";
import { answerList, answersById, countNewAnswer, insertAnswer, newestAnswerOf, selectAnswer, updateAnswer } from "./repo";
import { answerRelation } from "./relations";
import { ANSWER_ORDER, AnswerBody, type Answer, type AnswerInclude } from "./schema";

const presenter = (view: View) => (row: AnswerRow, relationships: Relationships | undefined) => presentRecord(row, view, relationships) as Answer;

export interface AnswerPageQuery extends PageQuery {
  order?: string;
}

export interface AnswerListQuery extends AnswerPageQuery {
  answer_id?: number;
  question_id?: number;
  user_id?: number;
  trashed?: string;
}

const orderOf = (query: AnswerPageQuery, view: View) => parseOrder(query.order, ANSWER_ORDER, view.isAdmin);

/** GET /answers (administrators): live answers, or only trashed ones with `trashed=true`. */
export function listAnswers(db: Db, view: View, query: AnswerListQuery, include: Set<AnswerInclude>) {
  const filter = { answer_id: query.answer_id, question_id: query.question_id, user_id: query.user_id, trashed: query.trashed === "true" };
  return loadPage(db, answerList(filter, orderOf(query, view)), parsePage(query), answerRelation(db, view, include), presenter(view));
}

/** The live answers of a live question; 202001 otherwise. */
export function listQuestionAnswers(db: Db, view: View, questionId: number, query: AnswerPageQuery, include: Set<AnswerInclude>) {
  const source = answerList({ question_id: questionId, trashed: false }, orderOf(query, view));
  return loadPage(db, source, parsePage(query), answerRelation(db, view, include), presenter(view), {
    statement: selectLiveQuestion(db, questionId),
    notFound: "QUESTION_NOT_FOUND",
  });
}

/** A user's live answers; 201003 when the user is missing. */
export function listUserAnswers(db: Db, view: View, userId: number, query: AnswerPageQuery, include: Set<AnswerInclude>) {
  const source = answerList({ user_id: userId, trashed: false }, orderOf(query, view));
  return loadPage(db, source, parsePage(query), answerRelation(db, view, include), presenter(view), userExists(db, view, userId));
}

/** Answers by id in the order asked, after `writes` in the same batch; trashed ones only for administrators. */
function loadAnswers(db: Db, view: View, ids: number[], include: Set<AnswerInclude>, writes: BatchStatement[] = []) {
  return loadByIds(db, answersById(view.isAdmin), ids, answerRelation(db, view, include), presenter(view), writes);
}

export async function getAnswer(db: Db, view: View, id: number, include: Set<AnswerInclude>, writes: BatchStatement[] = []): Promise<Answer> {
  const [answer] = await loadAnswers(db, view, [id], include, writes);
  if (!answer) throw new ApiError("ANSWER_NOT_FOUND");
  return answer;
}

/** The content of a create or an edit, or the 200001 naming both content fields. */
function contentOf(body: { content_markdown?: string; content_rendered?: string }) {
  const content = processContent(body);
  if (!content.ok) throw validationError(content.errors);
  return content.content;
}

/**
 * POST /questions/{id}/answers (spec operation 2): the question must be live (202001), checked before the
 * body. The answer, the question's answer_count, last_answer_time and update_time, the author's answer_count
 * and the record with its relations go in one write batch. Anyone may answer, their own question included.
 */
export async function createAnswer(db: Db, view: View, author: Caller, questionId: number, raw: unknown, include: Set<AnswerInclude>): Promise<Answer> {
  const [question] = await runBatch(db, [selectLiveQuestion(db, questionId)]);
  if ((question as unknown[]).length === 0) throw new ApiError("QUESTION_NOT_FOUND");
  const content = contentOf(parseBody(AnswerBody, raw));

  const time = now();
  // The new id is only known inside the batch: its relations name the author's newest answer.
  const relation = answerRelation(db, view, include)?.(newestAnswerOf(db, author.user_id));
  const writes = [
    insertAnswer(db, { question_id: questionId, user_id: author.user_id, ...content, time }),
    ...countNewAnswer(db, questionId, author.user_id, time),
  ];
  const results = await runBatch(db, [...writes, ...(relation?.statements ?? [])]);
  const [row] = results[0] as AnswerRow[];
  return presenter(view)(row!, relation?.resolve(results.slice(writes.length))(row!.answer_id));
}

/**
 * PATCH /answers/{id}, in the reference's order: 203001 for a missing or trashed answer (administrators
 * too), the author's permission (203002-203005), then the body. No content field changes nothing; an edit
 * moves update_time.
 */
export async function editAnswer(db: Db, view: View, caller: Caller, id: number, raw: unknown, include: Set<AnswerInclude>): Promise<Answer> {
  const [rows] = await runBatch(db, [selectAnswer(db, id)]);
  const [answer] = rows as AnswerRow[];
  if (!answer || answer.delete_time > 0) throw new ApiError("ANSWER_NOT_FOUND");
  const time = now();
  assertAuthorMay("answer", "edit", answer, caller, view.options, time);

  const body = parseBody(AnswerBody, raw);
  const edited = body.content_markdown !== undefined || body.content_rendered !== undefined;
  const writes = edited ? [updateAnswer(db, id, { ...contentOf(body), update_time: time })] : [];
  return getAnswer(db, view, id, include, writes);
}

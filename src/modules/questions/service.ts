/**
 * Rules of the questions routes (behaviour.md 3.1, 3.11, 4.1, 4.6): who sees trashed questions, the order of
 * checks on an edit, the topic set and every counter a write moves. A write is at most one read batch (what
 * the checks need) and one write batch carrying the counters and the record it answers with.
 */
import { runBatch, type BatchStatement, type Db } from "../../db/client";
import type { Caller } from "../../env";
import { ApiError, validationError, type FieldErrors } from "../../lib/errors";
import { processContent, type ContentResult } from "../../lib/markdown";
import { parseOrder } from "../../lib/order";
import { parsePage } from "../../lib/pagination";
import { assertAuthorMay } from "../../lib/permissions";
import { now } from "../../lib/time";
import type { View } from "../../lib/view";
import { loadByIds, loadPage } from "../content/page";
import { presentRecord, type QuestionRow, type Relationships } from "../content/present";
import { linkTopics, selectLinkedTopicIds, selectLiveTopic, selectLiveTopicIds, unlinkTopics } from "../topics/repo";
import { userExists, type PageQuery } from "../topics/service";
import { parseBody } from "./body";
import {
  countNewQuestion,
  followedQuestions,
  insertQuestion,
  newestQuestionOf,
  questionList,
  questionsById,
  selectQuestion,
  updateQuestion,
  type QuestionChanges,
} from "./repo";
import { questionRelation } from "./relations";
import { MAX_TOPICS, QUESTION_ORDER, QuestionCreateBody, QuestionEditBody, type Question, type QuestionInclude } from "./schema";

const presenter = (view: View) => (row: QuestionRow, relationships: Relationships | undefined) => presentRecord(row, view, relationships) as Question;

export interface QuestionPageQuery extends PageQuery {
  order?: string;
}

export interface QuestionListQuery extends QuestionPageQuery {
  question_id?: number;
  user_id?: number;
  topic_id?: number;
  trashed?: string;
}

const orderOf = (query: QuestionPageQuery, view: View) => parseOrder(query.order, QUESTION_ORDER, view.isAdmin);

/** GET /questions: live questions, or for administrators asking `trashed=true` only trashed ones. */
export function listQuestions(db: Db, view: View, query: QuestionListQuery, include: Set<QuestionInclude>) {
  const filter = { question_id: query.question_id, user_id: query.user_id, topic_id: query.topic_id, trashed: view.isAdmin && query.trashed === "true" };
  return loadPage(db, questionList(filter, orderOf(query, view)), parsePage(query), questionRelation(db, view, include), presenter(view));
}

/** A user's live questions; 201003 when the user is missing. */
export function listUserQuestions(db: Db, view: View, userId: number, query: QuestionPageQuery, include: Set<QuestionInclude>) {
  const source = questionList({ user_id: userId, trashed: false }, orderOf(query, view));
  return loadPage(db, source, parsePage(query), questionRelation(db, view, include), presenter(view), userExists(db, view, userId));
}

/** The live questions of a live topic; 205001 otherwise. */
export function listTopicQuestions(db: Db, view: View, topicId: number, query: QuestionPageQuery, include: Set<QuestionInclude>) {
  const source = questionList({ topic_id: topicId, trashed: false }, orderOf(query, view));
  return loadPage(db, source, parsePage(query), questionRelation(db, view, include), presenter(view), {
    statement: selectLiveTopic(db, topicId),
    notFound: "TOPIC_NOT_FOUND",
  });
}

/** The live questions a user follows, newest follow first; 201003 when the user is missing. */
export function listFollowedQuestions(db: Db, view: View, userId: number, query: PageQuery, include: Set<QuestionInclude>) {
  return loadPage(db, followedQuestions(userId), parsePage(query), questionRelation(db, view, include), presenter(view), userExists(db, view, userId));
}

/** Questions by id in the order asked, after `writes` in the same batch; trashed ones only for administrators. */
function loadQuestions(db: Db, view: View, ids: number[], include: Set<QuestionInclude>, writes: BatchStatement[] = []) {
  return loadByIds(db, questionsById(view.isAdmin), ids, questionRelation(db, view, include), presenter(view), writes);
}

export async function getQuestion(db: Db, view: View, id: number, include: Set<QuestionInclude>, writes: BatchStatement[] = []): Promise<Question> {
  const [question] = await loadQuestions(db, view, [id], include, writes);
  if (!question) throw new ApiError("QUESTION_NOT_FOUND");
  return question;
}

/** An error on `topic_ids` naming the ids that are not live topics, if any. */
function topicErrors(wanted: number[], live: { topic_id: number }[]): FieldErrors {
  const found = new Set(live.map((row) => row.topic_id));
  const missing = wanted.filter((id) => !found.has(id));
  return missing.length ? { topic_ids: `no such topic: ${missing.join(", ")}` } : {};
}

const contentErrors = (content: ContentResult | null): FieldErrors => (content && !content.ok ? content.errors : {});

/**
 * POST /questions: the question, its topic links, the author's and each topic's question_count, and the
 * record with its relations, all in one write batch (behaviour.md 3.1). No auto-follow.
 */
export async function createQuestion(db: Db, view: View, author: Caller, raw: unknown, include: Set<QuestionInclude>): Promise<Question> {
  const body = parseBody(QuestionCreateBody, raw);
  const content = processContent(body);
  const [liveTopics] = await runBatch(db, [selectLiveTopicIds(db, body.topic_ids)]);
  const errors = { ...contentErrors(content), ...topicErrors(body.topic_ids, liveTopics as { topic_id: number }[]) };
  if (!content.ok || Object.keys(errors).length > 0) throw validationError(errors);

  const time = now();
  // The new id is only known inside the batch: later statements name the author's newest question.
  const created = newestQuestionOf(db, author.user_id);
  const relation = questionRelation(db, view, include)?.(created);
  const writes = [
    insertQuestion(db, { user_id: author.user_id, title: body.title, ...content.content, time }),
    countNewQuestion(db, author.user_id),
    ...linkTopics(db, "question", created, body.topic_ids, time),
  ];
  const results = await runBatch(db, [...writes, ...(relation?.statements ?? [])]);
  const [row] = results[0] as QuestionRow[];
  return presenter(view)(row!, relation?.resolve(results.slice(writes.length))(row!.question_id));
}

/**
 * The topic ids a body seems to send, read before validation so that the live topics among them come in the
 * same read as the question. Validation decides later whether the list is acceptable.
 */
function sentTopicIds(raw: unknown): number[] {
  const sent = (raw as { topic_ids?: unknown } | null)?.topic_ids;
  if (!Array.isArray(sent)) return [];
  const ids = [...new Set(sent.filter((id): id is number => Number.isSafeInteger(id) && id > 0))];
  return ids.length <= MAX_TOPICS ? ids : [];
}

/**
 * PATCH /questions/{id}, in the reference's order: 202001 for a missing or trashed question (administrators
 * too), the author's permission (202002-202006), then the body. A title or content edit moves update_time;
 * `topic_ids` replaces the set of live topics, moving only the counters of topics removed or added, and
 * leaves update_time alone. Links to trashed topics, which nobody sees, are kept.
 */
export async function editQuestion(db: Db, view: View, caller: Caller, id: number, raw: unknown, include: Set<QuestionInclude>): Promise<Question> {
  const wanted = sentTopicIds(raw);
  const [rows, linked, live] = await runBatch(db, [
    selectQuestion(db, id),
    selectLinkedTopicIds(db, "question", id),
    ...(wanted.length ? [selectLiveTopicIds(db, wanted)] : []),
  ]);
  const [question] = rows as QuestionRow[];
  if (!question || question.delete_time > 0) throw new ApiError("QUESTION_NOT_FOUND");
  const time = now();
  assertAuthorMay("question", "edit", question, caller, view.options, time);

  const body = parseBody(QuestionEditBody, raw);
  const content = body.content_markdown !== undefined || body.content_rendered !== undefined ? processContent(body) : null;
  const errors = { ...contentErrors(content), ...(body.topic_ids ? topicErrors(body.topic_ids, (live ?? []) as { topic_id: number }[]) : {}) };
  if (Object.keys(errors).length > 0) throw validationError(errors);

  const changes: QuestionChanges = {};
  if (body.title !== undefined) changes.title = body.title;
  if (content?.ok) Object.assign(changes, content.content);
  const writes: BatchStatement[] = [];
  if (Object.keys(changes).length > 0) writes.push(updateQuestion(db, id, { ...changes, update_time: time }));
  const next = body.topic_ids;
  if (next) {
    const current = (linked as { topic_id: number }[]).map((row) => row.topic_id);
    const removed = current.filter((topicId) => !next.includes(topicId));
    const added = next.filter((topicId) => !current.includes(topicId));
    if (removed.length) writes.push(...unlinkTopics(db, "question", id, removed));
    if (added.length) writes.push(...linkTopics(db, "question", id, added, time));
  }
  return getQuestion(db, view, id, include, writes);
}

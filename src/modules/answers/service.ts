/**
 * Rules of the answers routes (spec operation 2, docs/operations.md#answers, docs/counters.md,
 * docs/permissions.md#author-edit-and-delete-rules): who sees trashed answers, the order of checks on a create or an
 * edit, and the counters a new answer moves. A write is one read batch (what the checks need) and one write batch
 * carrying the counters and the record it answers with.
 */
import type { SQL } from "drizzle-orm";
import { createdContent, editedFields } from "../../behaviours/content/body";
import { authoredPage, filteredPage, loadOne, oneRecord, type PageQuery, pageOf } from "../../behaviours/content/page";
import type { AnswerRow } from "../../behaviours/content/present";
import { filteredList, liveCheck, newestOf, selectLive, selectLiveRow } from "../../behaviours/content/repo";
import { recountStatements } from "../../behaviours/counters";
import { linkImages } from "../../behaviours/image-linking";
import { mentionMap, mentionSource, notifyMentioned, selectMentionable } from "../../behaviours/mentionable";
import { type MentionedIn, questionAnswered } from "../../behaviours/notification-events";
import { type EditSource, editedBody, editRead, recordRevision, revisionTargets } from "../../behaviours/revisable";
import { documentOf, indexNew, reindex } from "../../behaviours/searchable";
import type { CallerId } from "../../core/caller";
import { ApiError } from "../../core/errors";
import { batch, type Db, writeThenRead } from "../../db/client";
import { entities } from "../../domain/entities";
import { assertAuthorMay } from "../../domain/permissions";
import { parseBody } from "../../http/late-body";
import type { View } from "../../http/view";
import { linkedMembers } from "../../lib/mentions";
import { parseOrder } from "../../lib/order";
import { now } from "../../lib/time";
import { emit, emitMentioned, emitNotified } from "../events/outbox";
import { answerRecords } from "./records";
import { acceptedFirst, insertAnswer, markAnswered, updateAnswer } from "./repo";
import { ANSWER_ORDER, type Answer, AnswerBody, type AnswerInclude, QUESTION_ANSWER_ORDER } from "./schema";

export interface AnswerListQuery extends PageQuery {
  answer_id?: number;
  question_id?: number;
  user_id?: number;
  trashed?: string;
}

/** GET /answers (administrators): live answers, or only trashed ones with `trashed=true`. */
export function listAnswers(db: Db, view: View, query: AnswerListQuery, include: Set<AnswerInclude>) {
  const { answer_id, question_id, user_id } = query;
  return filteredPage(
    db,
    view,
    answerRecords,
    { answer_id, question_id, user_id, trashed: query.trashed === "true" },
    query,
    include,
  );
}

/**
 * The live answers of a live question; 202001 otherwise. `accepted` orders by whether each is the accepted answer,
 * the others in the default order.
 */
export function listQuestionAnswers(
  db: Db,
  view: View,
  questionId: number,
  query: PageQuery,
  include: Set<AnswerInclude>,
) {
  const check = liveCheck(db, entities.question, questionId);
  const order = parseOrder(query.order, QUESTION_ANSWER_ORDER, view.isAdmin);
  if (order.field !== "accepted") {
    return filteredPage(db, view, answerRecords, { question_id: questionId, trashed: false }, query, include, check);
  }
  const source = filteredList(
    entities.answer,
    { question_id: questionId, trashed: false },
    parseOrder(undefined, ANSWER_ORDER, false),
  );
  source.orderBy.unshift(acceptedFirst(questionId, order.desc));
  return pageOf(db, view, answerRecords, source, query, include, check);
}

/** A user's live answers; 201003 when the user is missing. */
export function listUserAnswers(db: Db, view: View, userId: number, query: PageQuery, include: Set<AnswerInclude>) {
  return authoredPage(db, view, answerRecords, userId, query, include);
}

/** One answer; trashed ones only for administrators. */
export function getAnswer(db: Db, view: View, id: number, include: Set<AnswerInclude>): Promise<Answer> {
  return loadOne(db, view, answerRecords, id, include);
}

/**
 * POST /questions/{id}/answers (spec operation 2): the question must be live (202001), checked before the
 * body. The answer, the question's answer_count, last_answer_time and update_time, the author's answer_count
 * and the record with its relations go in one write batch. Anyone may answer, their own question included.
 */
export async function createAnswer(
  db: Db,
  view: View,
  author: CallerId,
  questionId: number,
  raw: unknown,
  include: Set<AnswerInclude>,
): Promise<Answer> {
  const found = await batch(db, {
    question: selectLive(db, entities.question, questionId),
    members: selectMentionable(db, mentionSource(raw)),
  });
  if (found.question.length === 0) throw new ApiError(entities.question.notFound);
  const { content, mentioned } = createdContent(parseBody(AnswerBody, raw), [], mentionMap(found.members));

  const time = now();
  // The new answer's id is only known inside the batch: the statements after the insert name it by subquery.
  const created = newestOf(db, entities.answer, author.user_id);
  const item = answerItem(questionId, created);
  const mentions = notifyMentioned(db, view, mentioned, [], item, author.user_id, author.user_id, time);
  const writes = [
    insertAnswer(db, { question_id: questionId, user_id: author.user_id, ...content, time }),
    markAnswered(db, questionId, time),
    ...recountStatements(db, "answer", created),
    ...linkImages(db, "answer", created, author.user_id, content.content_markdown),
    // After the insert: the notification names the new answer (docs/notifications.md).
    ...questionAnswered(db, questionId, created, author.user_id, time),
    indexNew(db, "answer", created, documentOf.answer(content)),
    ...mentions.statements,
  ];
  const answer = await writeThenRead(db, writes, oneRecord(db, view, answerRecords, created, include));
  emit(db, "answer.created", { ids: [answer.answer_id] });
  emitMentioned(db, mentions.sent, "answer_id", answer.answer_id);
  emitNotified(db, {
    type: "question_answered",
    column: "answer_id",
    ids: [answer.answer_id],
    receivers: { authorsOf: "question", ids: [questionId] },
    sender_id: author.user_id,
    create_time: time,
  });
  return answer;
}

/**
 * PATCH /answers/{id}, in the reference's order: 203001 for a missing or trashed answer (administrators
 * too), the author's permission (203002-203005), then the body. No content field changes nothing; an edit
 * moves update_time. What it replaces is kept as a revision (docs/revisions.md).
 */
export function editAnswer(
  db: Db,
  view: View,
  caller: CallerId,
  id: number,
  raw: unknown,
  include: Set<AnswerInclude>,
): Promise<Answer> {
  return changeAnswer(db, view, caller, id, { body: raw }, include);
}

/**
 * POST /answers/{id}/revisions/{revision}/restore: an edit under the same rules and in the same order, of the
 * content the revision held; then 210003 for a revision that is not an earlier one still kept
 * (docs/revisions.md#restore).
 */
export function restoreAnswer(
  db: Db,
  view: View,
  caller: CallerId,
  id: number,
  revision: number,
  include: Set<AnswerInclude>,
): Promise<Answer> {
  return changeAnswer(db, view, caller, id, { revision }, include);
}

/** An edit, of a body or of a revision restored: one read batch for the checks, one write batch. */
async function changeAnswer(
  db: Db,
  view: View,
  caller: CallerId,
  id: number,
  source: EditSource,
  include: Set<AnswerInclude>,
): Promise<Answer> {
  const found = await batch(db, {
    answer: selectLiveRow(db, entities.answer, id),
    edited: editRead(db, revisionTargets.answer, id, source),
  });
  const [answer] = found.answer as AnswerRow[];
  if (!answer) throw new ApiError(entities.answer.notFound);
  const time = now();
  assertAuthorMay("answer", "edit", answer, caller, view.options, time);

  const body = parseBody(AnswerBody, editedBody(source, found.edited.state));
  const { changes, mentioned } = editedFields(body, [], mentionMap(found.edited.members));
  const before = linkedMembers(answer.content_rendered);
  const revised = { content_markdown: changes.content_markdown, mentioned: before };
  const writes = recordRevision(db, revisionTargets.answer, id, caller.user_id, revised, time);
  if (Object.keys(changes).length > 0) writes.push(updateAnswer(db, id, { ...changes, update_time: time }));
  if (changes.content_markdown) writes.push(...linkImages(db, "answer", id, answer.user_id, changes.content_markdown));
  if (changes.content_rendered)
    writes.push(...reindex(db, "answer", id, documentOf.answer({ content_rendered: changes.content_rendered })));
  const item = answerItem(answer.question_id, id);
  const mentions = notifyMentioned(db, view, mentioned, before, item, answer.user_id, caller.user_id, time);
  writes.push(...mentions.statements);
  const edited = await writeThenRead(db, writes, oneRecord(db, view, answerRecords, id, include));
  if (Object.keys(changes).length > 0) emit(db, "answer.updated", { ids: [id] });
  emitMentioned(db, mentions.sent, "answer_id", id);
  return edited;
}

/** An answer as the place of a mention: its notification names the question too. */
const answerItem = (questionId: number, id: number | SQL): MentionedIn => ({ type: "answer", id, questionId });

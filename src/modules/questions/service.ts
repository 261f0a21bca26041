/**
 * Rules of the questions routes (behaviour.md 3.1, 3.11, 4.1, 4.6): who sees trashed questions, the order of
 * checks on an edit, the topic set and every counter a write moves. A write is at most one read batch (what
 * the checks need) and one write batch carrying the counters and the record it answers with.
 */
import { runBatch, type BatchStatement, type Db } from "../../db/client";
import type { Caller } from "../../env";
import { ApiError } from "../../lib/errors";
import { parseBody } from "../../lib/late-body";
import { assertAuthorMay } from "../../lib/permissions";
import { now } from "../../lib/time";
import type { View } from "../../lib/view";
import { createdContent, editedFields, topicIdsIn } from "../content/body";
import { contentKinds } from "../content/kinds";
import { filteredPage, loadOne, pageOf, type PageQuery } from "../content/page";
import type { QuestionRow } from "../content/present";
import { followedBy, liveCheck, newestOf, selectLiveRow } from "../content/repo";
import { linkTopics, replaceTopics, selectLiveTopicIds } from "../topics/repo";
import { userExists } from "../users/service";
import { questionRecords } from "./records";
import { countNewQuestion, insertQuestion, updateQuestion } from "./repo";
import { QuestionEditBody, type Question, type QuestionCreate, type QuestionInclude } from "./schema";
import { linkImages } from "../images/linking";

export interface QuestionListQuery extends PageQuery {
  question_id?: number;
  user_id?: number;
  topic_id?: number;
  trashed?: string;
}

/** GET /questions: live questions, or for administrators asking `trashed=true` only trashed ones. */
export function listQuestions(db: Db, view: View, query: QuestionListQuery, include: Set<QuestionInclude>) {
  const { question_id, user_id, topic_id } = query;
  const filter = { question_id, user_id, inTopic: topic_id, trashed: view.isAdmin && query.trashed === "true" };
  return filteredPage(db, view, questionRecords, filter, query, include);
}

/** A user's live questions; 201003 when the user is missing. */
export function listUserQuestions(db: Db, view: View, userId: number, query: PageQuery, include: Set<QuestionInclude>) {
  return filteredPage(db, view, questionRecords, { user_id: userId, trashed: false }, query, include, userExists(db, view, userId));
}

/** The live questions of a live topic; 205001 otherwise. */
export function listTopicQuestions(db: Db, view: View, topicId: number, query: PageQuery, include: Set<QuestionInclude>) {
  return filteredPage(db, view, questionRecords, { inTopic: topicId, trashed: false }, query, include, liveCheck(db, contentKinds.topic, topicId));
}

/** The live questions a user follows, newest follow first; 201003 when the user is missing. */
export function listFollowedQuestions(db: Db, view: View, userId: number, query: PageQuery, include: Set<QuestionInclude>) {
  return pageOf(db, view, questionRecords, followedBy("question", userId), query, include, userExists(db, view, userId));
}

/** One question, after `writes` in the same batch; trashed ones only for administrators. */
export function getQuestion(db: Db, view: View, id: number, include: Set<QuestionInclude>, writes: BatchStatement[] = []): Promise<Question> {
  return loadOne(db, view, questionRecords, id, include, writes);
}

/**
 * POST /questions: the question, its topic links, the author's and each topic's question_count, and the
 * record with its relations, all in one write batch (behaviour.md 3.1). No auto-follow.
 */
export async function createQuestion(db: Db, view: View, author: Caller, body: QuestionCreate, include: Set<QuestionInclude>): Promise<Question> {
  const [liveTopics] = await runBatch(db, [selectLiveTopicIds(db, body.topic_ids)]);
  const content = createdContent(body, liveTopics as { topic_id: number }[]);
  const time = now();
  const created = newestOf(db, contentKinds.question, author.user_id);
  const writes = [
    insertQuestion(db, { user_id: author.user_id, title: body.title, ...content, time }),
    countNewQuestion(db, author.user_id),
    ...linkTopics(db, "question", created, body.topic_ids, time),
    ...linkImages(db, "question", created, author.user_id, content.content_markdown),
  ];
  return loadOne(db, view, questionRecords, created, include, writes);
}

/**
 * PATCH /questions/{id}, in the reference's order: 202001 for a missing or trashed question (administrators
 * too), the author's permission (202002-202006), then the body. A title or content edit moves update_time;
 * `topic_ids` replaces the set of live topics, moving only the counters of topics removed or added, and
 * leaves update_time alone.
 */
export async function editQuestion(db: Db, view: View, caller: Caller, id: number, raw: unknown, include: Set<QuestionInclude>): Promise<Question> {
  const wanted = topicIdsIn(raw);
  const [rows, live = []] = await runBatch(db, [
    selectLiveRow(db, contentKinds.question, id),
    ...(wanted.length ? [selectLiveTopicIds(db, wanted)] : []),
  ]);
  const [question] = rows as QuestionRow[];
  if (!question) throw new ApiError("QUESTION_NOT_FOUND");
  const time = now();
  assertAuthorMay("question", "edit", question, caller, view.options, time);

  const body = parseBody(QuestionEditBody, raw);
  const changes = editedFields(body, live as { topic_id: number }[]);
  const writes: BatchStatement[] = [];
  if (Object.keys(changes).length > 0) writes.push(updateQuestion(db, id, { ...changes, update_time: time }));
  if (body.topic_ids) writes.push(...replaceTopics(db, "question", id, body.topic_ids, time));
  if (changes.content_markdown) writes.push(...linkImages(db, "question", id, question.user_id, changes.content_markdown));
  return getQuestion(db, view, id, include, writes);
}

/**
 * Rules of the topics routes (behaviour.md 3.5): who sees trashed topics, name uniqueness among live topics,
 * and the lists of topics. Every operation is one batch after authentication: checks, writes, the record they
 * answer with and its relations travel together.
 */
import { followTargets, selectTarget } from "../../behaviours/followable";
import { runBatch, type Db } from "../../db/client";
import { ApiError, validationError } from "../../lib/errors";
import { parseOrder } from "../../lib/order";
import { parsePage } from "../../lib/pagination";
import type { View } from "../../lib/view";
import { ARTICLE_ORDER, type ArticleInclude } from "../articles/schema";
import { pageOfArticles } from "../articles/service";
import { loadByIds, loadPage, type ExistenceCheck } from "../content/page";
import { presentTopic, type Relationships, type TopicRow } from "../content/present";
import { followedTopics, insertTopic, liveTopicNamed, selectForEdit, selectLiveTopic, selectTopic, topicArticles, topicList, topicsById, updateTopic } from "./repo";
import { topicRelation } from "./relations";
import { TOPIC_ORDER, type Topic, type TopicChanges, type TopicInclude } from "./schema";

export interface PageQuery {
  page?: string;
  per_page?: string;
}

const presenter = (view: View) => (row: TopicRow, relationships: Relationships | undefined) => presentTopic(row, view, relationships) as Topic;

/**
 * A user sub-list's check that the user exists (201003). The caller's own id needs no lookup
 * (behaviour.md 4.4): a logged-in caller exists.
 */
export function userExists(db: Db, view: View, userId: number): ExistenceCheck | undefined {
  if (view.viewer?.user_id === userId) return undefined;
  return { statement: selectTarget(db, followTargets.user, userId), notFound: "USER_NOT_FOUND" };
}

export interface TopicListQuery extends PageQuery {
  order?: string;
  topic_id?: number;
  name?: string;
  trashed?: string;
}

/** GET /topics: live topics, or for administrators asking `trashed=true` only trashed ones. */
export function listTopics(db: Db, view: View, query: TopicListQuery, include: Set<TopicInclude>) {
  const filter = { topic_id: query.topic_id, name: query.name, trashed: view.isAdmin && query.trashed === "true" };
  const source = topicList(filter, parseOrder(query.order, TOPIC_ORDER, view.isAdmin));
  return loadPage(db, source, parsePage(query), topicRelation(db, view, include), presenter(view));
}

/** The live topics a user follows, newest follow first (behaviour.md 3.6). */
export function listFollowedTopics(db: Db, view: View, userId: number, query: PageQuery, include: Set<TopicInclude>) {
  return loadPage(db, followedTopics(userId), parsePage(query), topicRelation(db, view, include), presenter(view), userExists(db, view, userId));
}

/** GET /topics/{id}/articles: the live articles of a live topic (205001 otherwise), ordered as every article list. */
export function listTopicArticles(db: Db, view: View, topicId: number, query: PageQuery & { order?: string }, include: Set<ArticleInclude>) {
  const source = topicArticles(topicId, parseOrder(query.order, ARTICLE_ORDER, view.isAdmin));
  return pageOfArticles(db, view, source, query, include, { statement: selectLiveTopic(db, topicId), notFound: "TOPIC_NOT_FOUND" });
}

/** Topics by id in the order asked; trashed ones only for administrators (DECISIONS.md, content). */
function loadTopics(db: Db, view: View, ids: number[], include: Set<TopicInclude>) {
  return loadByIds(db, topicsById(view.isAdmin), ids, topicRelation(db, view, include), presenter(view));
}

export async function getTopic(db: Db, view: View, id: number, include: Set<TopicInclude>): Promise<Topic> {
  const [topic] = await loadTopics(db, view, [id], include);
  if (!topic) throw new ApiError("TOPIC_NOT_FOUND");
  return topic;
}

/** A duplicate name is a 200001 on `name` with 409, as for taken usernames (DECISIONS.md, wire format). */
const nameTaken = () => validationError({ name: "a topic with this name already exists" }, 409);

export async function createTopic(db: Db, view: View, fields: { name: string; description: string }, include: Set<TopicInclude>): Promise<Topic> {
  // The new topic's id is only known inside the batch: its relations select it by its (unique) name.
  const relation = topicRelation(db, view, include)?.(liveTopicNamed(db, fields.name));
  const results = await runBatch(db, [insertTopic(db, fields), ...(relation?.statements ?? [])]);
  const [row] = results.shift() as TopicRow[];
  if (!row) throw nameTaken();
  return presenter(view)(row, relation?.resolve(results)(row.topic_id));
}

/**
 * Changes the fields sent of a live topic (205001 otherwise, administrators included). The existence and
 * name checks run in the same batch as the guarded update, so a taken name changes nothing.
 */
export async function editTopic(db: Db, view: View, id: number, changes: TopicChanges, include: Set<TopicInclude>): Promise<Topic> {
  const { before, owner } = selectForEdit(db, id, changes.name);
  const writes = Object.keys(changes).length > 0 ? [updateTopic(db, id, changes)] : [];
  const relation = topicRelation(db, view, include)?.([id]);
  const results = await runBatch(db, [before, ...(owner ? [owner] : []), ...writes, selectTopic(db, id), ...(relation?.statements ?? [])]);
  if ((results.shift() as unknown[]).length === 0) throw new ApiError("TOPIC_NOT_FOUND");
  if (owner && (results.shift() as unknown[]).length > 0) throw nameTaken();
  results.splice(0, writes.length);
  const [row] = results.shift() as TopicRow[];
  return presenter(view)(row!, relation?.resolve(results)(id));
}

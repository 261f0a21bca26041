/**
 * Queries on topics and on the links between topics and the questions or articles filed under them
 * (`topicables`). Names are compared through the same lower() the partial unique index uses, so a lookup and
 * the index agree on what counts as the same name among live topics (DECISIONS.md).
 */
import { and, asc, eq, exists, gt, ne, notExists, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { followingJoin, followTargets } from "../../behaviours/followable";
import { inIds } from "../../behaviours/id-source";
import type { Db } from "../../db/client";
import { articles, follows, topicables, topics } from "../../db/schema";
import type { Order } from "../../lib/order";
import { contentKinds } from "../content/kinds";
import { orderBy, type ListSource } from "../content/page";
import type { ArticleOrderField } from "../articles/schema";
import type { TopicChanges, TopicOrderField } from "./schema";

export type TopicableType = (typeof topicables.$inferSelect)["topicable_type"];

const columns = contentKinds.topic.columns;
const live = eq(topics.delete_time, 0);

export interface TopicFilter {
  topic_id?: number;
  name?: string;
  /** true: only trashed topics; false: only live ones. */
  trashed: boolean;
}

export function topicList(filter: TopicFilter, order: Order<TopicOrderField>): ListSource {
  return {
    table: topics,
    id: topics.topic_id,
    columns,
    where: and(
      filter.trashed ? gt(topics.delete_time, 0) : live,
      filter.topic_id === undefined ? undefined : eq(topics.topic_id, filter.topic_id),
      filter.name === undefined ? undefined : sql`lower(${topics.name}) = lower(${filter.name})`,
    ),
    orderBy: orderBy(topics, order, topics.topic_id),
  };
}

/** The live topics a user follows, newest follow first. */
export function followedTopics(userId: number): ListSource {
  const join = followingJoin(followTargets.topic, userId);
  return { table: topics, id: topics.topic_id, columns, join: { table: follows, on: join.on }, where: and(join.where, live), orderBy: join.orderBy };
}

/** The live articles filed under a topic. */
export function topicArticles(topicId: number, order: Order<ArticleOrderField>): ListSource {
  return {
    table: articles,
    id: articles.article_id,
    columns: contentKinds.article.columns,
    join: inTopic("article", articles.article_id, topicId),
    where: eq(articles.delete_time, 0),
    orderBy: orderBy(articles, order, articles.article_id),
  };
}

/** Topics by id; trashed ones only when `withTrashed` (administrators reading a single topic). */
export const topicsById = (withTrashed: boolean) => ({ table: topics, id: topics.topic_id, columns, where: withTrashed ? undefined : live });

/** A topic's row, trashed or not. */
export function selectTopic(db: Db, id: number) {
  return db.select(columns).from(topics).where(eq(topics.topic_id, id));
}

/** The live topic, if any: an existence check (205001) batched with what depends on it. */
export function selectLiveTopic(db: Db, id: number) {
  return db.select({ topic_id: topics.topic_id }).from(topics).where(and(eq(topics.topic_id, id), live));
}

/** Which of `ids` are live topics. */
export function selectLiveTopicIds(db: Db, ids: number[]) {
  return db.select({ topic_id: topics.topic_id }).from(topics).where(and(inIds(topics.topic_id, ids), live));
}

const sameName = (name: string) => sql`lower(${topics.name}) = lower(${name})`;

/** Another live topic with this name (case-insensitive), other than `exceptId`. */
function otherNamed(db: Db, name: string, exceptId?: number) {
  return db
    .select({ topic_id: topics.topic_id })
    .from(topics)
    .$dynamic()
    .where(and(sameName(name), live, exceptId === undefined ? undefined : ne(topics.topic_id, exceptId)));
}

/** A live topic of that name: the id of a topic inserted in the same batch. */
export const liveTopicNamed = (db: Db, name: string) => otherNamed(db, name);

/**
 * Inserts a topic unless a live one has its name: the partial unique index settles it, so two concurrent
 * creations cannot both succeed. No row comes back when the name is taken.
 */
export function insertTopic(db: Db, fields: { name: string; description: string }) {
  return db.insert(topics).values(fields).onConflictDoNothing().returning();
}

/** The live topic before an edit, and another live topic holding the new name (if a name is sent). */
export function selectForEdit(db: Db, id: number, name?: string) {
  return { before: selectLiveTopic(db, id), owner: name === undefined ? null : otherNamed(db, name, id) };
}

/** Applies an edit to a live topic; guarded so that a taken name changes nothing rather than break the index. */
export function updateTopic(db: Db, id: number, changes: TopicChanges) {
  const free = changes.name === undefined ? undefined : notExists(otherNamed(db, changes.name, id));
  return db.update(topics).set(changes).where(and(eq(topics.topic_id, id), live, free));
}

/** The item in `topicables` statements: its id, or a (parenthesised) subquery naming an item inserted earlier in the batch. */
type ItemId = number | SQL;

const counterOf = (type: TopicableType) => (type === "question" ? "question_count" : "article_count");

const linkOf = (type: TopicableType, itemId: ItemId) =>
  and(eq(topicables.topicable_type, type), sql`${topicables.topicable_id} = ${itemId}`, eq(topicables.topic_id, topics.topic_id));

/**
 * Files an item under live topics, in the order given (the `topics` include lists them in link order). The
 * counter moves only for topics not linked yet, before the link is written, so a repeated or concurrent
 * request can neither count a link twice nor fail on the key.
 */
export function linkTopics(db: Db, type: TopicableType, itemId: ItemId, topicIds: number[], time: number) {
  const counter = counterOf(type);
  const count = db
    .update(topics)
    .set({ [counter]: sql`${topics[counter]} + 1` })
    .where(and(inIds(topics.topic_id, topicIds), live, notExists(db.select({ one: sql`1` }).from(topicables).where(linkOf(type, itemId)))));
  const wanted = sql`json_each(${JSON.stringify(topicIds)})`;
  const link = db
    .insert(topicables)
    .select(
      sql`SELECT ${topics.topic_id}, ${itemId}, ${type}, ${time} FROM ${wanted} AS wanted
          JOIN ${topics} ON ${topics.topic_id} = wanted.value AND ${live}
          ORDER BY wanted.key`,
    )
    .onConflictDoNothing();
  return [count, link];
}

/** Takes an item out of topics; the counter moves only for links that exist, and never below 0. */
export function unlinkTopics(db: Db, type: TopicableType, itemId: number, topicIds: number[]) {
  const counter = counterOf(type);
  const count = db
    .update(topics)
    .set({ [counter]: sql`max(${topics[counter]} - 1, 0)` })
    .where(and(inIds(topics.topic_id, topicIds), exists(db.select({ one: sql`1` }).from(topicables).where(linkOf(type, itemId)))));
  const unlink = db
    .delete(topicables)
    .where(and(eq(topicables.topicable_type, type), eq(topicables.topicable_id, itemId), inIds(topicables.topic_id, topicIds)));
  return [count, unlink];
}

/** The live topics an item is filed under, in link order. */
export function selectLinkedTopicIds(db: Db, type: TopicableType, itemId: number) {
  return db
    .select({ topic_id: topics.topic_id })
    .from(topicables)
    .innerJoin(topics, and(eq(topics.topic_id, topicables.topic_id), live))
    .where(and(eq(topicables.topicable_type, type), eq(topicables.topicable_id, itemId)))
    .orderBy(asc(topicables.create_time), asc(sql`${topicables}.rowid`));
}

/** How a list joins `topicables` to reach the questions or articles filed under one topic. */
export function inTopic(type: TopicableType, itemIdColumn: SQLiteColumn, topicId: number) {
  return {
    table: topicables,
    on: and(eq(topicables.topicable_type, type), eq(topicables.topicable_id, itemIdColumn), eq(topicables.topic_id, topicId))!,
  };
}

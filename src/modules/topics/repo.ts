/**
 * Queries on topics and on the links between topics and the questions or articles filed under them
 * (`topicables`). Names are compared through the same lower() the partial unique index uses, so a lookup and
 * the index agree on what counts as the same name among live topics (DECISIONS.md).
 */
import { and, eq, inArray, ne, notExists, type SQL, sql } from "drizzle-orm";
import { recountOwnersOf, topicCounter, without } from "../../behaviours/counters";
import { inIds } from "../../behaviours/id-source";
import type { BatchStatement, Db } from "../../db/client";
import { topicables, topics } from "../../db/schema";
import { entities, type TopicableKind } from "../../domain/entities";
import { selectLive } from "../content/repo";
import type { TopicChanges } from "./schema";

const kind = entities.topic;
const live = eq(topics.delete_time, 0);

/** Topics named `name`, case-insensitively. */
export const sameName = (name: string) => sql`lower(${topics.name}) = lower(${name})`;

/** A topic's row, trashed or not. */
export function selectTopic(db: Db, id: number) {
  return db.select(kind.columns).from(topics).where(eq(topics.topic_id, id));
}

/** Which of `ids` are live topics. */
export function selectLiveTopicIds(db: Db, ids: number[]) {
  return db
    .select({ topic_id: topics.topic_id })
    .from(topics)
    .where(and(inIds(topics.topic_id, ids), live));
}

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
  return { before: selectLive(db, kind, id), owner: name === undefined ? null : otherNamed(db, name, id) };
}

/** Applies an edit to a live topic; guarded so that a taken name changes nothing rather than break the index. */
export function updateTopic(db: Db, id: number, changes: TopicChanges) {
  const free = changes.name === undefined ? undefined : notExists(otherNamed(db, changes.name, id));
  return db
    .update(topics)
    .set(changes)
    .where(and(eq(topics.topic_id, id), live, free));
}

/** The item in `topicables` statements: its id, or a (parenthesised) subquery naming an item inserted earlier in the batch. */
type ItemId = number | SQL;

/**
 * Files an item under live topics, in the order given (the `topics` include lists them in link order). A link
 * that exists already is kept as it is. The topics' counters are recounted with everything else the new item
 * feeds (behaviours/counters.ts `recountStatements`), after this.
 */
export function linkTopics(db: Db, type: TopicableKind, itemId: ItemId, topicIds: number[], time: number) {
  const wanted = sql`json_each(${JSON.stringify(topicIds)})`;
  const link = db
    .insert(topicables)
    .select(
      sql`SELECT ${topics.topic_id}, ${itemId}, ${type}, ${time} FROM ${wanted} AS wanted
          JOIN ${topics} ON ${topics.topic_id} = wanted.value AND ${live}
          ORDER BY wanted.key`,
    )
    .onConflictDoNothing();
  return [link];
}

/**
 * Makes `topicIds` the live topics an item is filed under: the other live topics lose the link, then the new ones
 * are linked. Links to trashed topics, which nobody sees, are kept. Every topic the item is filed under is
 * recounted without it before the links change, and with it after, so each topic it leaves or joins is exact.
 */
export function replaceTopics(
  db: Db,
  type: TopicableKind,
  itemId: number,
  topicIds: number[],
  time: number,
): BatchStatement[] {
  const counter = topicCounter(entities[type]);
  const dropped = and(live, sql`NOT (${inIds(topics.topic_id, topicIds)})`);
  const unlink = db
    .delete(topicables)
    .where(
      and(
        eq(topicables.topicable_type, type),
        eq(topicables.topicable_id, itemId),
        inArray(topicables.topic_id, db.select({ id: topics.topic_id }).from(topics).where(dropped)),
      ),
    );
  return [
    recountOwnersOf(db, without(counter, itemId), [itemId]),
    unlink,
    ...linkTopics(db, type, itemId, topicIds, time),
    recountOwnersOf(db, counter, [itemId]),
  ];
}

/**
 * The links between topics and the questions or articles filed under them (`topicables`), for the batch of the
 * write that files or refiles an item: which topics are live, linking, and replacing the set.
 */
import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { BatchStatement, Db } from "../db/client";
import { topicables, topics } from "../db/schema";
import { entities, type TopicableKind } from "../domain/entities";
import { inIds } from "./id-source";
import { liveById, liveRows } from "./live";

const live = liveRows(entities.topic);
/** Topics found by their key (a list of ids, a join on the id) are checked live off the indexes. */
const liveByKey = liveById(entities.topic);

/** Which of `ids` are live topics. */
export function selectLiveTopicIds(db: Db, ids: number[]) {
  return db
    .select({ topic_id: topics.topic_id })
    .from(topics)
    .where(and(inIds(topics.topic_id, ids), liveByKey));
}

/**
 * The item in `topicables` statements: its id, or a (parenthesised) subquery naming an item inserted earlier in
 * the batch.
 */
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
      // The item's columns on the link are filled by a trigger on insert (drizzle/0007_topic_link_orders.sql).
      sql`SELECT ${topics.topic_id}, ${itemId}, ${type}, ${time}, 0, 0, 0, 0 FROM ${wanted} AS wanted
          JOIN ${topics} ON ${topics.topic_id} = wanted.value AND ${liveByKey}
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
  // The topics it leaves and joins are counted by the triggers on their links (drizzle/0008).
  return [unlink, ...linkTopics(db, type, itemId, topicIds, time)];
}

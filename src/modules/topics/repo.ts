/**
 * Queries on topics (their links to questions and articles are behaviours/topicable.ts's). Names are compared
 * through the same lower() the partial unique index uses, so a lookup and the index agree on what counts as the
 * same name among live topics (docs/decisions.md#names-and-addresses-are-unique-case-insensitively).
 */
import { and, eq, ne, notExists, type SQL, sql } from "drizzle-orm";
import { selectLive } from "../../behaviours/content/repo";
import { liveRows } from "../../behaviours/live";
import type { Db } from "../../db/client";
import { topics } from "../../db/schema";
import { entities } from "../../domain/entities";
import type { TopicChanges } from "./schema";

const kind = entities.topic;
const live = liveRows(entities.topic);

/** Topics named `name`, case-insensitively. */
export const sameName = (name: string) => sql`lower(${topics.name}) = lower(${name})`;

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

/** Whether the topic now holds the values given (those left undefined are not compared): an edit's batch applied it. */
export function topicHolds(id: number, values: { name?: string; description?: string }): SQL {
  const { name, description } = values;
  const held = and(
    eq(topics.topic_id, id),
    name === undefined ? undefined : eq(topics.name, name),
    description === undefined ? undefined : eq(topics.description, description),
  );
  return sql`EXISTS (SELECT 1 FROM ${topics} WHERE ${held})`;
}

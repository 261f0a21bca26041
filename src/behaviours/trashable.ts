/**
 * The trash (docs/deletion.md#the-trash, docs/operations.md#trash-untrash-and-delete), written once for every kind of
 * the entity model with a trash column (domain/entities.ts): `delete_time` > 0 hides a row from everyone but
 * administrators.
 *
 * Counters count what a reader sees (docs/decisions.md#counters-count-what-a-reader-sees): every counter that a kind's
 * rows feed is recounted from the live rows in the same batch as the write (behaviours/counters.ts), for exactly the
 * owners the written rows feed. Trash and untrash therefore move the same counters a hard delete moves.
 */
import { and, eq, gt, lt, notExists, or, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { BatchStatement, Db } from "../db/client";
import { topics } from "../db/schema";
import { type Entity, entities, kindOf, type TrashableKind } from "../domain/entities";
import { recountStatements } from "./counters";
import { type IdSource, inIds } from "./id-source";
import { liveById } from "./live";

/**
 * Clears every reference to the rows among `ids` (a question's accepted answer naming a trashed or deleted answer),
 * on the rows that the items themselves name through the reference's `by` column, so that each is found by its key.
 */
export function clearReferences(db: Db, type: TrashableKind, ids: IdSource): BatchStatement[] {
  const kind: Entity = entities[type];
  return (kind.referencedBy ?? []).map(({ column, by }) => {
    const holder = entities[kindOf(column.table)];
    const named = db.select({ id: by }).from(kind.table).$dynamic().where(inIds(kind.id, ids));
    return db
      .update(holder.table)
      .set({ [column.name]: 0 })
      .where(and(inIds(holder.id, named), inIds(column, ids)));
  });
}

/** Puts the live rows among `ids` in the trash; rows already there keep the time they were trashed. */
export function markTrashed(db: Db, type: TrashableKind, ids: IdSource, time: number): BatchStatement {
  const kind = entities[type];
  return db
    .update(kind.table)
    .set({ delete_time: time })
    .where(and(inIds(kind.id, ids), liveById(kind)));
}

// Topic names are unique among live topics (schema: partial unique index on lower(name)). An untrash that would
// break that is skipped rather than failing the whole batch: the name is taken by a live topic, or by a listed
// trashed topic with a smaller id (which is untrashed instead).
const namesake = alias(topics, "namesake");
const untrashGuards: Partial<Record<TrashableKind, (db: Db, ids: number[]) => SQL>> = {
  topic: (db, ids) =>
    notExists(
      db
        .select({ one: sql`1` })
        .from(namesake)
        .where(
          and(
            sql`lower(${namesake.name}) = lower(${topics.name})`,
            or(eq(namesake.delete_time, 0), and(lt(namesake.topic_id, topics.topic_id), inIds(namesake.topic_id, ids))),
          ),
        ),
    ),
};

/**
 * Trashes the live rows among `ids` and recounts what they fed. `extra` (notifications ...) runs after both, in
 * the same batch.
 */
export function trashStatements(
  db: Db,
  type: TrashableKind,
  ids: number[],
  time: number,
  extra: BatchStatement[] = [],
): BatchStatement[] {
  return [...hideStatements(db, type, ids, time), ...extra];
}

/**
 * What leaving the live rows takes, for a trash and for the first phase of a hard delete (behaviours/deletable.ts):
 * the rows go to the trash, every counter they fed is recounted and every reference to them cleared.
 */
export function hideStatements(db: Db, type: TrashableKind, ids: IdSource, time: number): BatchStatement[] {
  return [markTrashed(db, type, ids, time), ...recountStatements(db, type, ids), ...clearReferences(db, type, ids)];
}

/** Takes the trashed rows among `ids` out of the trash and recounts what they feed again. */
export function untrashStatements(
  db: Db,
  type: TrashableKind,
  ids: number[],
  extra: BatchStatement[] = [],
): BatchStatement[] {
  const kind = entities[type];
  const untrash = db
    .update(kind.table)
    .set({ delete_time: 0 })
    .where(and(inIds(kind.id, ids), gt(kind.trash, 0), untrashGuards[type]?.(db, ids)));
  return [untrash, ...recountStatements(db, type, ids), ...extra];
}

/**
 * Which rows of a kind a reader can see: trashed ones count as missing (docs/permissions.md#existence-checks); users
 * have no trash. A private kind's rows (a message) are seen by their parties, and by administrators once reported
 * (docs/messages.md#privacy).
 */
import { Column, eq, exists, is, or, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Db } from "../db/client";
import { allOf, equalsUnindexed, outer } from "../db/conditions";
import { reports } from "../db/schema";
import type { Entity } from "../domain/entities";
import { type IdSource, inIds } from "./id-source";

/**
 * The row of a kind whose id is `id` (a value, or a column of the row it is correlated with), or its rows among
 * `ids` (a list or a subquery), as long as they are live.
 */
export function isLive(entity: Pick<Entity, "id" | "trash">, id: number | SQLiteColumn | IdSource): SQL {
  if (typeof id === "number") return allOf(eq(entity.id, id), liveRows(entity));
  // Correlated with another row's column, it is found by its primary key: the trash is checked off the indexes.
  if (is(id, Column)) return allOf(eq(entity.id, id), liveById(entity));
  return allOf(inIds(entity.id, id), liveById(entity));
}

/** Whether the row of a kind whose id is `id` (a value, or a correlated column) is live, as a condition. */
export const liveExists = (db: Db, entity: Pick<Entity, "id" | "trash" | "table">, id: number | SQLiteColumn): SQL =>
  exists(db.select({ one: sql`1` }).from(entity.table).where(isLive(entity, id)));

/** Its live rows, when the rows are picked by a set of ids: see {@link equalsUnindexed}. */
export const liveById = (entity: Pick<Entity, "trash">): SQL | undefined =>
  entity.trash ? equalsUnindexed(entity.trash, 0) : undefined;

/** Its live rows, in a WHERE or JOIN condition; every row of a kind without trash. */
export const liveRows = (entity: Pick<Entity, "trash">): SQL | undefined =>
  entity.trash ? eq(entity.trash, 0) : undefined;

/**
 * The rows of a private kind (its `parties`, domain/entities.ts) that `userId` is a party to, or with none the rows
 * someone reported (what administrators may read); every row of any other kind.
 */
export function privateRows(entity: Pick<Entity, "type" | "id" | "table" | "parties">, userId: number | null) {
  if (!entity.parties) return undefined;
  if (userId !== null) return or(...entity.parties.map((party) => eq(party, userId)));
  // Named with its table: inside the subquery, a bare id column could be read as one of the report's own.
  const id = outer(entity.id);
  return sql`EXISTS (SELECT 1 FROM ${reports} AS rp
    WHERE rp.reportable_type = ${entity.type} AND rp.reportable_id = ${id})`;
}

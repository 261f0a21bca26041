/**
 * Which rows of a kind a reader can see: trashed ones count as missing (docs/permissions.md#existence-checks); users
 * have no trash.
 */
import { Column, eq, is, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { allOf, equalsUnindexed } from "../db/conditions";
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

/** Its live rows, when the rows are picked by a set of ids: see {@link equalsUnindexed}. */
export const liveById = (entity: Pick<Entity, "trash">): SQL | undefined =>
  entity.trash ? equalsUnindexed(entity.trash, 0) : undefined;

/** Its live rows, in a WHERE or JOIN condition; every row of a kind without trash. */
export const liveRows = (entity: Pick<Entity, "trash">): SQL | undefined =>
  entity.trash ? eq(entity.trash, 0) : undefined;

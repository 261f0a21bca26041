/**
 * A set of ids for a statement over a page of rows: either a list (a batch path such as `/users/1,2,3/disable`)
 * or the page query itself as a subquery, so relations of a page load in the same batch as the page.
 */
import { inArray, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteSelect } from "drizzle-orm/sqlite-core";

export type IdSource = number[] | SQLiteSelect | SQL;

/**
 * `column IN (ids)`. A list travels as one JSON parameter read with `json_each`: D1 allows at most 100 bound
 * parameters per statement, and a list may hold 100 ids on top of the statement's other parameters.
 */
export function inIds(column: SQLiteColumn, ids: IdSource): SQL {
  if (Array.isArray(ids)) return sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`;
  return inArray(column, ids);
}

/**
 * Conjunctions whose type says they exist: Drizzle's `and`/`or` return `SQL | undefined` (undefined only when every
 * argument is), so one required first condition makes the result a plain `SQL`.
 */
import { and, getTableName, or, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

/**
 * A column named with its table, for a correlated subquery: inside it, a bare name could be read as a column of the
 * subquery's own tables (Drizzle writes the columns of a one-table select without their table).
 */
export const outer = (column: SQLiteColumn): SQL => sql.raw(`"${getTableName(column.table)}"."${column.name}"`);

export const allOf = (first: SQL, ...rest: (SQL | undefined)[]): SQL => and(first, ...rest) ?? first;

export const anyOf = (first: SQL, ...rest: (SQL | undefined)[]): SQL => or(first, ...rest) ?? first;

/**
 * `column = value`, kept off any index by SQLite's unary `+`: for a condition beside a set of ids, which the primary
 * key finds. SQLite, not knowing how few ids a set holds, would otherwise read every row with that value through
 * an index on the column (docs/data-model.md#indexes).
 */
export const equalsUnindexed = (column: SQLiteColumn, value: number | string): SQL => sql`+${column} = ${value}`;

/**
 * Conjunctions whose type says they exist: Drizzle's `and`/`or` return `SQL | undefined` (undefined only when every
 * argument is), so one required first condition makes the result a plain `SQL`.
 */
import { and, or, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

export const allOf = (first: SQL, ...rest: (SQL | undefined)[]): SQL => and(first, ...rest) ?? first;

export const anyOf = (first: SQL, ...rest: (SQL | undefined)[]): SQL => or(first, ...rest) ?? first;

/**
 * `column = value`, kept off any index by SQLite's unary `+`: for a condition beside a set of ids, which the primary
 * key finds. SQLite, not knowing how few ids a set holds, would otherwise read every row with that value through
 * an index on the column (docs/data-model.md#indexes).
 */
export const equalsUnindexed = (column: SQLiteColumn, value: number | string): SQL => sql`+${column} = ${value}`;

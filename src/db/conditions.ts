/**
 * Conjunctions whose type says they exist: Drizzle's `and`/`or` return `SQL | undefined` (undefined only when every
 * argument is), so one required first condition makes the result a plain `SQL`.
 */
import { and, or, type SQL } from "drizzle-orm";

export const allOf = (first: SQL, ...rest: (SQL | undefined)[]): SQL => and(first, ...rest) ?? first;

export const anyOf = (first: SQL, ...rest: (SQL | undefined)[]): SQL => or(first, ...rest) ?? first;

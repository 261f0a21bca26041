/**
 * Blocks between members (docs/messages.md#blocks) as SQL conditions for any query: whether one member blocks another.
 * The rule that a block silences the blocked member towards the blocker is applied through these, wherever it holds
 * (a private message, a notification of a comment, answer or reply).
 */
import { Column, is, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { outer } from "../db/conditions";
import { user_blocks } from "../db/schema";

/** A user id: a value, a column of the row the condition is correlated with, or an SQL expression. */
export type UserRef = number | SQLiteColumn | SQL;

/** A column named with its table ({@link outer}); a value or an expression as it is. */
const qualified = (ref: UserRef): SQL | number => (is(ref, Column) ? outer(ref) : ref);

/** `blocker` blocks `blocked`: the block row is found by its primary key. */
export function blocks(blocker: UserRef, blocked: UserRef): SQL {
  return sql`EXISTS (SELECT 1 FROM ${user_blocks} AS ub
    WHERE ub.user_id = ${qualified(blocker)} AND ub.blocked_user_id = ${qualified(blocked)})`;
}

/** `blocked` is not blocked by `blocker`. */
export const notBlockedBy = (blocker: UserRef, blocked: UserRef): SQL => sql`NOT ${blocks(blocker, blocked)}`;

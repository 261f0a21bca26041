/** Queries on users. Every select names its columns (core/caller.ts `userColumns`), never the password hash. */
import { and, asc, eq, gt, type SQL, sql } from "drizzle-orm";
import { type ByIdSource, type ListSource, newestWhere, orderBy, siteTotal } from "../../behaviours/content/repo";
import type { FollowJoin } from "../../behaviours/followable";
import { inIds } from "../../behaviours/id-source";
import { documentOf, indexNew } from "../../behaviours/searchable";
import { userColumns } from "../../core/caller";
import type { BatchStatement, Db } from "../../db/client";
import { equalsUnindexed } from "../../db/conditions";
import { follows, tokens, type UserRow, users } from "../../db/schema";
import { entities } from "../../domain/entities";
import type { Order } from "../../lib/order";
import type { ProfileChanges, UserOrderField } from "./schema";

/** Users by id, disabled or not. */
export const usersById: ByIdSource = { table: users, id: users.user_id, columns: userColumns };

export interface UserFilter {
  user_id?: number;
  username?: string;
  /** The beginning of the username, case-insensitively (docs/operations.md#finding-users-by-name). */
  search?: string;
  email?: string;
  /** true: only disabled users; false: only enabled ones. */
  disabled: boolean;
}

const unfiltered = (filter: UserFilter) =>
  !filter.disabled &&
  filter.user_id === undefined &&
  filter.username === undefined &&
  filter.search === undefined &&
  filter.email === undefined;

const lowerName = sql`lower(${users.username})`;

/**
 * Usernames that begin with `prefix`, case-insensitively: a range of the unique index on lower(username), from the
 * prefix to the prefix followed by the last code point (U+10FFFF), which sorts after every character a name may hold.
 */
function startsWith(prefix: string): SQL {
  return sql`${lowerName} >= lower(${prefix}) AND ${lowerName} < lower(${prefix}) || char(1114111)`;
}

/**
 * Enabled users, or only disabled ones. Beside a name search the state is checked off the indexes (unary `+`): the
 * name's range is the one to read, and SQLite would otherwise read every enabled user through `disable_time`'s
 * (docs/data-model.md#indexes).
 */
function enabledOrNot(filter: UserFilter): SQL {
  const state = filter.search === undefined ? sql`${users.disable_time}` : sql`+${users.disable_time}`;
  return filter.disabled ? sql`${state} > 0` : sql`${state} = 0`;
}

/**
 * GET /users. Username and e-mail match case-insensitively through the same lower() the unique indexes use. Without
 * an order (a search asked none), by username, the order the search's index holds.
 */
export function filteredUsers(filter: UserFilter, order: Order<UserOrderField> | null): ListSource {
  return {
    ...usersById,
    where: and(
      enabledOrNot(filter),
      filter.user_id === undefined ? undefined : eq(users.user_id, filter.user_id),
      filter.username === undefined ? undefined : sql`${lowerName} = lower(${filter.username})`,
      filter.search === undefined ? undefined : startsWith(filter.search),
      filter.email === undefined ? undefined : sql`lower(${users.email}) = lower(${filter.email})`,
    ),
    orderBy: order ? orderBy(users, order, users.user_id) : [asc(lowerName)],
    counter: unfiltered(filter) ? siteTotal("user") : undefined,
  };
}

/**
 * Users reached through follow rows; disabled ones are left out of follower lists
 * (docs/permissions.md#disabled-users-in-lists).
 */
export function usersThroughFollows(join: FollowJoin, enabledOnly: boolean): ListSource {
  return {
    ...usersById,
    join: { table: follows, on: join.on },
    where: enabledOnly ? and(join.where, eq(users.disable_time, 0)) : join.where,
    orderBy: join.orderBy,
  };
}

/** A user's row, disabled or not. */
export const selectUser = (db: Db, id: number) => db.select(userColumns).from(users).where(eq(users.user_id, id));

export function updateProfile(db: Db, userId: number, changes: ProfileChanges, time: number) {
  return db
    .update(users)
    .set({ ...changes, update_time: time })
    .where(eq(users.user_id, userId));
}

/** The user's inbox preferences: no profile edit, so update_time stays. */
export function updatePreferences(
  db: Db,
  userId: number,
  changes: Partial<Pick<UserRow, "inbox_accept" | "inbox_email">>,
) {
  return db.update(users).set(changes).where(eq(users.user_id, userId));
}

/** Disabling keeps the time of the first disable when a user is disabled again. Answers the users it disabled. */
export function disableUsers(db: Db, ids: number[], time: number) {
  return db
    .update(users)
    .set({ disable_time: time })
    .where(and(inIds(users.user_id, ids), equalsUnindexed(users.disable_time, 0)))
    .returning({ user_id: users.user_id });
}

/** Answers the users it enabled (those that were disabled). */
export function enableUsers(db: Db, ids: number[]) {
  return db
    .update(users)
    .set({ disable_time: 0 })
    .where(and(inIds(users.user_id, ids), gt(users.disable_time, 0)))
    .returning({ user_id: users.user_id });
}

export function deleteTokensOf(db: Db, ids: number[]) {
  return db.delete(tokens).where(inIds(tokens.user_id, ids));
}

const NO_PROFILE = { headline: "", bio: "", company: "", location: "" };

/**
 * The search document of the user an INSERT earlier in the batch wrote, found by their unique username; a new user
 * has an empty profile.
 */
export function indexNewUser(db: Db, username: string): BatchStatement {
  const inserted = newestWhere(db, entities.user, sql`${lowerName} = lower(${username})`);
  return indexNew(db, "user", inserted, documentOf.user({ username, ...NO_PROFILE }));
}

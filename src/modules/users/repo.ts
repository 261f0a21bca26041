/** Queries on users. Every select names its columns: the password hash never leaves this module. */
import { and, asc, count, desc, eq, getTableColumns, gt, sql, type SQL } from "drizzle-orm";
import type { SQLiteSelect } from "drizzle-orm/sqlite-core";
import type { FollowJoin } from "../../behaviours/followable";
import { inIds, type IdSource } from "../../behaviours/id-source";
import type { Db } from "../../db/client";
import { follows, tokens, users } from "../../db/schema";
import type { Order } from "../../lib/order";
import type { PageRequest } from "../../lib/pagination";
import type { ProfileChanges, UserOrderField } from "./schema";

const { password: _password, ...columns } = getTableColumns(users);
/** Every user column but the password hash: the one selection of users anywhere in the app. */
export const userColumns = columns;

/** Where a list of users comes from: an optional join with `follows`, a filter and an order. */
export interface UserSource {
  joinFollows?: SQL;
  where?: SQL;
  orderBy: SQL[];
}

export interface UserFilter {
  user_id?: number;
  username?: string;
  email?: string;
  /** true: only disabled users; false: only enabled ones. */
  disabled: boolean;
}

/** GET /users. Username and e-mail match case-insensitively through the same lower() the unique indexes use. */
export function filteredUsers(filter: UserFilter, order: Order<UserOrderField>): UserSource {
  const direction = order.desc ? desc : asc;
  return {
    where: and(
      filter.disabled ? gt(users.disable_time, 0) : eq(users.disable_time, 0),
      filter.user_id === undefined ? undefined : eq(users.user_id, filter.user_id),
      filter.username === undefined ? undefined : sql`lower(${users.username}) = lower(${filter.username})`,
      filter.email === undefined ? undefined : sql`lower(${users.email}) = lower(${filter.email})`,
    ),
    // user_id settles ties so that pages never overlap.
    orderBy: [direction(users[order.field]), direction(users.user_id)],
  };
}

/** Users reached through follow rows; disabled ones are left out of follower lists (behaviour.md 4.3). */
export function usersThroughFollows(join: FollowJoin, enabledOnly: boolean): UserSource {
  return {
    joinFollows: join.on,
    where: enabledOnly ? and(join.where, eq(users.disable_time, 0)) : join.where,
    orderBy: join.orderBy,
  };
}

/** Applies a source's join and filter. A join leaves a flat selection's row type unchanged, hence the cast. */
function fromSource<Q extends SQLiteSelect>(query: Q, source: UserSource): Q {
  const joined = (source.joinFollows ? query.innerJoin(follows, source.joinFollows) : query) as Q;
  return joined.where(source.where) as Q;
}

/** One page of a list as three batchable statements: its total, its rows, and its ids for relation loaders. */
export function userPageStatements(db: Db, source: UserSource, page: PageRequest) {
  const paged = <Q extends SQLiteSelect>(query: Q) =>
    fromSource(query, source).orderBy(...source.orderBy).limit(page.per_page).offset(page.offset);
  return {
    total: fromSource(db.select({ total: count() }).from(users).$dynamic(), source),
    rows: paged(db.select(userColumns).from(users).$dynamic()),
    ids: paged(db.select({ id: users.user_id }).from(users).$dynamic()),
  };
}

export function selectUsers(db: Db, ids: IdSource) {
  return db.select(userColumns).from(users).where(inIds(users.user_id, ids));
}

export function updateProfile(db: Db, userId: number, changes: ProfileChanges, time: number) {
  return db.update(users).set({ ...changes, update_time: time }).where(eq(users.user_id, userId));
}

/** Disabling keeps the time of the first disable when a user is disabled again. */
export function disableUsers(db: Db, ids: number[], time: number) {
  return db.update(users).set({ disable_time: time }).where(and(inIds(users.user_id, ids), eq(users.disable_time, 0)));
}

export function enableUsers(db: Db, ids: number[]) {
  return db.update(users).set({ disable_time: 0 }).where(inIds(users.user_id, ids));
}

export function deleteTokensOf(db: Db, ids: number[]) {
  return db.delete(tokens).where(inIds(tokens.user_id, ids));
}

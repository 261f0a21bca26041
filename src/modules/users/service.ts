/**
 * Rules of the users routes: what each caller may filter and order by, who may be disabled, which lists leave
 * disabled users out. Every operation is one batch: writes, the users they return, their relations, and any
 * existence check travel together.
 */
import { followersJoin, followingJoin, followTargets, selectTarget, type FollowTarget } from "../../behaviours/followable";
import { runBatch, type BatchStatement, type Db } from "../../db/client";
import { ApiError, validationError, type ErrorName } from "../../lib/errors";
import { parseOrder } from "../../lib/order";
import { paginate, parsePage, type PageRequest, type Pagination } from "../../lib/pagination";
import { now } from "../../lib/time";
import type { View } from "../../lib/view";
import { presentUser, type UserInclude, type UserRow } from "./present";
import { userRelationsLoader } from "./relationships";
import {
  deleteTokensOf,
  disableUsers,
  enableUsers,
  filteredUsers,
  selectUsers,
  updateProfile,
  userPageStatements,
  usersThroughFollows,
  type UserSource,
} from "./repo";
import { USER_ORDER, type ProfileChanges, type User } from "./schema";

export interface UserPage {
  data: User[];
  pagination: Pagination;
}

export interface PageQuery {
  page?: string;
  per_page?: string;
}

/** A statement run with a list whose empty result means the list's owner is missing. */
interface ExistenceCheck {
  statement: BatchStatement;
  notFound: ErrorName;
}

async function pageOfUsers(
  db: Db,
  view: View,
  source: UserSource,
  request: PageRequest,
  include: Set<UserInclude>,
  check?: ExistenceCheck,
): Promise<UserPage> {
  const { total, rows, ids } = userPageStatements(db, source, request);
  const relations = userRelationsLoader(db, view, include, ids);
  const results = await runBatch(db, [...(check ? [check.statement] : []), total, rows, ...(relations?.statements ?? [])]);
  if (check && (results.shift() as unknown[]).length === 0) throw new ApiError(check.notFound);
  const [count] = results.shift() as { total: number }[];
  const page = results.shift() as UserRow[];
  const relationsOf = relations?.resolve(results);
  return {
    data: page.map((row) => presentUser(row, view, relationsOf?.(row.user_id))),
    pagination: paginate(request, count?.total ?? 0),
  };
}

export interface UserListQuery extends PageQuery {
  order?: string;
  user_id?: number;
  username?: string;
  email?: string;
  disabled?: string;
}

/**
 * GET /users. Disabled users are never listed for others; administrators may list only them (`disabled=true`),
 * filter by e-mail and order by disable_time.
 */
export function listUsers(db: Db, view: View, query: UserListQuery, include: Set<UserInclude>): Promise<UserPage> {
  // An empty filter (`?username=`) is no filter, as forms send every field.
  const filter = {
    user_id: query.user_id,
    username: query.username || undefined,
    email: (view.isAdmin && query.email) || undefined,
    disabled: view.isAdmin && query.disabled === "true",
  };
  const order = parseOrder(query.order, USER_ORDER, view.isAdmin);
  return pageOfUsers(db, view, filteredUsers(filter, order), parsePage(query), include);
}

/** The followers of any followable target, newest follow first, without disabled users (behaviour.md 4.3). */
export function listFollowers(db: Db, view: View, target: FollowTarget, id: number, query: PageQuery, include: Set<UserInclude>) {
  const source = usersThroughFollows(followersJoin(target, id), true);
  return pageOfUsers(db, view, source, parsePage(query), include, { statement: selectTarget(db, target, id), notFound: target.notFound });
}

/** The users a user follows, newest follow first; disabled ones stay listed (behaviour.md 4.3). */
export function listFollowees(db: Db, view: View, userId: number, query: PageQuery, include: Set<UserInclude>) {
  const target = followTargets.user;
  const source = usersThroughFollows(followingJoin(target, userId), false);
  return pageOfUsers(db, view, source, parsePage(query), include, { statement: selectTarget(db, target, userId), notFound: target.notFound });
}

/** Users by id, in the order asked, after `writes` in the same batch; unknown ids are skipped. */
async function loadUsers(db: Db, view: View, ids: number[], include: Set<UserInclude>, writes: BatchStatement[] = []): Promise<User[]> {
  const relations = userRelationsLoader(db, view, include, ids);
  const results = (await runBatch(db, [...writes, selectUsers(db, ids), ...(relations?.statements ?? [])])).slice(writes.length);
  const byId = new Map((results.shift() as UserRow[]).map((row) => [row.user_id, row]));
  const relationsOf = relations?.resolve(results);
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [presentUser(row, view, relationsOf?.(id))] : [];
  });
}

/** One user, disabled or not; 201003 when missing. */
export async function getUser(db: Db, view: View, id: number, include: Set<UserInclude>, writes: BatchStatement[] = []): Promise<User> {
  const [user] = await loadUsers(db, view, [id], include, writes);
  if (!user) throw new ApiError("USER_NOT_FOUND");
  return user;
}

/** Changes only the profile fields sent; an edit moves update_time, an empty body changes nothing. */
export function editProfile(db: Db, view: View, id: number, changes: ProfileChanges, include: Set<UserInclude>): Promise<User> {
  const writes = Object.keys(changes).length > 0 ? [updateProfile(db, id, changes, now())] : [];
  return getUser(db, view, id, include, writes);
}

/**
 * Disables users: disable_time = now and every token of theirs is deleted in the same batch, so they are
 * logged out at once. An administrator cannot disable themself (DECISIONS.md).
 */
export function disable(db: Db, view: View, adminId: number, ids: number[], include: Set<UserInclude>): Promise<User[]> {
  if (ids.includes(adminId)) throw validationError({ user_id: "an administrator cannot disable themself" });
  return loadUsers(db, view, ids, include, [disableUsers(db, ids, now()), deleteTokensOf(db, ids)]);
}

export function enable(db: Db, view: View, ids: number[], include: Set<UserInclude>): Promise<User[]> {
  return loadUsers(db, view, ids, include, [enableUsers(db, ids)]);
}

/** A path naming one id answers that user (201003 when missing); a list answers the users found. */
export function oneOrAll(users: User[], single: boolean): User | User[] {
  if (!single) return users;
  const [user] = users;
  if (!user) throw new ApiError("USER_NOT_FOUND");
  return user;
}

/**
 * Rules of the users routes: what each caller may filter and order by, who may be disabled, which lists leave
 * disabled users out. Every operation is one batch: writes, the users they return, their relations, and any
 * existence check travel together.
 */
import { type Page, type PageQuery, pageOf, recordsByIds } from "../../behaviours/content/page";
import { userExists } from "../../behaviours/content/repo";
import {
  type FollowCommitted,
  type FollowTarget,
  follow,
  followersJoin,
  followingJoin,
  followTargets,
  selectTarget,
  unfollow,
} from "../../behaviours/followable";
import { documentOf, reindex } from "../../behaviours/searchable";
import type { Caller } from "../../core/caller";
import { ApiError, validationError } from "../../core/errors";
import { type BatchRead, type BatchStatement, batch, type Db, readAs, writeThenRead } from "../../db/client";
import type { View } from "../../http/view";
import { parseOrder } from "../../lib/order";
import { now } from "../../lib/time";
import { emit } from "../events/outbox";
import { presentUser } from "./present";
import { userRecords, userRelationships } from "./records";
import {
  deleteTokensOf,
  disableUsers,
  enableUsers,
  filteredUsers,
  selectUser,
  updatePreferences,
  updateProfile,
  usersById,
  usersThroughFollows,
} from "./repo";
import { type MyProfileChanges, USER_ORDER, type User, type UserInclude } from "./schema";

export interface UserListQuery extends PageQuery {
  user_id?: number;
  username?: string;
  search?: string;
  email?: string;
  disabled?: string;
}

/**
 * GET /users. Disabled users are never listed for others; administrators may list only them (`disabled=true`),
 * filter by e-mail and order by disable_time. `search` finds names by their beginning, for autocomplete.
 */
export function listUsers(db: Db, view: View, query: UserListQuery, include: Set<UserInclude>): Promise<Page<User>> {
  // An empty filter (`?username=`) is no filter, as forms send every field.
  const filter = {
    user_id: query.user_id,
    username: query.username || undefined,
    search: query.search || undefined,
    email: (view.isAdmin && query.email) || undefined,
    disabled: view.isAdmin && query.disabled === "true",
  };
  return pageOf(
    db,
    view,
    userRecords,
    // A search lists names alphabetically unless an order is asked (an unknown one is the default's).
    filteredUsers(filter, filter.search && !query.order ? null : parseOrder(query.order, USER_ORDER, view.isAdmin)),
    query,
    include,
  );
}

/**
 * The followers of any followable target, newest follow first, without disabled users
 * (docs/permissions.md#disabled-users-in-lists).
 */
export function listFollowers(
  db: Db,
  view: View,
  target: FollowTarget,
  id: number,
  query: PageQuery,
  include: Set<UserInclude>,
) {
  const source = usersThroughFollows(followersJoin(target, id), true);
  return pageOf(db, view, userRecords, source, query, include, {
    statement: selectTarget(db, target, id),
    notFound: target.notFound,
  });
}

/**
 * The users a user follows, newest follow first; disabled ones stay listed
 * (docs/permissions.md#disabled-users-in-lists).
 */
export function listFollowees(db: Db, view: View, userId: number, query: PageQuery, include: Set<UserInclude>) {
  const source = usersThroughFollows(followingJoin(followTargets.user, userId), false);
  return pageOf(db, view, userRecords, source, query, include, userExists(db, view, userId));
}

/** Users by id, in the order asked, as a read for any batch; unknown ids are skipped. */
function usersByIds(db: Db, view: View, ids: number[], include: Set<UserInclude>): BatchRead<User[]> {
  return recordsByIds(db, view, userRecords, usersById, ids, include);
}

/** One user, disabled or not, as a read for any batch; 201003 when missing. */
export function oneUser(db: Db, view: View, id: number, include: Set<UserInclude>): BatchRead<User> {
  return readAs(usersByIds(db, view, [id], include), ([user]) => {
    if (!user) throw new ApiError("USER_NOT_FOUND");
    return user;
  });
}

/** One user, disabled or not; 201003 when missing. */
export function getUser(db: Db, view: View, id: number, include: Set<UserInclude>): Promise<User> {
  return batch(db, oneUser(db, view, id, include));
}

/**
 * GET /user: the row the request context loaded for the caller, so no query. Its relationships need none
 * either: is_me is true and is_following / is_followed are false for oneself.
 */
export function callerRecord(caller: Caller, view: View, include: Set<UserInclude>): User {
  return presentUser(caller, view, include.size > 0 ? userRelationships(include, true, false, false) : undefined);
}

/**
 * Changes only the fields sent; a profile edit moves update_time, an empty body changes nothing. The user's row is
 * read first for a profile edit: their search document is made of every profile field, the unchanged ones too. The
 * caller's inbox preferences (docs/messages.md#who-may-write-to-whom) are no profile: they move nothing else.
 */
export async function editProfile(
  db: Db,
  view: View,
  id: number,
  changes: MyProfileChanges,
  include: Set<UserInclude>,
): Promise<User> {
  const { inbox_accept, inbox_email, ...profile } = changes;
  const preferences = {
    ...(inbox_accept !== undefined && { inbox_accept }),
    ...(inbox_email !== undefined && { inbox_email }),
  };
  const writes: BatchStatement[] = Object.keys(preferences).length > 0 ? [updatePreferences(db, id, preferences)] : [];
  if (Object.keys(profile).length === 0) return writeThenRead(db, writes, oneUser(db, view, id, include));
  const [row] = await batch(db, selectUser(db, id));
  if (!row) throw new ApiError("USER_NOT_FOUND");
  writes.push(
    updateProfile(db, id, profile, now()),
    ...reindex(db, "user", id, documentOf.user({ ...row, ...profile })),
  );
  const user = await writeThenRead(db, writes, oneUser(db, view, id, include));
  emit(db, "user.updated", { ids: [id] });
  return user;
}

/**
 * Disables users: disable_time = now and every token of theirs is deleted in the same batch, so they are
 * logged out at once. An administrator cannot disable themself
 * (docs/decisions.md#administrators-cannot-disable-themselves).
 */
export async function disable(
  db: Db,
  view: View,
  adminId: number,
  ids: number[],
  include: Set<UserInclude>,
): Promise<User[]> {
  if (ids.includes(adminId)) throw validationError({ user_id: "an administrator cannot disable themself" });
  const { disabled, users } = await batch(db, {
    disabled: disableUsers(db, ids, now()),
    tokens: deleteTokensOf(db, ids),
    users: usersByIds(db, view, ids, include),
  });
  const done = disabled.map((user) => user.user_id);
  if (done.length) emit(db, "user.disabled", { ids: done });
  return users;
}

export async function enable(db: Db, view: View, ids: number[], include: Set<UserInclude>): Promise<User[]> {
  const { enabled, users } = await batch(db, {
    enabled: enableUsers(db, ids),
    users: usersByIds(db, view, ids, include),
  });
  const done = enabled.map((user) => user.user_id);
  if (done.length) emit(db, "user.updated", { ids: done });
  return users;
}

/** A path naming one id answers that user (201003 when missing); a list answers the users found. */
export function oneOrAll(users: User[], single: boolean): User | User[] {
  if (!single) return users;
  const [user] = users;
  if (!user) throw new ApiError("USER_NOT_FOUND");
  return user;
}

/** `follow.created` or `follow.deleted` with the new follower count, when the write changed a follow. */
const followChanged =
  (
    db: Db,
    type: "follow.created" | "follow.deleted",
    target: FollowTarget,
    userId: number,
    id: number,
  ): FollowCommitted =>
  (follower_count, changed) => {
    const subject = { followable_type: target.type, followable_id: id, user_id: userId, follower_count };
    if (changed) emit(db, type, subject);
  };

export const followTarget = (db: Db, target: FollowTarget, userId: number, id: number) =>
  follow(db, target, userId, id, followChanged(db, "follow.created", target, userId, id));

export const unfollowTarget = (db: Db, target: FollowTarget, userId: number, id: number) =>
  unfollow(db, target, userId, id, followChanged(db, "follow.deleted", target, userId, id));

/**
 * How user rows become User records: `is_following` / `is_followed` / `is_me` for any number of users in one
 * batch, each one statement over the page's ids (an id list or the page query itself as a subquery), so a
 * page costs no extra round trip.
 */
import type { Records } from "../../behaviours/content/page";
import type { UserRow } from "../../behaviours/content/present";
import { statementRelation } from "../../behaviours/content/relations";
import { followedAmong, followersAmong, followTargets } from "../../behaviours/followable";
import { readAs } from "../../db/client";
import { presentUser, type UserRelationships } from "./present";
import { USER_INCLUDES, type User, type UserInclude, UserSchema } from "./schema";

/**
 * The relationships `include` asks for; following and followed are false for the caller's own record
 * (docs/conventions.md#object-shapes).
 */
export function userRelationships(
  include: Set<UserInclude>,
  self: boolean,
  following: boolean,
  followed: boolean,
): UserRelationships {
  const rel: UserRelationships = {};
  if (include.has("is_me")) rel.is_me = self;
  if (include.has("is_following")) rel.is_following = !self && following;
  if (include.has("is_followed")) rel.is_followed = !self && followed;
  return rel;
}

export const userRecords: Records<UserRow, User, UserInclude> = {
  includes: USER_INCLUDES,
  schema: UserSchema,
  relation(db, view, include) {
    if (include.size === 0) return null;
    const viewerId = view.viewer?.user_id ?? 0;
    // Anonymous callers follow nobody and nobody follows them: no query.
    const wantFollowing = include.has("is_following") && viewerId > 0;
    const wantFollowed = include.has("is_followed") && viewerId > 0;
    return (ids) =>
      statementRelation(
        readAs(
          {
            following: wantFollowing ? followedAmong(db, followTargets.user, viewerId, ids) : undefined,
            followed: wantFollowed ? followersAmong(db, followTargets.user, viewerId, ids) : undefined,
          },
          (rows) => {
            const following = new Set(rows.following?.map((r) => r.id));
            const followed = new Set(rows.followed?.map((r) => r.id));
            return (id) => userRelationships(include, id === viewerId, following.has(id), followed.has(id));
          },
        ),
      );
  },
  present: (view) => (row, relationships) => presentUser(row, view, relationships as UserRelationships | undefined),
};

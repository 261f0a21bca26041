/**
 * `is_following` / `is_followed` / `is_me` for any number of users in one batch: each is one statement over
 * the page's ids (an id list or the page query itself as a subquery), so a page costs no extra round trip.
 */
import { followedAmong, followersAmong, followTargets } from "../../behaviours/followable";
import type { IdSource } from "../../behaviours/id-source";
import type { BatchStatement, Db } from "../../db/client";
import type { View } from "../../lib/view";
import type { UserInclude, UserRelationships } from "./present";

export interface RelationLoader<T> {
  statements: BatchStatement[];
  /** Builds each row's relationships from the statements' results (in the same order). */
  resolve(results: unknown[]): (id: number) => T;
}

export function userRelationsLoader(db: Db, view: View, include: Set<UserInclude>, ids: IdSource): RelationLoader<UserRelationships> | null {
  if (include.size === 0) return null;
  const viewerId = view.viewer?.user_id ?? 0;
  const statements: BatchStatement[] = [];
  // Anonymous callers follow nobody and nobody follows them: no query.
  const wantFollowing = include.has("is_following") && viewerId > 0;
  const wantFollowed = include.has("is_followed") && viewerId > 0;
  if (wantFollowing) statements.push(followedAmong(db, followTargets.user, viewerId, ids));
  if (wantFollowed) statements.push(followersAmong(db, followTargets.user, viewerId, ids));
  return {
    statements,
    resolve(results) {
      const rest = [...results];
      const following = new Set(wantFollowing ? (rest.shift() as { id: number }[]).map((r) => r.id) : []);
      const followed = new Set(wantFollowed ? (rest.shift() as { id: number }[]).map((r) => r.id) : []);
      return (id) => {
        const rel: UserRelationships = {};
        const self = id === viewerId;
        if (include.has("is_me")) rel.is_me = self;
        // Both are false for the caller's own record (behaviour.md 2.1).
        if (include.has("is_following")) rel.is_following = !self && following.has(id);
        if (include.has("is_followed")) rel.is_followed = !self && followed.has(id);
        return rel;
      };
    },
  };
}

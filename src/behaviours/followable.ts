/**
 * Follows (docs/operations.md#follows, docs/counters.md), written once for every followable kind of the entity model
 * (domain/entities.ts): the target's table, id and trash column, the follower's own counter of that kind, and
 * the kind's not-found error (every followable table names its counter `follower_count`).
 *
 * One follow per user and target is the `follows` primary key, not a check. Both counters are recounted from the
 * rows (behaviours/counters.ts) in the same batch as the insert or delete.
 */
import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import { ApiError } from "../core/errors";
import { type BatchStatement, batch, changedRows, type Db } from "../db/client";
import { allOf } from "../db/conditions";
import { follows, users } from "../db/schema";
import { type EntityWith, entitiesWith, type FollowableKind } from "../domain/entities";
import { now } from "../lib/time";
import { followerCounter, followingCounter, recount } from "./counters";
import { type IdSource, inIds } from "./id-source";
import { isLive, liveExists } from "./live";

export type FollowTarget = EntityWith<"followable">;

export const followTargets = entitiesWith("followable");

const followRow = (target: FollowTarget, userId: number, id: number) =>
  and(eq(follows.followable_type, target.type), eq(follows.followable_id, id), eq(follows.user_id, userId));

/**
 * The live target's `follower_count` (every followable table names it so): no row when the target is missing
 * or trashed, so it doubles as the existence check.
 */
export function selectTarget(db: Db, target: FollowTarget, id: number) {
  return db
    .select({ follower_count: sql<number>`${sql.identifier("follower_count")}` })
    .from(target.table)
    .where(isLive(target, id));
}

/** Told, once the write committed, the follower count and whether the follow changed (docs/events.md: `follow.*`). */
export type FollowCommitted = (followerCount: number, changed: boolean) => void;

async function followerCountAfter(
  db: Db,
  target: FollowTarget,
  write: BatchStatement,
  userId: number,
  id: number,
  committed?: FollowCommitted,
): Promise<number> {
  const recounts = [recount(db, followerCounter(target), id), recount(db, followingCounter(target), userId)];
  const found = await batch(db, { written: write, recounts, target: selectTarget(db, target, id) });
  const [row] = found.target;
  if (!row) throw new ApiError(target.notFound);
  committed?.(row.follower_count, changedRows([found.written]) > 0);
  return row.follower_count;
}

/**
 * Follows a live target and returns its follower count. Following again changes nothing and answers the
 * same; a user cannot follow themself (201009).
 */
export async function follow(
  db: Db,
  target: FollowTarget,
  userId: number,
  id: number,
  committed?: FollowCommitted,
): Promise<number> {
  if (target.type === "user" && id === userId) throw new ApiError("CANNOT_FOLLOW_YOURSELF");
  // INSERT ... SELECT from the live target: nothing is written for a missing or trashed one.
  const insert = db
    .insert(follows)
    .select(
      db
        .select({
          user_id: sql<number>`${userId}`.as("user_id"),
          followable_id: sql<number>`${id}`.as("followable_id"),
          followable_type: sql<FollowableKind>`${target.type}`.as("followable_type"),
          create_time: sql<number>`${now()}`.as("create_time"),
        })
        .from(target.table)
        .where(isLive(target, id)),
    )
    .onConflictDoNothing();
  return followerCountAfter(db, target, insert, userId, id, committed);
}

/** Unfollows a live target; unfollowing what one does not follow (oneself included) changes nothing. */
export function unfollow(
  db: Db,
  target: FollowTarget,
  userId: number,
  id: number,
  committed?: FollowCommitted,
): Promise<number> {
  const remove = db.delete(follows).where(and(followRow(target, userId, id), liveExists(db, target, id)));
  return followerCountAfter(db, target, remove, userId, id, committed);
}

/** How a list joins `follows` to the listed table: join condition, filter, and newest follow first. */
export interface FollowJoin {
  on: SQL;
  where: SQL;
  orderBy: SQL[];
}

// The rowid breaks ties between follows made in the same second: a later insert never gets a smaller one.
const newestFirst = [desc(follows.create_time), desc(sql`${follows}.rowid`)];

/** The users who follow a target (joined to `users`). */
export function followersJoin(target: FollowTarget, id: number): FollowJoin {
  return {
    on: eq(follows.user_id, users.user_id),
    where: allOf(eq(follows.followable_type, target.type), eq(follows.followable_id, id)),
    orderBy: newestFirst,
  };
}

/** The targets of a type a user follows (join on the target's id). */
export function followingJoin(target: FollowTarget, userId: number): FollowJoin {
  return {
    on: eq(follows.followable_id, target.id),
    where: allOf(eq(follows.user_id, userId), eq(follows.followable_type, target.type)),
    orderBy: newestFirst,
  };
}

/** Ids among `ids` of targets the user follows: `is_following` for a page in one statement. */
export function followedAmong(db: Db, target: FollowTarget, userId: number, ids: IdSource) {
  return db
    .select({ id: follows.followable_id })
    .from(follows)
    .where(
      and(eq(follows.user_id, userId), eq(follows.followable_type, target.type), inIds(follows.followable_id, ids)),
    );
}

/** Users among `ids` who follow the target: `is_followed` for a page in one statement. */
export function followersAmong(db: Db, target: FollowTarget, id: number, ids: IdSource) {
  return db
    .select({ id: follows.user_id })
    .from(follows)
    .where(and(eq(follows.followable_type, target.type), eq(follows.followable_id, id), inIds(follows.user_id, ids)));
}

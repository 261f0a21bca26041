/**
 * Follows (behaviour.md 3, FOLLOW family, and 3.11), written once for every followable type and parameterised
 * by a target registry: the target's table, id and trash column, the follower's own counter of that type, and
 * the type's not-found error (every followable table names its counter `follower_count`).
 *
 * One follow per user and target is the `follows` primary key, not a check. Counters are recomputed from the
 * rows with COUNT(*) in the same batch as the insert or delete, so concurrent or repeated requests can never
 * double count and a counter can never go below 0.
 */
import { and, count, desc, eq, exists, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { type BatchStatement, type Db, runBatch } from "../db/client";
import { allOf } from "../db/conditions";
import { articles, follows, questions, topics, users } from "../db/schema";
import { ApiError, type ErrorName } from "../lib/errors";
import { now } from "../lib/time";
import { type IdSource, inIds } from "./id-source";

export type FollowableType = (typeof follows.$inferSelect)["followable_type"];

/** The users column counting what a user follows of one type. */
type FollowingCounter =
  | "followee_count"
  | "following_question_count"
  | "following_article_count"
  | "following_topic_count";

export interface FollowTarget {
  type: FollowableType;
  table: SQLiteTable;
  id: SQLiteColumn;
  /** Trashed rows (delete_time > 0) count as missing; users have no trash. */
  deleteTime?: SQLiteColumn;
  followingCounter: FollowingCounter;
  notFound: ErrorName;
}

export const followTargets = {
  user: {
    type: "user",
    table: users,
    id: users.user_id,
    followingCounter: "followee_count",
    notFound: "USER_NOT_FOUND",
  },
  question: {
    type: "question",
    table: questions,
    id: questions.question_id,
    deleteTime: questions.delete_time,
    followingCounter: "following_question_count",
    notFound: "QUESTION_NOT_FOUND",
  },
  article: {
    type: "article",
    table: articles,
    id: articles.article_id,
    deleteTime: articles.delete_time,
    followingCounter: "following_article_count",
    notFound: "ARTICLE_NOT_FOUND",
  },
  topic: {
    type: "topic",
    table: topics,
    id: topics.topic_id,
    deleteTime: topics.delete_time,
    followingCounter: "following_topic_count",
    notFound: "TOPIC_NOT_FOUND",
  },
} as const satisfies Record<FollowableType, FollowTarget>;

/** `and` of conditions: never undefined, as `first` is always there (drizzle's type allows undefined). */

function isLive(target: FollowTarget, id: number | SQLiteColumn): SQL {
  const byId = eq(target.id, id);
  return target.deleteTime ? allOf(byId, eq(target.deleteTime, 0)) : byId;
}

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

/**
 * Both counters a follow row feeds, recomputed from the rows themselves. The follower's counter leaves out
 * trashed targets, as their following lists do (DECISIONS.md: counters count what a reader sees).
 */
function recountStatements(db: Db, target: FollowTarget, userId: number, id: number): BatchStatement[] {
  const followers = db
    .select({ n: count() })
    .from(follows)
    .where(and(eq(follows.followable_type, target.type), eq(follows.followable_id, id)));
  const following = db
    .select({ n: count() })
    .from(follows)
    .where(
      and(
        eq(follows.user_id, userId),
        eq(follows.followable_type, target.type),
        target.deleteTime
          ? exists(db.select({ one: sql`1` }).from(target.table).where(isLive(target, follows.followable_id)))
          : undefined,
      ),
    );
  return [
    // A select inside sql`` renders as a parenthesised scalar subquery.
    db
      .update(target.table)
      .set({ follower_count: sql`${followers}` })
      .where(isLive(target, id)),
    db
      .update(users)
      .set({ [target.followingCounter]: sql`${following}` })
      .where(eq(users.user_id, userId)),
  ];
}

async function followerCountAfter(
  db: Db,
  target: FollowTarget,
  write: BatchStatement,
  userId: number,
  id: number,
): Promise<number> {
  const results = await runBatch(db, [
    write,
    ...recountStatements(db, target, userId, id),
    selectTarget(db, target, id),
  ]);
  const row = (results.at(-1) as { follower_count: number }[])[0];
  if (!row) throw new ApiError(target.notFound);
  return row.follower_count;
}

/**
 * Follows a live target and returns its follower count. Following again changes nothing and answers the
 * same; a user cannot follow themself (201009).
 */
export async function follow(db: Db, target: FollowTarget, userId: number, id: number): Promise<number> {
  if (target.type === "user" && id === userId) throw new ApiError("CANNOT_FOLLOW_YOURSELF");
  // INSERT ... SELECT from the live target: nothing is written for a missing or trashed one.
  const insert = db
    .insert(follows)
    .select(
      db
        .select({
          user_id: sql<number>`${userId}`.as("user_id"),
          followable_id: sql<number>`${id}`.as("followable_id"),
          followable_type: sql<FollowableType>`${target.type}`.as("followable_type"),
          create_time: sql<number>`${now()}`.as("create_time"),
        })
        .from(target.table)
        .where(isLive(target, id)),
    )
    .onConflictDoNothing();
  return followerCountAfter(db, target, insert, userId, id);
}

/** Unfollows a live target; unfollowing what one does not follow (oneself included) changes nothing. */
export function unfollow(db: Db, target: FollowTarget, userId: number, id: number): Promise<number> {
  const remove = db
    .delete(follows)
    .where(
      and(
        followRow(target, userId, id),
        exists(db.select({ one: sql`1` }).from(target.table).where(isLive(target, id))),
      ),
    );
  return followerCountAfter(db, target, remove, userId, id);
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

/**
 * Votes (behaviour.md 3 VOTE family, 3.2 "Votes", 3.11), written once for every votable type and parameterised
 * by the content registry: the target's table, id, trash column, vote counters and not-found error.
 *
 * One vote per user and target is the `votes` primary key, not a check (DECISIONS.md). The three counters are
 * recomputed from the vote rows in the same batch as the write, so concurrent or repeated requests can never
 * double count and the counters never drift. Votes never move the target's update_time (DECISIONS.md, Content).
 */
import { and, desc, eq, exists, ne, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { type BatchStatement, type Db, runBatch } from "../db/client";
import { allOf } from "../db/conditions";
import { users, votes } from "../db/schema";
import { ApiError, type ErrorName } from "../lib/errors";
import { now } from "../lib/time";
import { contentKinds } from "../modules/content/kinds";

export type VotableType = (typeof votes.$inferSelect)["votable_type"];
export type VoteType = (typeof votes.$inferSelect)["type"];
export const VOTE_TYPES = ["up", "down"] as const satisfies readonly VoteType[];

/** What every vote write answers; `vote_count` is up − down and may be negative. */
export interface VoteCounts {
  vote_count: number;
  vote_up_count: number;
  vote_down_count: number;
}

export interface VoteTarget {
  type: VotableType;
  table: SQLiteTable;
  id: SQLiteColumn;
  /** Trashed rows (delete_time > 0) count as missing (behaviour.md 4.4). */
  deleteTime: SQLiteColumn;
  columns: Record<keyof VoteCounts, SQLiteColumn>;
  notFound: ErrorName;
}

export const voteTargets = {
  question: contentKinds.question,
  answer: contentKinds.answer,
  article: contentKinds.article,
  comment: contentKinds.comment,
} as const satisfies Record<VotableType, VoteTarget>;

/** `and` of conditions: never undefined, as `first` is always there (drizzle's type allows undefined). */

const isLive = (target: VoteTarget, id: number): SQL => allOf(eq(target.id, id), eq(target.deleteTime, 0));

const targetIsLive = (db: Db, target: VoteTarget, id: number) =>
  exists(db.select({ one: sql`1` }).from(target.table).where(isLive(target, id)));

const votesOn = (target: VoteTarget, id: number): SQL =>
  allOf(eq(votes.votable_type, target.type), eq(votes.votable_id, id));

const voteOf = (target: VoteTarget, userId: number, id: number): SQL =>
  allOf(votesOn(target, id), eq(votes.user_id, userId));

/** The live target's counters: no row when it is missing or trashed, so it doubles as the existence check. */
export function selectCounts(db: Db, target: VoteTarget, id: number) {
  const { vote_count, vote_up_count, vote_down_count } = target.columns;
  return db.select({ vote_count, vote_up_count, vote_down_count }).from(target.table).where(isLive(target, id));
}

/** The three counters recomputed from the rows; a select inside sql`` renders as a scalar subquery. */
function recount(db: Db, target: VoteTarget, id: number): BatchStatement {
  const up = sql`count(*) filter (where ${eq(votes.type, "up")})`;
  const down = sql`count(*) filter (where ${eq(votes.type, "down")})`;
  const tally = (expression: SQL) =>
    sql`${db
      .select({ n: sql<number>`${expression}` })
      .from(votes)
      .where(votesOn(target, id))}`;
  return db
    .update(target.table)
    .set({ vote_count: tally(sql`${up} - ${down}`), vote_up_count: tally(up), vote_down_count: tally(down) })
    .where(isLive(target, id));
}

async function countsAfter(db: Db, target: VoteTarget, id: number, writes: BatchStatement[]): Promise<VoteCounts> {
  const results = await runBatch(db, [...writes, recount(db, target, id), selectCounts(db, target, id)]);
  const row = (results.at(-1) as VoteCounts[])[0];
  if (!row) throw new ApiError(target.notFound);
  return row;
}

/**
 * Votes `type` on a live target and returns its counts. No vote yet: one is added; the same type again: nothing
 * changes; the other type: the vote becomes this one, dated now. Voting on one's own content is allowed.
 */
export function vote(db: Db, target: VoteTarget, userId: number, id: number, type: VoteType): Promise<VoteCounts> {
  // The other type is replaced by a new row rather than updated in place: a new row gets a rowid above every
  // other vote's, which keeps "newest vote first" right for votes cast within the same second.
  const dropOther = db
    .delete(votes)
    .where(and(voteOf(target, userId, id), ne(votes.type, type), targetIsLive(db, target, id)));
  // INSERT ... SELECT from the live target: nothing is written for a missing or trashed one.
  const insert = db
    .insert(votes)
    .select(
      db
        .select({
          user_id: sql<number>`${userId}`.as("user_id"),
          votable_id: sql<number>`${id}`.as("votable_id"),
          votable_type: sql<VotableType>`${target.type}`.as("votable_type"),
          type: sql<VoteType>`${type}`.as("type"),
          create_time: sql<number>`${now()}`.as("create_time"),
        })
        .from(target.table)
        .where(isLive(target, id)),
    )
    .onConflictDoNothing();
  return countsAfter(db, target, id, [dropOther, insert]);
}

/** Withdraws the caller's vote on a live target; withdrawing no vote changes nothing. */
export function unvote(db: Db, target: VoteTarget, userId: number, id: number): Promise<VoteCounts> {
  const remove = db.delete(votes).where(and(voteOf(target, userId, id), targetIsLive(db, target, id)));
  return countsAfter(db, target, id, [remove]);
}

/** How the voters list joins `votes` to `users`: join condition, filter, and newest vote first. */
export function votersJoin(target: VoteTarget, id: number, type: VoteType | undefined) {
  return {
    on: eq(votes.user_id, users.user_id),
    where: allOf(votesOn(target, id), type ? eq(votes.type, type) : undefined),
    // The rowid breaks ties between votes cast in the same second: a later vote never gets a smaller one.
    orderBy: [desc(votes.create_time), desc(sql`${votes}.rowid`)],
  };
}

/**
 * Votes (docs/operations.md#votes, docs/counters.md), written once for every votable kind of the entity model
 * (domain/entities.ts): the target's table, id, trash column and not-found error.
 *
 * One vote per user and target is the `votes` primary key, not a check
 * (docs/decisions.md#one-vote-follow-and-report-per-user-and-target). The three counters are recounted from the vote
 * rows (behaviours/counters.ts) in the same batch as the write. Votes never move the target's update_time
 * (docs/decisions.md#content).
 */
import { and, desc, eq, ne, type SQL, sql } from "drizzle-orm";
import { ApiError } from "../core/errors";
import { type BatchStatement, batch, changedRows, type Db } from "../db/client";
import { allOf } from "../db/conditions";
import { users, votes } from "../db/schema";
import { type EntityWith, entitiesWith, type VotableKind } from "../domain/entities";
import { now } from "../lib/time";
import { recount, voteCounter } from "./counters";
import { isLive, liveExists } from "./live";

export type VoteType = (typeof votes.$inferSelect)["type"];
export const VOTE_TYPES = ["up", "down"] as const satisfies readonly VoteType[];

/** What every vote write answers; `vote_count` is up − down and may be negative. */
export interface VoteCounts {
  vote_count: number;
  vote_up_count: number;
  vote_down_count: number;
}

export type VoteTarget = EntityWith<"votable">;

export const voteTargets = entitiesWith("votable");

const votesOn = (target: VoteTarget, id: number): SQL =>
  allOf(eq(votes.votable_type, target.type), eq(votes.votable_id, id));

const voteOf = (target: VoteTarget, userId: number, id: number): SQL =>
  allOf(votesOn(target, id), eq(votes.user_id, userId));

/** The live target's counters: no row when it is missing or trashed, so it doubles as the existence check. */
export function selectCounts(db: Db, target: VoteTarget, id: number) {
  const counter = (name: keyof VoteCounts) => sql<number>`${sql.identifier(name)}`;
  return db
    .select({
      vote_count: counter("vote_count"),
      vote_up_count: counter("vote_up_count"),
      vote_down_count: counter("vote_down_count"),
    })
    .from(target.table)
    .where(isLive(target, id));
}

/** Told, once the write committed, the counts and whether it changed any vote (docs/events.md: `vote.updated`). */
export type VoteCommitted = (counts: VoteCounts, changed: boolean) => void;

async function countsAfter(
  db: Db,
  target: VoteTarget,
  id: number,
  writes: BatchStatement[],
  committed?: VoteCommitted,
): Promise<VoteCounts> {
  const found = await batch(db, {
    written: writes,
    recounted: recount(db, voteCounter(target), id),
    counts: selectCounts(db, target, id),
  });
  const [row] = found.counts;
  if (!row) throw new ApiError(target.notFound);
  committed?.(row, changedRows(found.written) > 0);
  return row;
}

/**
 * Votes `type` on a live target and returns its counts. No vote yet: one is added; the same type again: nothing
 * changes; the other type: the vote becomes this one, dated now. Voting on one's own content is allowed.
 */
export function vote(
  db: Db,
  target: VoteTarget,
  userId: number,
  id: number,
  type: VoteType,
  committed?: VoteCommitted,
): Promise<VoteCounts> {
  // The other type is replaced by a new row rather than updated in place: a new row gets a rowid above every
  // other vote's, which keeps "newest vote first" right for votes cast within the same second.
  const dropOther = db
    .delete(votes)
    .where(and(voteOf(target, userId, id), ne(votes.type, type), liveExists(db, target, id)));
  // INSERT ... SELECT from the live target: nothing is written for a missing or trashed one.
  const insert = db
    .insert(votes)
    .select(
      db
        .select({
          user_id: sql<number>`${userId}`.as("user_id"),
          votable_id: sql<number>`${id}`.as("votable_id"),
          votable_type: sql<VotableKind>`${target.type}`.as("votable_type"),
          type: sql<VoteType>`${type}`.as("type"),
          create_time: sql<number>`${now()}`.as("create_time"),
        })
        .from(target.table)
        .where(isLive(target, id)),
    )
    .onConflictDoNothing();
  return countsAfter(db, target, id, [dropOther, insert], committed);
}

/** Withdraws the caller's vote on a live target; withdrawing no vote changes nothing. */
export function unvote(
  db: Db,
  target: VoteTarget,
  userId: number,
  id: number,
  committed?: VoteCommitted,
): Promise<VoteCounts> {
  const remove = db.delete(votes).where(and(voteOf(target, userId, id), liveExists(db, target, id)));
  return countsAfter(db, target, id, [remove], committed);
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

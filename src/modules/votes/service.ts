/**
 * The voters list (docs/operations.md#votes): one batch holding the target's existence check, the total, the
 * page of users and every requested include, so it costs one round trip after authentication. Votes and their
 * withdrawal, which hand a change to the event path (docs/events.md).
 */
import { type Page, pageOf } from "../../behaviours/content/page";
import {
  selectCounts,
  unvote,
  VOTE_TYPES,
  type VoteCommitted,
  type VoteTarget,
  type VoteType,
  vote,
} from "../../behaviours/votable";
import type { Db } from "../../db/client";
import type { View } from "../../http/view";
import { emit } from "../events/outbox";
import { userRecords } from "../users/records";
import type { User, UserInclude } from "../users/schema";
import { votersSource } from "./repo";
import type { VoterQuery } from "./schema";

/** Newest vote first; `type` other than up/down lists every voter, as the reference does. */
export function listVoters(
  db: Db,
  view: View,
  target: VoteTarget,
  id: number,
  query: VoterQuery,
  include: Set<UserInclude>,
): Promise<Page<User>> {
  const type = VOTE_TYPES.find((t) => t === query.type);
  const check = { statement: selectCounts(db, target, id), notFound: target.notFound };
  return pageOf(db, view, userRecords, votersSource(target, id, type), query, include, check);
}

/** `vote.updated` with the new counts, when the write changed a vote. */
const countsChanged =
  (db: Db, target: VoteTarget, id: number): VoteCommitted =>
  (counts, changed) => {
    if (changed) emit(db, "vote.updated", { votable_type: target.type, votable_id: id, ...counts });
  };

export const castVote = (db: Db, target: VoteTarget, userId: number, id: number, type: VoteType) =>
  vote(db, target, userId, id, type, countsChanged(db, target, id));

export const withdrawVote = (db: Db, target: VoteTarget, userId: number, id: number) =>
  unvote(db, target, userId, id, countsChanged(db, target, id));

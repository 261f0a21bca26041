/**
 * The voters list (docs/operations.md#votes): one batch holding the target's existence check, the total, the
 * page of users and every requested include, so it costs one round trip after authentication.
 */
import { type Page, pageOf } from "../../behaviours/content/page";
import { selectCounts, VOTE_TYPES, type VoteTarget } from "../../behaviours/votable";
import type { Db } from "../../db/client";
import type { View } from "../../http/view";
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

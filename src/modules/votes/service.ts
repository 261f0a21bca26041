/**
 * The voters list (behaviour.md 3 VOTE family): one batch holding the target's existence check, the total, the
 * page of users and every requested include, so it costs one round trip after authentication.
 */
import { selectCounts, VOTE_TYPES, type VoteTarget } from "../../behaviours/votable";
import type { IdSource } from "../../behaviours/id-source";
import type { Db } from "../../db/client";
import { parsePage } from "../../lib/pagination";
import type { View } from "../../lib/view";
import { loadPage, type Page } from "../content/page";
import type { Relation } from "../content/relations";
import { presentUser, type UserInclude, type UserRelationships, type UserRow } from "../users/present";
import { userRelationsLoader } from "../users/relationships";
import type { User } from "../users/schema";
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
  // The loader is null only when no include is asked, and then no relation is built at all.
  const relation = include.size > 0 ? (ids: IdSource) => userRelationsLoader(db, view, include, ids) as Relation : null;
  return loadPage<UserRow, User>(
    db,
    votersSource(target, id, type),
    parsePage(query),
    relation,
    (row, relationships) => presentUser(row, view, relationships as UserRelationships | undefined),
    { statement: selectCounts(db, target, id), notFound: target.notFound },
  );
}

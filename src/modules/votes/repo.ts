/**
 * The voters of a target as a list source: users joined through `votes`, disabled users left out
 * (docs/permissions.md#disabled-users-in-lists).
 */
import { and, eq } from "drizzle-orm";
import type { ListSource } from "../../behaviours/content/repo";
import { type VoteTarget, type VoteType, votersJoin } from "../../behaviours/votable";
import { users, votes } from "../../db/schema";
import { usersById } from "../users/repo";

export function votersSource(target: VoteTarget, id: number, type: VoteType | undefined): ListSource {
  const join = votersJoin(target, id, type);
  return {
    ...usersById,
    join: { table: votes, on: join.on },
    where: and(join.where, eq(users.disable_time, 0)),
    orderBy: join.orderBy,
  };
}

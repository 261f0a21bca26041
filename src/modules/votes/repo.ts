/** The voters of a target as a list source: users joined through `votes`, disabled users left out (behaviour.md 4.3). */
import { and, eq } from "drizzle-orm";
import { votersJoin, type VoteTarget, type VoteType } from "../../behaviours/votable";
import { users, votes } from "../../db/schema";
import type { ListSource } from "../content/page";
import { userColumns } from "../users/repo";


export function votersSource(target: VoteTarget, id: number, type: VoteType | undefined): ListSource {
  const join = votersJoin(target, id, type);
  return {
    table: users,
    id: users.user_id,
    columns: userColumns,
    join: { table: votes, on: join.on },
    where: and(join.where, eq(users.disable_time, 0)),
    orderBy: join.orderBy,
  };
}

/** Queries on blocks (docs/messages.md#blocks): the blocker's list, and a block written or removed by its key. */
import { desc, eq, sql } from "drizzle-orm";
import type { ListSource } from "../../behaviours/content/repo";
import type { Db } from "../../db/client";
import { allOf } from "../../db/conditions";
import { user_blocks, users } from "../../db/schema";
import { usersById } from "../users/repo";

/** The users `userId` blocks, the latest block first; disabled ones stay listed. */
export function blockedBy(userId: number): ListSource {
  return {
    ...usersById,
    join: { table: user_blocks, on: eq(user_blocks.blocked_user_id, users.user_id) },
    where: eq(user_blocks.user_id, userId),
    orderBy: [desc(user_blocks.create_time), desc(user_blocks.blocked_user_id)],
  };
}

/** INSERT ... SELECT from the user's row: nothing for a user who does not exist, nothing new for a repeated block. */
export function insertBlock(db: Db, userId: number, blockedId: number, time: number) {
  return db
    .insert(user_blocks)
    .select(
      db
        .select({
          user_id: sql<number>`${userId}`.as("user_id"),
          blocked_user_id: users.user_id,
          create_time: sql<number>`${time}`.as("create_time"),
        })
        .from(users)
        .where(eq(users.user_id, blockedId)),
    )
    .onConflictDoNothing();
}

export const deleteBlock = (db: Db, userId: number, blockedId: number) =>
  db.delete(user_blocks).where(allOf(eq(user_blocks.user_id, userId), eq(user_blocks.blocked_user_id, blockedId)));

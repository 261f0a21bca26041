/**
 * Blocks (docs/messages.md#blocks): a member's private list of the members they block. A block refuses the blocked
 * member's messages exactly as a member who accepts none does, and stops their comments, answers and replies from
 * notifying the blocker (behaviours/blocks.ts); nobody but the blocker ever learns of it. Each write is one batch with
 * the record it answers.
 */
import { type Page, type PageQuery, pageOf } from "../../behaviours/content/page";
import type { CallerId } from "../../core/caller";
import { ApiError } from "../../core/errors";
import { type BatchStatement, type Db, writeThenRead } from "../../db/client";
import type { View } from "../../http/view";
import { now } from "../../lib/time";
import { userRecords } from "../users/records";
import type { User, UserInclude } from "../users/schema";
import { oneUser } from "../users/service";
import { blockedBy, deleteBlock, insertBlock } from "./repo";

/** GET /user/blocks. */
export function listBlocks(
  db: Db,
  view: View,
  caller: CallerId,
  query: PageQuery,
  include: Set<UserInclude>,
): Promise<Page<User>> {
  return pageOf(db, view, userRecords, blockedBy(caller.user_id), query, include);
}

/** `write`, then the member's User record; 201003 when they do not exist (and then nothing was written). */
const thenUser = (db: Db, view: View, write: BatchStatement, id: number, include: Set<UserInclude>) =>
  writeThenRead(db, write, oneUser(db, view, id, include));

/** PUT /user/blocks/{user_id}: blocks a member, disabled or not, once; oneself is refused (209011). */
export function block(db: Db, view: View, caller: CallerId, id: number, include: Set<UserInclude>): Promise<User> {
  if (id === caller.user_id) throw new ApiError("CANNOT_BLOCK_YOURSELF");
  return thenUser(db, view, insertBlock(db, caller.user_id, id, now()), id, include);
}

/** DELETE /user/blocks/{user_id}: unblocking a member one does not block changes nothing. */
export function unblock(db: Db, view: View, caller: CallerId, id: number, include: Set<UserInclude>): Promise<User> {
  return thenUser(db, view, deleteBlock(db, caller.user_id, id), id, include);
}

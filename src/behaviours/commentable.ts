/**
 * The COMMENTS family's writes (docs/operations.md#shared-families) on every commentable kind of the entity model
 * (domain/entities.ts): a comment on a question, answer or article, or a reply (a comment whose target is a
 * comment). Each commentable kind's module mounts its routes (modules/comments/commentable-routes.ts).
 */
import type { SQL } from "drizzle-orm";
import type { BatchStatement, Db } from "../db/client";
import { comments } from "../db/schema";
import { type CommentableKind, type EntityWith, entities, entitiesWith } from "../domain/entities";
import { newestOf } from "./content/repo";
import { recountStatements } from "./counters";
import { commentPosted } from "./notification-events";

export type CommentTarget = EntityWith<"commentable" | "trash">;

export const commentTargets = entitiesWith("commentable");

/**
 * A new comment's statements for one batch: the insert, the counters it feeds (a reply, its parent comment's
 * replies) and, after the insert, the notification naming it (docs/notifications.md). The new comment's id is only
 * known inside the batch: `created` names it by subquery, for the statements after the insert and for reads.
 */
export function postComment(
  db: Db,
  type: CommentableKind,
  targetId: number,
  userId: number,
  content: string,
  time: number,
): { created: SQL; writes: BatchStatement[] } {
  const created = newestOf(db, entities.comment, userId);
  const fields = { commentable_type: type, commentable_id: targetId, user_id: userId, content };
  const writes = [
    db.insert(comments).values({ ...fields, create_time: time, update_time: time }),
    ...recountStatements(db, "comment", created),
    ...commentPosted(db, type, targetId, created, userId, time),
  ];
  return { created, writes };
}

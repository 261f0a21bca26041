/**
 * Where other modules add their part to a trash, untrash or delete, inside the same batch: the notifications
 * module (behaviour.md 3.12: `*_deleted` to the author on trash, and on delete of an item that was not already
 * in the trash; none for topics, cascaded removals, untrash, or the author's own action) registers here. A
 * delete's linked images (rows in the batch, files after it) are handled by the delete itself (service.ts),
 * since their files need what the delete's read found.
 *
 * A hook's statements run after the rows' `delete_time` and the counters have been written and, for a delete,
 * before any row is removed: they can still read the items and their children (e.g. a question's answers).
 * Work outside D1 (R2 files) belongs in `waitUntil` after the batch, from what the statements returned.
 */
import type { BatchStatement, Db } from "../../db/client";
import type { ContentType } from "../content/kinds";
import { notifyDeleted } from "../notifications/events";
import type { TargetRow } from "./repo";

export type LifecycleAction = "trash" | "untrash" | "delete";

export interface LifecycleEvent {
  type: ContentType;
  action: LifecycleAction;
  /** The rows acted on, as they were before the action (a delete's may include trashed ones). */
  rows: TargetRow[];
  actorId: number;
  time: number;
}

export type LifecycleHook = (db: Db, event: LifecycleEvent) => BatchStatement[];

/** Per kind, the hooks whose statements join every trash, untrash and delete of that kind. */
export const lifecycleHooks: Record<ContentType, LifecycleHook[]> = {
  question: [notifyDeleted],
  answer: [notifyDeleted],
  article: [notifyDeleted],
  comment: [notifyDeleted],
  topic: [],
};

export function hookStatements(db: Db, event: LifecycleEvent): BatchStatement[] {
  return lifecycleHooks[event.type].flatMap((hook) => hook(db, event));
}

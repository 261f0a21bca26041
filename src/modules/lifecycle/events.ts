/**
 * What trash, untrash and delete hand the event path once their batch committed (docs/events.md#one-event-path):
 * `<kind>.trashed` or `.untrashed` for the rows now in the state asked for, and the `*_deleted` notifications sent
 * (behaviours/notification-events.ts, `notifyDeleted`: to the authors of rows that were live, not the actor).
 */

import type { Db } from "../../db/client";
import { entities, has, type TrashableKind } from "../../domain/entities";
import { emit, emitNotified } from "../events/outbox";
import type { TargetRow } from "./repo";

const idOf = (type: TrashableKind, row: Record<string, unknown>) => row[entities[type].id.name] as number;

/** The deletion notices a trash or delete of `rows` by `actorId` at `time` sent. */
export function emitDeletionNotices(db: Db, type: TrashableKind, rows: TargetRow[], actorId: number, time: number) {
  if (!has(type, "notifiedOnDeletion")) return;
  const notified = rows.filter((row) => row.delete_time === 0 && row.user_id !== actorId);
  if (notified.length === 0) return;
  emitNotified(db, {
    type: `${type}_deleted`,
    column: `${type}_id`,
    ids: notified.map((row) => idOf(type, row)),
    receivers: { users: [...new Set(notified.map((row) => row.user_id as number))] },
    sender_id: actorId,
    create_time: time,
  });
}

/** A trash or untrash: the rows it moved (those `records` answers), and a trash's deletion notices. */
export function emitMoved(
  db: Db,
  action: "trash" | "untrash",
  type: TrashableKind,
  rows: TargetRow[],
  records: Record<string, unknown>[],
  time: number,
  actorId: number,
) {
  const moved = new Set(records.map((record) => idOf(type, record)));
  const rowsMoved = rows.filter((row) => moved.has(idOf(type, row)));
  if (rowsMoved.length === 0) return;
  if (action === "untrash") return emit(db, `${type}.untrashed`, { ids: rowsMoved.map((row) => idOf(type, row)) });
  emit(db, `${type}.trashed`, { rows: rowsMoved });
  emitDeletionNotices(db, type, rowsMoved, actorId, time);
}

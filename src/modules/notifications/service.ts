/**
 * Rules of the notifications routes (docs/operations.md#notifications, spec operation 6,
 * docs/decisions.md#notifications-are-scoped-to-the-caller): everything is scoped to the caller. A read is one batch
 * after authentication (page, total and every include); a write is one batch carrying the change, the COUNT(*) recount
 * of the caller's `notification_unread` and, for the batch read, the records it answers with.
 */
import { itemsByIds, loadPage, type Page } from "../../behaviours/content/page";
import type { NotificationType } from "../../behaviours/notification-events";
import type { CallerId } from "../../core/caller";
import { ApiError } from "../../core/errors";
import { type BatchEntry, type BatchResult, type BatchStatement, batch, changedRows, type Db } from "../../db/client";
import type { View } from "../../http/view";
import { paginate, parsePage } from "../../lib/pagination";
import { now } from "../../lib/time";
import { emit } from "../events/outbox";
import { notificationRelation, presentNotification } from "./present";
import {
  countUnread,
  markRead,
  type NotificationFilter,
  notificationsOf,
  ownNotifications,
  removeNotifications,
} from "./repo";
import type { Notification, NotificationInclude, NotificationPageQueryInput } from "./schema";

/**
 * The caller's change (its statement, then the recount of their counter: repo.ts), then `read` in the same batch; the
 * counter goes to the caller's own live stream when a notification changed (docs/events.md).
 */
async function ownChange<const E extends BatchEntry>(
  db: Db,
  caller: CallerId,
  [change, recount]: BatchStatement[],
  read: E,
): Promise<BatchResult<E>> {
  const found = await batch(db, { changed: change, recount, read });
  if (changedRows([found.changed]) > 0) emit(db, "unread.updated", { users: [caller.user_id] });
  return found.read;
}

/** `read`: absent → all; `true` → read ones; any other value → unread ones (docs/operations.md#notifications). */
export const readFilter = (read: string | undefined): boolean | undefined =>
  read === undefined ? undefined : read === "true";

/** GET /notifications: the caller's, newest first, filtered by type and read state. */
export function listNotifications(
  db: Db,
  view: View,
  caller: CallerId,
  query: NotificationPageQueryInput,
  include: Set<NotificationInclude>,
): Promise<Page<Notification>> {
  const filter: NotificationFilter = { type: query.type, read: readFilter(query.read) };
  return loadPage(
    db,
    notificationsOf(caller.user_id, filter),
    parsePage(query),
    notificationRelation(db, view, include),
    presentNotification(view),
  );
}

/** GET /notifications/count?type=: the caller's unread ones of a type (of every type: their stored counter). */
export async function countNotifications(
  db: Db,
  caller: CallerId,
  type: NotificationType,
): Promise<{ notification_count: number }> {
  const [row] = await batch(db, countUnread(db, caller.user_id, type));
  return { notification_count: row?.n ?? 0 };
}

/**
 * POST /notifications/{ids}/read (spec operation 6): marks the caller's unread ones among `ids` read and
 * answers the caller's ones among `ids`, in the order asked, with a pagination of one page holding them all
 * (docs/decisions.md#batch-notification-read-carries-pagination: the spec's pagination). Others' ids are skipped; a
 * single id that is not the caller's is 208001.
 */
export async function readNotifications(
  db: Db,
  view: View,
  caller: CallerId,
  ids: number[],
  single: boolean,
  include: Set<NotificationInclude>,
): Promise<Page<Notification>> {
  const data = await ownChange(
    db,
    caller,
    markRead(db, caller.user_id, now(), { ids }),
    itemsByIds(
      db,
      ownNotifications(caller.user_id),
      ids,
      notificationRelation(db, view, include),
      presentNotification(view),
    ),
  );
  if (single && data.length === 0) throw new ApiError("NOTIFICATION_NOT_FOUND");
  return { data, pagination: paginate({ page: 1, per_page: ids.length, offset: 0 }, data.length) };
}

/** POST /notifications/read: all the caller's unread ones (of a type) are read. */
export async function readAllNotifications(
  db: Db,
  caller: CallerId,
  type: NotificationType | undefined,
): Promise<void> {
  await ownChange(db, caller, markRead(db, caller.user_id, now(), { type }), null);
}

/** DELETE /notifications/{ids}: the caller's among `ids`; others' are silently skipped. */
export async function deleteNotifications(db: Db, caller: CallerId, ids: number[]): Promise<void> {
  await ownChange(db, caller, removeNotifications(db, caller.user_id, { ids }), null);
}

/** DELETE /notifications: all the caller's (of a type). */
export async function deleteAllNotifications(
  db: Db,
  caller: CallerId,
  type: NotificationType | undefined,
): Promise<void> {
  await ownChange(db, caller, removeNotifications(db, caller.user_id, { type }), null);
}

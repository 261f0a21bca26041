/**
 * Rules of the notifications routes (docs/operations.md#notifications, spec operation 6,
 * docs/decisions.md#notifications-are-scoped-to-the-caller): everything is scoped to the caller. A read is one batch
 * after authentication (page, total and every include); a write is one batch carrying the change, the COUNT(*) recount
 * of the caller's `notification_unread` and, for the batch read, the records it answers with.
 */
import { itemsByIds, loadPage, type Page } from "../../behaviours/content/page";
import { presentRecord, type Relationships } from "../../behaviours/content/present";
import { type Relation, statementRelation } from "../../behaviours/content/relations";
import type { IdSource } from "../../behaviours/id-source";
import type { NotificationType } from "../../behaviours/notification-events";
import type { CallerId } from "../../core/caller";
import { ApiError } from "../../core/errors";
import { batch, commit, type Db, readAs, writeThenRead } from "../../db/client";
import type { View } from "../../http/view";
import { paginate, parsePage } from "../../lib/pagination";
import { now } from "../../lib/time";
import {
  countUnread,
  markRead,
  type NotificationFilter,
  type NotificationRow,
  notificationsOf,
  ownNotifications,
  relatedSummary,
  removeNotifications,
  selectRelated,
} from "./repo";
import type { Notification, NotificationInclude, NotificationPageQueryInput } from "./schema";

/** The includes of notifications: one statement per name over their ids, in the batch of the rows themselves. */
function notificationRelation(
  db: Db,
  view: View,
  include: Set<NotificationInclude>,
): ((ids: IdSource) => Relation) | null {
  if (include.size === 0) return null;
  const names = [...include];
  return (ids) =>
    statementRelation(
      readAs(
        names.map((name) =>
          readAs(selectRelated(db, name, ids), (rows) => [name, new Map(rows.map((row) => [row.nid, row]))] as const),
        ),
        (found) => {
          return (id) =>
            Object.fromEntries(
              found.map(([name, rows]) => {
                const row = rows.get(id);
                return [name, row ? relatedSummary(name, row, view) : null];
              }),
            );
        },
      ),
    );
}

/**
 * The item a `*_deleted` kind deleted: its key is left out of relationships
 * (docs/decisions.md#the-deleted-item-has-no-relationship-key).
 */
const deletedKey: Partial<Record<NotificationType, NotificationInclude>> = {
  question_deleted: "question",
  article_deleted: "article",
  answer_deleted: "answer",
  comment_deleted: "comment",
};

/**
 * The record: every column but content_deleted, which only the *_deleted kinds carry, as the deleted item's record
 * (delete_time for administrators only, via presentRecord); the other kinds have no such key (docs/notifications.md).
 */
const presentNotification =
  (view: View) =>
  (row: NotificationRow, relationships: Relationships | undefined): Notification => {
    const { content_deleted, ...columns } = row;
    const deleted = deletedKey[row.type as NotificationType];
    const snapshot =
      deleted && content_deleted && presentRecord(JSON.parse(content_deleted) as { delete_time: number }, view);
    const shown =
      relationships && Object.fromEntries(Object.entries(relationships).filter(([name]) => name !== deleted));
    return {
      ...columns,
      ...(snapshot && { content_deleted: snapshot }),
      ...(shown && { relationships: shown }),
    } as Notification;
  };

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
  const data = await writeThenRead(
    db,
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
  await commit(db, markRead(db, caller.user_id, now(), { type }));
}

/** DELETE /notifications/{ids}: the caller's among `ids`; others' are silently skipped. */
export async function deleteNotifications(db: Db, caller: CallerId, ids: number[]): Promise<void> {
  await commit(db, removeNotifications(db, caller.user_id, { ids }));
}

/** DELETE /notifications: all the caller's (of a type). */
export async function deleteAllNotifications(
  db: Db,
  caller: CallerId,
  type: NotificationType | undefined,
): Promise<void> {
  await commit(db, removeNotifications(db, caller.user_id, { type }));
}

/**
 * Queries on the caller's notifications. Every query names the receiver: nobody reads, marks or deletes
 * another user's notifications (docs/decisions.md#notifications-are-scoped-to-the-caller fixes MDClub's all-users
 * mark-read and delete-all).
 */
import { count, desc, eq, getTableColumns, gt, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { ByIdSource, ListSource } from "../../behaviours/content/repo";
import { summaries } from "../../behaviours/content/summaries";
import { type IdSource, inIds } from "../../behaviours/id-source";
import { isLive } from "../../behaviours/live";
import { type NotificationType, recountUnread } from "../../behaviours/notification-events";
import type { BatchStatement, Db } from "../../db/client";
import { allOf } from "../../db/conditions";
import { notifications } from "../../db/schema";
import type { SummarisedKind } from "../../domain/entities";
import type { View } from "../../http/view";
import type { NotificationInclude } from "./schema";

export type NotificationRow = typeof notifications.$inferSelect;

export interface NotificationFilter {
  type?: NotificationType;
  /** true: read ones only; false: unread ones only; undefined: all. */
  read?: boolean;
}

function whereOf(receiverId: number, filter: NotificationFilter): SQL {
  const read =
    filter.read === undefined
      ? undefined
      : filter.read
        ? gt(notifications.read_time, 0)
        : eq(notifications.read_time, 0);
  return allOf(
    eq(notifications.receiver_id, receiverId),
    filter.type ? eq(notifications.type, filter.type) : undefined,
    read,
  );
}

const columns = getTableColumns(notifications);

/**
 * The caller's notifications, newest first (docs/operations.md#notifications: fixed order); the id settles equal times.
 */
export function notificationsOf(receiverId: number, filter: NotificationFilter): ListSource {
  return {
    table: notifications,
    id: notifications.notification_id,
    columns,
    where: whereOf(receiverId, filter),
    orderBy: [desc(notifications.create_time), desc(notifications.notification_id)],
  };
}

/** Notifications by id, any receiver's (the events module presents each for its own receiver). */
export const notificationsById: ByIdSource = { table: notifications, id: notifications.notification_id, columns };

/** The caller's notifications by id: another user's are simply not found. */
export const ownNotifications = (receiverId: number): ByIdSource => ({
  ...notificationsById,
  where: eq(notifications.receiver_id, receiverId),
});

export function countUnread(db: Db, receiverId: number, type: NotificationType | undefined) {
  return db
    .select({ n: count() })
    .from(notifications)
    .where(whereOf(receiverId, { type, read: false }));
}

/** Which of the caller's notifications a mark-read or delete acts on: those among `ids`, or all of a type. */
type Selection = { ids: number[] } | { type?: NotificationType };

const selected = (receiverId: number, target: Selection): SQL =>
  "ids" in target
    ? allOf(eq(notifications.receiver_id, receiverId), inIds(notifications.notification_id, target.ids))
    : whereOf(receiverId, { type: target.type });

/**
 * Marks the caller's unread notifications read (those among `ids`, or all of a type), then recounts the
 * counter. A read one keeps its first read_time: two concurrent requests thus stamp each row at most once.
 */
export function markRead(db: Db, receiverId: number, time: number, target: Selection): BatchStatement[] {
  return [
    db
      .update(notifications)
      .set({ read_time: time })
      .where(allOf(selected(receiverId, target), eq(notifications.read_time, 0))),
    recountUnread(db, [receiverId]),
  ];
}

/** Deletes the caller's notifications (those among `ids`, or all of a type), then recounts the counter. */
export function removeNotifications(db: Db, receiverId: number, target: Selection): BatchStatement[] {
  return [db.delete(notifications).where(selected(receiverId, target)), recountUnread(db, [receiverId])];
}

/**
 * What each include names: the notification column holding its id and the item's type. Table, liveness and
 * summary columns are the shared ones (behaviours/content/summaries.ts): content in the trash is shown as null,
 * users have no trash (docs/conventions.md#object-shapes).
 */
const related: Record<NotificationInclude, { by: SQLiteColumn; type: SummarisedKind }> = {
  receiver: { by: notifications.receiver_id, type: "user" },
  sender: { by: notifications.sender_id, type: "user" },
  question: { by: notifications.question_id, type: "question" },
  article: { by: notifications.article_id, type: "article" },
  answer: { by: notifications.answer_id, type: "answer" },
  comment: { by: notifications.comment_id, type: "comment" },
  reply: { by: notifications.reply_id, type: "comment" },
};

/** The summary of an include's row, as selected by `selectRelated`. */
export const relatedSummary = (include: NotificationInclude, row: Record<string, unknown>, view: View): unknown =>
  summaries[related[include].type].summary(row, view);

/**
 * One include for a set of notifications, as `nid` (the notification's id: aliased, because D1 batches key
 * rows by column name) plus the summary columns of the live item it names. Ids 0 simply match nothing.
 */
export function selectRelated(db: Db, include: NotificationInclude, ids: IdSource) {
  const { by, type } = related[include];
  const item = summaries[type];
  const nid = sql<number>`${notifications.notification_id}`.as("nid");
  return db
    .select({ nid, ...item.summaryColumns })
    .from(notifications)
    .innerJoin(item.table, isLive(item, by))
    .where(inIds(notifications.notification_id, ids));
}

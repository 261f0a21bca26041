/**
 * Queries on the caller's notifications. Every query names the receiver: nobody reads, marks or deletes
 * another user's notifications (DECISIONS.md fixes MDClub's all-users mark-read and delete-all).
 */
import { and, count, desc, eq, getTableColumns, gt, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { inIds, type IdSource } from "../../behaviours/id-source";
import type { BatchStatement, Db } from "../../db/client";
import { answers, articles, comments, notifications, questions, users } from "../../db/schema";
import type { ByIdSource, ListSource } from "../content/page";
import { recountUnread } from "./events";
import type { NotificationInclude, NotificationType } from "./schema";

export type NotificationRow = typeof notifications.$inferSelect;

export interface NotificationFilter {
  type?: NotificationType;
  /** true: read ones only; false: unread ones only; undefined: all. */
  read?: boolean;
}

function whereOf(receiverId: number, filter: NotificationFilter): SQL {
  const read = filter.read === undefined ? undefined : filter.read ? gt(notifications.read_time, 0) : eq(notifications.read_time, 0);
  return and(eq(notifications.receiver_id, receiverId), filter.type ? eq(notifications.type, filter.type) : undefined, read)!;
}

const columns = getTableColumns(notifications);

/** The caller's notifications, newest first (behaviour.md 3.7: fixed order); the id settles equal times. */
export function notificationsOf(receiverId: number, filter: NotificationFilter): ListSource {
  return {
    table: notifications,
    id: notifications.notification_id,
    columns,
    where: whereOf(receiverId, filter),
    orderBy: [desc(notifications.create_time), desc(notifications.notification_id)],
  };
}

/** The caller's notifications by id: another user's are simply not found. */
export const ownNotifications = (receiverId: number): ByIdSource => ({
  table: notifications,
  id: notifications.notification_id,
  columns,
  where: eq(notifications.receiver_id, receiverId),
});

export function countUnread(db: Db, receiverId: number, type: NotificationType | undefined) {
  return db.select({ n: count() }).from(notifications).where(whereOf(receiverId, { type, read: false }));
}

/**
 * Marks the caller's unread notifications read (those among `ids`, or all of a type), then recounts the
 * counter. A read one keeps its first read_time: two concurrent requests thus stamp each row at most once.
 */
export function markRead(db: Db, receiverId: number, time: number, target: { ids: number[] } | { type?: NotificationType }): BatchStatement[] {
  const where = "ids" in target ? inIds(notifications.notification_id, target.ids) : target.type ? eq(notifications.type, target.type) : undefined;
  return [
    db
      .update(notifications)
      .set({ read_time: time })
      .where(and(eq(notifications.receiver_id, receiverId), eq(notifications.read_time, 0), where)),
    recountUnread(db, [receiverId]),
  ];
}

/** Deletes the caller's notifications (those among `ids`, or all of a type), then recounts the counter. */
export function removeNotifications(db: Db, receiverId: number, target: { ids: number[] } | { type?: NotificationType }): BatchStatement[] {
  const where = "ids" in target ? inIds(notifications.notification_id, target.ids) : target.type ? eq(notifications.type, target.type) : undefined;
  return [db.delete(notifications).where(and(eq(notifications.receiver_id, receiverId), where)), recountUnread(db, [receiverId])];
}

interface Related {
  table: SQLiteTable;
  /** The notification column naming the item. */
  by: SQLiteColumn;
  id: SQLiteColumn;
  /** Users have no trash; content in the trash is shown as null (behaviour.md 2.1). */
  deleteTime?: SQLiteColumn;
  columns: Record<string, SQLiteColumn>;
}

const userColumns = { user_id: users.user_id, username: users.username, headline: users.headline, avatar: users.avatar };
const commentColumns = { comment_id: comments.comment_id, content: comments.content, create_time: comments.create_time, update_time: comments.update_time };

const related: Record<NotificationInclude, Related> = {
  receiver: { table: users, by: notifications.receiver_id, id: users.user_id, columns: userColumns },
  sender: { table: users, by: notifications.sender_id, id: users.user_id, columns: userColumns },
  question: {
    table: questions,
    by: notifications.question_id,
    id: questions.question_id,
    deleteTime: questions.delete_time,
    columns: { question_id: questions.question_id, title: questions.title, create_time: questions.create_time, update_time: questions.update_time },
  },
  article: {
    table: articles,
    by: notifications.article_id,
    id: articles.article_id,
    deleteTime: articles.delete_time,
    columns: { article_id: articles.article_id, title: articles.title, create_time: articles.create_time, update_time: articles.update_time },
  },
  answer: {
    table: answers,
    by: notifications.answer_id,
    id: answers.answer_id,
    deleteTime: answers.delete_time,
    columns: {
      answer_id: answers.answer_id,
      question_id: answers.question_id,
      content_rendered: answers.content_rendered,
      create_time: answers.create_time,
      update_time: answers.update_time,
    },
  },
  comment: { table: comments, by: notifications.comment_id, id: comments.comment_id, deleteTime: comments.delete_time, columns: commentColumns },
  reply: { table: comments, by: notifications.reply_id, id: comments.comment_id, deleteTime: comments.delete_time, columns: commentColumns },
};

/**
 * One include for a set of notifications, as `nid` (the notification's id: aliased, because D1 batches key
 * rows by column name) plus the summary columns of the live item it names. Ids 0 simply match nothing.
 */
export function selectRelated(db: Db, include: NotificationInclude, ids: IdSource) {
  const item = related[include];
  const nid = sql<number>`${notifications.notification_id}`.as("nid");
  return db
    .select({ nid, ...item.columns })
    .from(notifications)
    .innerJoin(item.table, and(eq(item.id, item.by), item.deleteTime ? eq(item.deleteTime, 0) : undefined))
    .where(inIds(notifications.notification_id, ids));
}

/**
 * Statement builders for the events (spec "Events" and the kinds beyond it, docs/notifications.md), for the batch of
 * the write that causes them: the notification is written by the same atomic batch as the answer, comment, trash or
 * delete.
 *
 * - A new row's id is not known before its batch runs, so create events are INSERT ... SELECT from the target
 *   row, with the new id as a subquery (behaviours/content/repo.ts `newestOf`): no extra round trip, and the receiver
 *   (the target's author) is read by the insert itself.
 * - Nobody is notified of their own action (docs/decisions.md#nobody-is-notified-of-their-own-action): the SELECT skips
 *   a target whose author is the sender, and one whose author blocks the sender (docs/messages.md#blocks).
 * - Each insert is followed by a recount of the receiver's `notification_unread` (behaviours/counters.ts), so the
 *   counter stays exact whatever else runs concurrently (each D1 batch is a transaction).
 */
import { and, eq, ne, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { BatchStatement, Db } from "../db/client";
import { allOf, equalsUnindexed } from "../db/conditions";
import { answers, comments, notifications, users } from "../db/schema";
import {
  type CommentableKind,
  type EntityWith,
  entities,
  has,
  type NotifiedKind,
  type TrashableKind,
} from "../domain/entities";
import { notBlockedBy } from "./blocks";
import { recount, unreadCounter } from "./counters";
import { type IdSource, inIds } from "./id-source";

/** The nine kinds of the spec's Events table (docs/notifications.md). */
const SPEC_TYPES = [
  "question_answered",
  "question_commented",
  "question_deleted",
  "article_commented",
  "article_deleted",
  "answer_commented",
  "answer_deleted",
  "comment_replied",
  "comment_deleted",
] as const;

/**
 * Kinds beyond the spec (docs/notifications.md#kinds-beyond-the-spec). MDClub's own front ends cannot show them, so
 * a deployment serving those (`View.compat`) never writes them, and its counters count only what they show.
 */
const NEW_TYPES = ["answer_accepted", "user_mentioned", "webhook_disabled"] as const;

/** Every kind; nothing else ever notifies. */
export const NOTIFICATION_TYPES = [...SPEC_TYPES, ...NEW_TYPES] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

type Value = number | string | SQL | SQLiteColumn;

interface NotificationFields {
  receiver_id: Value;
  sender_id: Value;
  type: Value;
  article_id?: Value;
  question_id?: Value;
  answer_id?: Value;
  comment_id?: Value;
  reply_id?: Value;
  content_deleted?: Value;
  create_time: Value;
  webhook_id?: Value;
}

/**
 * The SELECT list of an INSERT ... SELECT into notifications: every column in the table's order (drizzle
 * requires it), unset ids 0, content_deleted '' and read_time 0 (unread).
 */
function notificationRow(fields: NotificationFields) {
  const value = (v: Value | undefined, fallback: number | string) => sql`${v ?? fallback}`;
  return {
    // NULL makes SQLite assign the next notification_id.
    notification_id: sql<number>`NULL`.as("notification_id"),
    receiver_id: value(fields.receiver_id, 0).as("receiver_id"),
    sender_id: value(fields.sender_id, 0).as("sender_id"),
    type: value(fields.type, "").as("type"),
    article_id: value(fields.article_id, 0).as("article_id"),
    question_id: value(fields.question_id, 0).as("question_id"),
    answer_id: value(fields.answer_id, 0).as("answer_id"),
    comment_id: value(fields.comment_id, 0).as("comment_id"),
    reply_id: value(fields.reply_id, 0).as("reply_id"),
    content_deleted: value(fields.content_deleted, "").as("content_deleted"),
    create_time: value(fields.create_time, 0).as("create_time"),
    read_time: sql<number>`0`.as("read_time"),
    webhook_id: value(fields.webhook_id, 0).as("webhook_id"),
  };
}

/** Recounts each listed user's `notification_unread`, at this point of the batch. */
export const recountUnread = (db: Db, receivers: IdSource): BatchStatement => recount(db, unreadCounter, receivers);

/**
 * The ids a comment's target adds (spec: comment_replied and comment_deleted): question_id for a question,
 * article_id for an article, answer_id and its question_id for an answer (read whether or not the answer is
 * trashed, docs/notifications.md), nothing for a reply.
 */
function targetIds(type: SQL | SQLiteColumn, id: SQL | SQLiteColumn) {
  const questionOfAnswer = sql`(SELECT ${answers.question_id} FROM ${answers} WHERE ${answers.answer_id} = ${id})`;
  const whenAnswer = sql`WHEN 'answer' THEN COALESCE(${questionOfAnswer}, 0)`;
  return {
    question_id: sql`CASE ${type} WHEN 'question' THEN ${id} ${whenAnswer} ELSE 0 END`,
    article_id: sql`CASE ${type} WHEN 'article' THEN ${id} ELSE 0 END`,
    answer_id: sql`CASE ${type} WHEN 'answer' THEN ${id} ELSE 0 END`,
  };
}

/** An item with an author: a question, answer, article or comment. */
type Authored = EntityWith<"author">;

/**
 * Notifies the author of one item (`fields` may use its columns), unless they are the sender or block the sender;
 * then recounts.
 */
function notifyAuthor(
  db: Db,
  target: Authored,
  targetId: number,
  senderId: number,
  fields: Omit<NotificationFields, "receiver_id" | "sender_id">,
): BatchStatement[] {
  const row = db
    .select(notificationRow({ ...fields, receiver_id: target.author, sender_id: senderId }))
    .from(target.table)
    .where(allOf(eq(target.id, targetId), ne(target.author, senderId), notBlockedBy(target.author, senderId)));
  const author = db.select({ id: target.author }).from(target.table).where(eq(target.id, targetId)).$dynamic();
  return [db.insert(notifications).select(row), recountUnread(db, author)];
}

/** question_answered: to the question's author. `answerId` is the new answer's id as a subquery. */
export function questionAnswered(
  db: Db,
  questionId: number,
  answerId: SQL,
  senderId: number,
  time: number,
): BatchStatement[] {
  return notifyAuthor(db, entities.question, questionId, senderId, {
    type: "question_answered" satisfies NotificationType,
    question_id: questionId,
    answer_id: answerId,
    create_time: time,
  });
}

/** answer_accepted: to the answer's author, when the asker (or an administrator) accepts the answer. */
export function answerAccepted(
  db: Db,
  questionId: number,
  answerId: number,
  senderId: number,
  time: number,
): BatchStatement[] {
  return notifyAuthor(db, entities.answer, answerId, senderId, {
    type: "answer_accepted" satisfies NotificationType,
    question_id: questionId,
    answer_id: answerId,
    create_time: time,
  });
}

/** Where a mention is, by the ids its `user_mentioned` notification carries (docs/mentions.md#notifications). */
export type MentionedIn =
  | { type: "question" | "article"; id: Value }
  | { type: "answer"; id: Value; questionId: number }
  | { type: "comment"; id: Value; target: CommentableKind; targetId: number };

function mentionedIds(item: MentionedIn) {
  switch (item.type) {
    case "question":
      return { question_id: item.id };
    case "article":
      return { article_id: item.id };
    case "answer":
      return { question_id: item.questionId, answer_id: item.id };
    case "comment": {
      if (item.target !== "comment")
        return { ...targetIds(sql`${item.target}`, sql`${item.targetId}`), comment_id: item.id };
      // A reply: the comment replied to and the reply, with that comment's target, as comment_replied has them.
      const parent = (column: SQLiteColumn) =>
        sql`(SELECT ${column} FROM ${comments} WHERE ${comments.comment_id} = ${item.targetId})`;
      const ids = targetIds(parent(comments.commentable_type), parent(comments.commentable_id));
      return { ...ids, comment_id: item.targetId, reply_id: item.id };
    }
  }
}

/**
 * Who a mention notifies among the members it names (docs/mentions.md#notifications): enabled members other than
 * the item's author and the sender, who block neither of them (docs/messages.md#blocks).
 */
function mentionRecipients(userIds: number[], authorId: number, senderId: number): SQL {
  return allOf(
    inIds(users.user_id, userIds),
    // Picked by their keys: the state is checked off the indexes (docs/data-model.md#indexes).
    equalsUnindexed(users.disable_time, 0),
    ne(users.user_id, authorId),
    ne(users.user_id, senderId),
    notBlockedBy(users.user_id, authorId),
    ...(senderId === authorId ? [] : [notBlockedBy(users.user_id, senderId)]),
  );
}

/** user_mentioned: to each member among `userIds` the mention may notify, naming the item; then recounts. */
export function userMentioned(
  db: Db,
  userIds: number[],
  item: MentionedIn,
  authorId: number,
  senderId: number,
  time: number,
): BatchStatement[] {
  if (userIds.length === 0) return [];
  const row = db
    .select(
      notificationRow({
        receiver_id: users.user_id,
        sender_id: senderId,
        type: "user_mentioned" satisfies NotificationType,
        ...mentionedIds(item),
        create_time: time,
      }),
    )
    .from(users)
    .where(mentionRecipients(userIds, authorId, senderId));
  return [db.insert(notifications).select(row), recountUnread(db, userIds)];
}

/**
 * A new comment on a question, answer or article, or a reply to a comment: question_commented,
 * answer_commented, article_commented or comment_replied, to the target's author. `commentId` is the new
 * comment's id as a subquery.
 */
export function commentPosted(
  db: Db,
  targetType: CommentableKind,
  targetId: number,
  commentId: SQL,
  senderId: number,
  time: number,
): BatchStatement[] {
  const target: Authored = entities[targetType];
  switch (targetType) {
    case "question":
      return notifyAuthor(db, target, targetId, senderId, {
        type: "question_commented",
        question_id: targetId,
        comment_id: commentId,
        create_time: time,
      });
    case "article":
      return notifyAuthor(db, target, targetId, senderId, {
        type: "article_commented",
        article_id: targetId,
        comment_id: commentId,
        create_time: time,
      });
    case "answer":
      return notifyAuthor(db, target, targetId, senderId, {
        type: "answer_commented",
        question_id: answers.question_id,
        answer_id: targetId,
        comment_id: commentId,
        create_time: time,
      });
    case "comment":
      return notifyAuthor(db, target, targetId, senderId, {
        type: "comment_replied",
        ...targetIds(comments.commentable_type, comments.commentable_id),
        comment_id: targetId,
        reply_id: commentId,
        create_time: time,
      });
  }
}

// Each kind notified on deletion has its `{type}_deleted` notification type.
const deletedType = <K extends NotifiedKind>(type: K) => `${type}_deleted` as const satisfies NotificationType;

/** The fields of the row a deletion notice carries (JSON field names), as the entity model lists them. */
const deletedIds = (type: NotifiedKind, row: Record<string, unknown>) =>
  Object.fromEntries(entities[type].notifiedOnDeletion.carries.map((field) => [field, row[field]]));

/** A row as the trash or delete read it, before the action: every column of its kind. */
export type DeletedRow = Record<string, unknown> & { delete_time: number };

/**
 * `*_deleted`, for the batch of a trash (only live rows are trashed) or a hard delete of the rows the caller
 * named (lifecycle/service.ts; never on untrash, nor for cascaded children): to the author of each row that was
 * live before it (trash then delete notifies once), unless they are the actor; nothing for a kind the entity
 * model does not notify (topics). The snapshot is the row as it was before the action, with delete_time 0.
 *
 * All rows travel as ONE JSON parameter read with json_each: D1 allows 100 bound parameters per statement and
 * a batch may hold 100 items.
 */
export function notifyDeleted(
  db: Db,
  type: TrashableKind,
  before: DeletedRow[],
  actorId: number,
  time: number,
): BatchStatement[] {
  if (!has(type, "notifiedOnDeletion")) return [];
  const rows = before.filter((row) => row.delete_time === 0 && row.user_id !== actorId);
  if (rows.length === 0) return [];
  const items = rows.map((row) => ({
    receiver_id: row.user_id,
    content_deleted: JSON.stringify({ ...row, delete_time: 0 }),
    ...deletedIds(type, row),
  }));
  const field = (name: string) => sql`json_extract(value, ${sql.raw(`'$.${name}'`)})`;
  const ids =
    type === "comment"
      ? { comment_id: field("comment_id"), ...targetIds(field("commentable_type"), field("commentable_id")) }
      : {
          article_id: sql`COALESCE(${field("article_id")}, 0)`,
          question_id: sql`COALESCE(${field("question_id")}, 0)`,
          answer_id: sql`COALESCE(${field("answer_id")}, 0)`,
        };
  const row = db
    .select(
      notificationRow({
        receiver_id: field("receiver_id"),
        sender_id: actorId,
        type: deletedType(type),
        ...ids,
        content_deleted: field("content_deleted"),
        create_time: time,
      }),
    )
    .from(sql`json_each(${JSON.stringify(items)})`);
  const receivers = [...new Set(rows.map((r) => r.user_id as number))];
  return [db.insert(notifications).select(row), recountUnread(db, receivers)];
}

const enabledAdministrators = and(eq(users.role, "admin"), eq(users.disable_time, 0));

/** The ids of every enabled administrator, as a subquery: webhook_disabled's receivers. */
export const administratorIds = (db: Db) =>
  db.select({ id: users.user_id }).from(users).where(enabledAdministrators).$dynamic();

/**
 * webhook_disabled: to every enabled administrator, from nobody (sender 0), when a failing endpoint was stopped
 * (docs/events.md#disabled-endpoints). MDClub's own front ends cannot show it: a site serving them
 * (`compat`, MDCLUB_COMPAT) creates none.
 */
export function webhookDisabled(db: Db, webhookId: number, time: number, compat: boolean): BatchStatement[] {
  if (compat) return [];
  const row = db
    .select(
      notificationRow({
        receiver_id: users.user_id,
        sender_id: 0,
        type: "webhook_disabled" satisfies NotificationType,
        create_time: time,
        webhook_id: webhookId,
      }),
    )
    .from(users)
    .where(enabledAdministrators);
  return [db.insert(notifications).select(row), recountUnread(db, administratorIds(db))];
}

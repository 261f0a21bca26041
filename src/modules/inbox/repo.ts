/**
 * Queries on conversations and messages (docs/messages.md#model). A conversation is found from either side by its
 * member row, keyed (member, other member); a message's conversation and what a member removed of it are read from
 * that row inside each statement, so every write names its rows without a read before it.
 */
import { and, count, desc, eq, exists, gt, min, notExists, type SQL, sql } from "drizzle-orm";
import { blocks } from "../../behaviours/blocks";
import type { ByIdSource, ListSource } from "../../behaviours/content/repo";
import { newestWhere } from "../../behaviours/content/repo";
import { inboxUnreadCounter, recount } from "../../behaviours/counters";
import { removeReports } from "../../behaviours/deletable";
import type { IdSource } from "../../behaviours/id-source";
import type { Db } from "../../db/client";
import { allOf, outer } from "../../db/conditions";
import { conversation_members, conversations, follows, messages, users } from "../../db/schema";
import type { Content } from "../../lib/markdown";

const members = conversation_members;

/** The row of `userId`'s side of their conversation with `otherId`. */
const memberRow = (userId: number, otherId: number): SQL =>
  allOf(eq(members.user_id, userId), eq(members.other_user_id, otherId));

/** A column of `userId`'s member row with `otherId`, as a scalar subquery (NULL when they have no conversation). */
const memberColumn = (db: Db, column: "conversation_id" | "clear_message_id", userId: number, otherId: number) =>
  sql`${db.select({ value: members[column] }).from(members).where(memberRow(userId, otherId))}`;

/** The message columns of the wire record (a message's conversation is its members' business). */
export const messageColumns = {
  message_id: messages.message_id,
  sender_id: messages.sender_id,
  receiver_id: messages.receiver_id,
  content_markdown: messages.content_markdown,
  content_rendered: messages.content_rendered,
  create_time: messages.create_time,
  read_time: messages.read_time,
};

export type MessageRow = { [K in keyof typeof messageColumns]: (typeof messageColumns)[K]["_"]["data"] };

/** Messages by id, for a read after a write. */
export const messagesById: ByIdSource = { table: messages, id: messages.message_id, columns: messageColumns };

/**
 * The messages between `userId` and `otherId` still in `userId`'s inbox, newest first (ids grow with time): read
 * through the conversation's index from what the member removed on.
 */
export function conversationMessages(db: Db, userId: number, otherId: number): ListSource {
  return {
    ...messagesById,
    where: allOf(
      eq(messages.conversation_id, memberColumn(db, "conversation_id", userId, otherId)),
      gt(messages.message_id, memberColumn(db, "clear_message_id", userId, otherId)),
    ),
    orderBy: [desc(messages.message_id)],
  };
}

/** The outer member row's own columns, named with their table inside the correlated subqueries below. */
const own = (column: keyof typeof members._.columns) => outer(members[column]);

/** The member's unread messages in the conversation (the receiver's index, then the conversation within it). */
const unreadCount = sql<number>`(SELECT count(*) FROM ${messages} AS mu
  WHERE mu.receiver_id = ${own("user_id")} AND mu.read_time = 0
    AND mu.conversation_id = ${own("conversation_id")} AND mu.message_id > ${own("clear_message_id")})`;

/** The latest message the member still has, as a JSON array of the message columns in their order. */
const lastMessage = sql<string | null>`(SELECT json_array(ml.message_id, ml.sender_id, ml.receiver_id,
    ml.content_markdown, ml.content_rendered, ml.create_time, ml.read_time) FROM ${messages} AS ml
  WHERE ml.conversation_id = ${own("conversation_id")} AND ml.message_id > ${own("clear_message_id")}
  ORDER BY ml.message_id DESC LIMIT 1)`;

/** The columns of a Conversation record: the member row seen from its member, with its counts. */
const conversationColumns = {
  conversation_id: members.conversation_id,
  user_id: members.other_user_id,
  unread_count: unreadCount.as("unread_count"),
  update_time: members.update_time,
  last_message: lastMessage.as("last_message"),
};

export type ConversationRow = {
  conversation_id: number;
  user_id: number;
  unread_count: number;
  update_time: number;
  last_message: string | null;
};

/** A member's conversations still in their inbox, the latest activity first. */
export function inboxOf(userId: number): ListSource {
  return {
    table: members,
    id: members.conversation_id,
    columns: conversationColumns,
    where: allOf(eq(members.user_id, userId), eq(members.delete_time, 0)),
    orderBy: [desc(members.update_time), desc(members.conversation_id)],
  };
}

/** `userId`'s side of their conversation with `otherId`, removed or not, as a by-id source of one row. */
export function conversationOf(db: Db, userId: number, otherId: number): { source: ByIdSource; ids: IdSource } {
  return {
    source: {
      table: members,
      id: members.conversation_id,
      columns: conversationColumns,
      where: eq(members.user_id, userId),
    },
    ids: db.select({ id: members.conversation_id }).from(members).where(memberRow(userId, otherId)).$dynamic(),
  };
}

/** A user's id, when they exist: the other member's existence check (disabled users exist). */
export const selectUserId = (db: Db, id: number) =>
  db.select({ user_id: users.user_id }).from(users).where(eq(users.user_id, id));

/** Whether `userId` has a conversation with `otherId` (removed or not). */
export const selectMember = (db: Db, userId: number, otherId: number) =>
  db.select({ conversation_id: members.conversation_id }).from(members).where(memberRow(userId, otherId));

/**
 * Everything a send checks, in one statement on the receiver's row (none when they do not exist): who they are, the
 * sender's name (for the mail), the blocks either way, whether they follow the sender, the conversation between them,
 * and how many conversations the sender started since `since` and the first of those
 * (docs/messages.md#who-may-write-to-whom).
 */
export function sendChecks(db: Db, senderId: number, receiverId: number, since: number) {
  const followsSender = db
    .select({ one: sql`1` })
    .from(follows)
    .where(
      allOf(eq(follows.followable_type, "user"), eq(follows.followable_id, senderId), eq(follows.user_id, receiverId)),
    );
  const startedSince = allOf(eq(conversations.user_id, senderId), gt(conversations.create_time, since));
  const started = db.select({ n: count() }).from(conversations).where(startedSince);
  const firstStarted = db
    .select({ first: min(conversations.create_time) })
    .from(conversations)
    .where(startedSince);
  return db
    .select({
      user_id: users.user_id,
      username: users.username,
      email: users.email,
      disable_time: users.disable_time,
      inbox_accept: users.inbox_accept,
      inbox_email: users.inbox_email,
      // Aliased: D1 names a column by its expression, and the two blocks differ only in their values.
      blocks_sender: sql<number>`${blocks(receiverId, senderId)}`.as("blocks_sender"),
      blocked_by_sender: sql<number>`${blocks(senderId, receiverId)}`.as("blocked_by_sender"),
      follows_sender: sql<number>`${exists(followsSender)}`.as("follows_sender"),
      conversation_id: sql<number | null>`${memberColumn(db, "conversation_id", senderId, receiverId)}`.as(
        "conversation_id",
      ),
      sender_name: sql<string>`(SELECT su.username FROM ${users} AS su WHERE su.user_id = ${senderId})`.as(
        "sender_name",
      ),
      started: sql<number>`${started}`.as("started"),
      first_started: sql<number | null>`${firstStarted}`.as("first_started"),
    })
    .from(users)
    .where(eq(users.user_id, receiverId));
}

/**
 * A new conversation, started by the sender, unless one was made in the meantime (a batch sees the writes of every
 * batch before it): the member rows' upsert then keeps the conversation they name.
 */
export function startConversation(db: Db, senderId: number, receiverId: number, time: number) {
  const existing = db.select({ one: sql`1` }).from(members).where(memberRow(senderId, receiverId));
  return db.insert(conversations).select(
    db
      .select({
        conversation_id: sql<number>`NULL`.as("conversation_id"),
        user_id: users.user_id,
        create_time: sql<number>`${time}`.as("create_time"),
      })
      .from(users)
      .where(and(eq(users.user_id, senderId), notExists(existing))),
  );
}

/** The conversation the sender started last, named for the statements after its insert (behaviours/content/repo.ts). */
export function startedConversation(db: Db, senderId: number): SQL {
  const kind = { table: conversations, id: conversations.conversation_id };
  // 0 when the insert found one made meanwhile: the member rows exist then, and their upsert keeps theirs.
  return sql`coalesce(${newestWhere(db, kind, eq(conversations.user_id, senderId))}, 0)`;
}

/**
 * Both member rows of the conversation, made or brought back into both inboxes at the new message's time. An existing
 * row keeps its conversation and what its member removed.
 */
export function touchMembers(db: Db, senderId: number, receiverId: number, conversationId: number | SQL, time: number) {
  const row = (user_id: number, other_user_id: number) => ({
    user_id,
    other_user_id,
    conversation_id: sql`${conversationId}`,
    update_time: time,
  });
  return db
    .insert(members)
    .values([row(senderId, receiverId), row(receiverId, senderId)])
    .onConflictDoUpdate({
      target: [members.user_id, members.other_user_id],
      set: { update_time: sql`excluded.update_time`, delete_time: 0 },
    });
}

/** The message, in the conversation the sender's member row names. */
export function insertMessage(db: Db, senderId: number, receiverId: number, content: Content, time: number) {
  return db.insert(messages).select(
    db
      .select({
        message_id: sql<number>`NULL`.as("message_id"),
        conversation_id: members.conversation_id,
        sender_id: members.user_id,
        receiver_id: members.other_user_id,
        content_markdown: sql<string>`${content.content_markdown}`.as("content_markdown"),
        content_rendered: sql<string>`${content.content_rendered}`.as("content_rendered"),
        create_time: sql<number>`${time}`.as("create_time"),
        read_time: sql<number>`0`.as("read_time"),
      })
      .from(members)
      .where(memberRow(senderId, receiverId)),
  );
}

/** Recounts the member's `inbox_unread` at this point of the batch (behaviours/counters.ts). */
export const recountInbox = (db: Db, userId: number) => recount(db, inboxUnreadCounter, userId);

/**
 * Marks that `userId` is mailed about their conversation with `otherId` now, unless they were since they last read
 * it: the row comes back only for the one send that may mail (docs/messages.md#mail).
 */
export function claimMail(db: Db, userId: number, otherId: number, time: number) {
  return db
    .update(members)
    .set({ mail_time: time })
    .where(allOf(memberRow(userId, otherId), eq(members.mail_time, 0)))
    .returning({ user_id: members.user_id });
}

/** Marks read the messages to `userId` in their conversation with `otherId`, those still in their inbox. */
export function markRead(db: Db, userId: number, otherId: number, time: number) {
  return db
    .update(messages)
    .set({ read_time: time })
    .where(
      allOf(
        eq(messages.receiver_id, userId),
        eq(messages.read_time, 0),
        eq(messages.conversation_id, memberColumn(db, "conversation_id", userId, otherId)),
        gt(messages.message_id, memberColumn(db, "clear_message_id", userId, otherId)),
      ),
    );
}

/** Read: the next new message may mail again. */
export const resetMail = (db: Db, userId: number, otherId: number) =>
  db.update(members).set({ mail_time: 0 }).where(memberRow(userId, otherId));

/** Takes the conversation out of `userId`'s inbox with every message in it so far; the other member keeps theirs. */
export function removeConversation(db: Db, userId: number, otherId: number, time: number) {
  const latest = sql`(SELECT max(mx.message_id) FROM ${messages} AS mx
    WHERE mx.conversation_id = ${own("conversation_id")})`;
  return db
    .update(members)
    .set({ delete_time: time, mail_time: 0, clear_message_id: sql`coalesce(${latest}, ${members.clear_message_id})` })
    .where(memberRow(userId, otherId));
}

/** A message's parties and times: what a withdrawal checks, and whether it moves the receiver's unread count. */
export const selectMessage = (db: Db, id: number) =>
  db
    .select({
      message_id: messages.message_id,
      user_id: messages.sender_id,
      receiver_id: messages.receiver_id,
      create_time: messages.create_time,
      read_time: messages.read_time,
    })
    .from(messages)
    .where(eq(messages.message_id, id));

/** A withdrawn or deleted message goes with its reports (docs/messages.md#moderation). */
export const deleteMessage = (db: Db, id: number) => [
  db.delete(messages).where(eq(messages.message_id, id)),
  removeReports(db, "message", [id]),
];

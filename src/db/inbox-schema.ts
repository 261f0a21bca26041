/**
 * The tables of private messages and blocks (docs/messages.md#model), kept apart from schema.ts, which exports them
 * with the rest of the model. Conventions as there: the spec's snake_case names, Unix seconds, 0 for a time that has
 * not happened.
 */
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

const int = (name: string) => integer(name).notNull().default(0);
const str = (name: string) => text(name).notNull().default("");

/** Who may write to a member: `users.inbox_accept` (docs/messages.md#who-may-write-to-whom). */
export const INBOX_ACCEPT = ["everyone", "following", "nobody"] as const;

/** A conversation between two members, made by its first message. */
export const conversations = sqliteTable(
  "conversations",
  {
    conversation_id: integer("conversation_id").primaryKey({ autoIncrement: true }),
    /** Who wrote its first message: new conversations an hour are counted per member (docs/messages.md#limits). */
    user_id: integer("user_id").notNull(),
    create_time: int("create_time"),
  },
  (t) => [index("conversations_user_time_idx").on(t.user_id, t.create_time)],
);

/** One member's side of a conversation (their inbox entry), named by the member and the other member. */
export const conversation_members = sqliteTable(
  "conversation_members",
  {
    user_id: integer("user_id").notNull(),
    other_user_id: integer("other_user_id").notNull(),
    conversation_id: integer("conversation_id").notNull(),
    /** The time of its latest message: the inbox's order. */
    update_time: int("update_time"),
    /** The member removed the messages up to this id from their inbox; the other member keeps them. */
    clear_message_id: int("clear_message_id"),
    /** > 0: removed from the member's inbox at this time, until a new message comes. */
    delete_time: int("delete_time"),
    /** > 0: the member was mailed about an unread message then; 0 again once they read (docs/messages.md#mail). */
    mail_time: int("mail_time"),
  },
  (t) => [
    primaryKey({ columns: [t.user_id, t.other_user_id] }),
    index("conversation_members_inbox_idx").on(t.user_id, t.delete_time, t.update_time, t.conversation_id),
  ],
);

/** Private messages (MDClub's `mc_inbox`): `read_time` 0 until the receiver marks them read. */
export const messages = sqliteTable(
  "messages",
  {
    message_id: integer("message_id").primaryKey({ autoIncrement: true }),
    conversation_id: integer("conversation_id").notNull(),
    sender_id: integer("sender_id").notNull(),
    receiver_id: integer("receiver_id").notNull(),
    content_markdown: str("content_markdown"),
    content_rendered: str("content_rendered"),
    create_time: int("create_time"),
    read_time: int("read_time"),
  },
  (t) => [
    // A conversation's messages newest first, and its latest one.
    index("messages_conversation_idx").on(t.conversation_id, t.message_id),
    // A member's unread messages: `inbox_unread`, a conversation's unread count and its read-mark.
    index("messages_receiver_unread_idx").on(t.receiver_id, t.read_time, t.conversation_id),
    // Whether one member has written to another (a reply is always accepted, docs/messages.md#who-may-write-to-whom).
    index("messages_sender_receiver_idx").on(t.sender_id, t.receiver_id),
  ],
);

/** `user_id` blocks `blocked_user_id`: private to the blocker (docs/messages.md#blocks). */
export const user_blocks = sqliteTable(
  "user_blocks",
  {
    user_id: integer("user_id").notNull(),
    blocked_user_id: integer("blocked_user_id").notNull(),
    create_time: int("create_time"),
  },
  (t) => [
    primaryKey({ columns: [t.user_id, t.blocked_user_id] }),
    // The blocker's list, newest first.
    index("user_blocks_user_time_idx").on(t.user_id, t.create_time, t.blocked_user_id),
    index("user_blocks_blocked_idx").on(t.blocked_user_id),
  ],
);

/**
 * MDClub's private messages (`mc_inbox`, docs/messages.md#import-from-mdclub): its rows come in as messages by their
 * map in tables.ts, each without a conversation (0); once every row is in, the statements here group them into one
 * conversation per pair of members and write both members' inbox rows, before the counters (`inbox_unread` among them)
 * are recounted from them. Plain SQL, so a production import's files carry it too.
 */
import type { Statement } from "../../lib/sql-text";

/** Tables written beside `messages` (which the table map fills): a forced or resumed run empties them too. */
export const INBOX_TABLES = ["conversations", "conversation_members"];

/** A message to oneself has no conversation here (docs/messages.md#who-may-write-to-whom). */
export const skipMessage = (row: Record<string, unknown>): string | null =>
  String(row.sender_id) === String(row.receiver_id) ? "a message to oneself" : null;

const statement = (sql: string): Statement => ({ sql, params: [] });

/**
 * A pair's conversation takes the id of its first message, which no other pair's can share; the conversations table's
 * AUTOINCREMENT then goes on after the largest. The pair's messages are found through (sender, receiver) both ways.
 */
export function conversationStatements(): Statement[] {
  return [
    statement(`UPDATE "messages" SET "conversation_id" = (SELECT min(m2."message_id") FROM "messages" AS m2
      WHERE (m2."sender_id" = "messages"."sender_id" AND m2."receiver_id" = "messages"."receiver_id")
         OR (m2."sender_id" = "messages"."receiver_id" AND m2."receiver_id" = "messages"."sender_id"))
      WHERE "conversation_id" = 0`),
    // Started by the sender of its first message, at that message's time.
    statement(`INSERT OR IGNORE INTO "conversations" ("conversation_id", "user_id", "create_time")
      SELECT "message_id", "sender_id", "create_time" FROM "messages" WHERE "message_id" = "conversation_id"`),
    // Both members' inbox rows, in each inbox at the time of its latest message.
    statement(`INSERT OR IGNORE INTO "conversation_members"
      ("user_id", "other_user_id", "conversation_id", "update_time")
      SELECT "member", "other", "conversation_id", max("create_time") FROM (
        SELECT "sender_id" AS "member", "receiver_id" AS "other", "conversation_id", "create_time" FROM "messages"
        UNION ALL
        SELECT "receiver_id", "sender_id", "conversation_id", "create_time" FROM "messages"
      ) GROUP BY "conversation_id", "member", "other"`),
  ];
}

/**
 * What the events of a write read after its answer (docs/events.md#one-event-path): the pages items live on, the
 * notifications the write created and their receivers' counters. Every statement goes in one background batch.
 */
import { and, eq, sql } from "drizzle-orm";
import { type IdSource, inIds } from "../../behaviours/id-source";
import { administratorIds, type NotificationType } from "../../behaviours/notification-events";
import { type BatchRead, type Db, readAs } from "../../db/client";
import { answers, articles, comments, notifications, questions, users } from "../../db/schema";
import { type ContentKind, entities } from "../../domain/entities";
import { type ChannelKind, channelOf } from "./channels";

/** An item an event is about, by kind and id: where the walk up to its page starts. */
export interface Start {
  type: string;
  id: number;
}

/** Replies nest without limit (docs/operations.md#comments-and-replies); a chain deeper than this is not followed. */
const MAX_DEPTH = 100;

/**
 * The channel of each start's page, keyed `type:id` as the start was given: a question, article or topic is its own
 * page; an answer is on its question's; a comment is on the page of what it comments, replies walked up to their
 * first comment. A start whose page is a trashed (or missing) question or article has none. One statement, with
 * every start as one JSON parameter (D1's 100 bound parameters).
 */
export function pageChannels(db: Db, starts: Start[]): BatchRead<Map<string, string>> {
  const statement = db.all<{ start_type: string; start_id: number; type: ChannelKind; id: number }>(sql`
    WITH RECURSIVE up(start_type, start_id, type, id, depth) AS (
      SELECT json_extract(value, '$.type'), json_extract(value, '$.id'), json_extract(value, '$.type'),
        json_extract(value, '$.id'), 0
      FROM json_each(${JSON.stringify(starts)})
      UNION ALL
      SELECT up.start_type, up.start_id,
        CASE up.type WHEN 'comment' THEN c.commentable_type ELSE 'question' END,
        CASE up.type WHEN 'comment' THEN c.commentable_id ELSE a.question_id END,
        up.depth + 1
      FROM up
      LEFT JOIN ${comments} AS c ON up.type = 'comment' AND c.comment_id = up.id
      LEFT JOIN ${answers} AS a ON up.type = 'answer' AND a.answer_id = up.id
      WHERE COALESCE(c.comment_id, a.answer_id) IS NOT NULL AND up.depth < ${MAX_DEPTH}
    )
    SELECT start_type, start_id, type, id FROM up
    WHERE type = 'topic'
      OR (type = 'question'
        AND EXISTS (SELECT 1 FROM ${questions} AS q WHERE q.question_id = up.id AND q.delete_time = 0))
      OR (type = 'article'
        AND EXISTS (SELECT 1 FROM ${articles} AS r WHERE r.article_id = up.id AND r.delete_time = 0))
  `);
  return readAs(
    statement,
    (rows) => new Map(rows.map((row) => [`${row.start_type}:${row.start_id}`, channelOf(row.type, row.id)])),
  );
}

/**
 * The notifications one write created (docs/events.md#one-event-path), named by what the write knows: their kind,
 * the column holding what caused them, the write's sender and time, and who may have received them. They are found
 * through the receivers' index (receiver_id, create_time), never by reading the whole table.
 */
export interface Notified {
  type: NotificationType;
  column: "question_id" | "answer_id" | "article_id" | "comment_id" | "reply_id" | "webhook_id";
  ids: number[];
  /** The authors of some rows of a kind (the items answered, commented or removed), users by id, or administrators. */
  receivers: { authorsOf: ContentKind; ids: number[] } | { users: number[] } | { administrators: true };
  sender_id: number;
  create_time: number;
}

function possibleReceivers(db: Db, receivers: Notified["receivers"]): IdSource {
  if ("users" in receivers) return receivers.users;
  // Administrators are a handful of rows, and a webhook is disabled at most once a day: no index for it.
  if ("administrators" in receivers) return administratorIds(db);
  const kind = entities[receivers.authorsOf];
  return db.select({ id: kind.author }).from(kind.table).where(inIds(kind.id, receivers.ids)).$dynamic();
}

/** The notifications `key` names: their ids, or their receivers' (`of: "receiver"`). */
export function notifiedBy(db: Db, key: Notified, of: "notification" | "receiver" = "notification") {
  return db
    .select({ id: of === "notification" ? notifications.notification_id : notifications.receiver_id })
    .from(notifications)
    .where(
      and(
        inIds(notifications.receiver_id, possibleReceivers(db, key.receivers)),
        eq(notifications.create_time, key.create_time),
        eq(notifications.type, key.type),
        eq(notifications.sender_id, key.sender_id),
        inIds(notifications[key.column], key.ids),
      ),
    )
    .$dynamic();
}

/** The unread counters of users, or of the receivers of notifications (docs/events.md#a-members-own-stream). */
export function unreadCounters(db: Db, who: number[] | Notified) {
  const ids = Array.isArray(who) ? who : notifiedBy(db, who, "receiver");
  return db
    .select({
      user_id: users.user_id,
      notification_unread: users.notification_unread,
      inbox_unread: users.inbox_unread,
    })
    .from(users)
    .where(inIds(users.user_id, ids));
}

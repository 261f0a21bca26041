/**
 * The request's outbox (docs/events.md#one-event-path): services hand it what a write committed, right after the
 * write's batch came back (so a batch that failed hands nothing), and the publisher sends it after the answer
 * (publish.ts). Nothing here reads or sends: a write's answer costs no round trip more.
 */
import type { MentionsSent } from "../../behaviours/mentionable";
import type { Db } from "../../db/client";
import type { CommentableKind } from "../../domain/entities";
import type { EventType, Subject } from "./catalogue";
import type { Notified } from "./repo";

/** An event a write emitted, not yet built: its type, what the write knows of it, and when (ms). */
export interface Pending {
  type: EventType;
  subject: unknown;
  at: number;
}

/**
 * Whose live sockets close, as the revocation of tokens names it (http/auth/revocation.ts, `sessionsEnded`): one
 * session (a token, by its SHA-256), or every session of some users.
 */
export type Closing = { tokenHash: string } | { userIds: number[] };

export interface Outbox {
  events: Pending[];
  closings: Closing[];
}

const outboxes = new WeakMap<Db, Outbox>();

function outboxOf(db: Db): Outbox {
  let outbox = outboxes.get(db);
  if (!outbox) {
    outbox = { events: [], closings: [] };
    outboxes.set(db, outbox);
  }
  return outbox;
}

/** Emits an event of a write whose batch has committed: call it with the batch's results, after it came back. */
export function emit<T extends EventType>(db: Db, type: T, subject: Subject<T>): void {
  outboxOf(db).events.push({ type, subject, at: Date.now() });
}

/** `<kind>.created` and `<kind>.updated` of a kind's committed writes, by id, and the mentions they sent. */
export const postEvents = (kind: "question" | "article") => ({
  created: (db: Db, id: number, mentions: MentionsSent) => {
    emit(db, `${kind}.created`, { ids: [id] });
    emitMentioned(db, mentions, `${kind}_id`, id);
  },
  updated: (db: Db, id: number, mentions: MentionsSent) => {
    emit(db, `${kind}.updated`, { ids: [id] });
    emitMentioned(db, mentions, `${kind}_id`, id);
  },
});

/** The notifications a committed write created, and the unread counts of their receivers, which it moved. */
export function emitNotified(db: Db, key: Notified): void {
  emit(db, "notification.created", key);
  emit(db, "unread.updated", { notified: key });
}

/**
 * The `user_mentioned` notifications a committed write may have created (behaviours/mentionable.ts says who gets
 * one), found by the column that names the item the mention is in.
 */
export function emitMentioned(db: Db, mentions: MentionsSent, column: Notified["column"], id: number): void {
  if (mentions.userIds.length === 0) return;
  const { userIds, senderId, time } = mentions;
  emitNotified(db, {
    type: "user_mentioned",
    column,
    ids: [id],
    receivers: { users: userIds },
    sender_id: senderId,
    create_time: time,
  });
}

/**
 * The kind of notification a new comment sends its target's author, and where it names the comment
 * (behaviours/notification-events.ts, `commentPosted`): a reply is the `reply_id` of a comment_replied.
 */
export function commentNotified(target: CommentableKind, commentId: number): Pick<Notified, "type" | "column" | "ids"> {
  const type = target === "comment" ? "comment_replied" : (`${target}_commented` as const);
  return { type, column: target === "comment" ? "reply_id" : "comment_id", ids: [commentId] };
}

/**
 * Closes live sockets once the request is answered (docs/events.md#closing-a-members-sockets): those opened under one
 * token, or every socket of some users. Called by modules/auth/sessions-ended.ts only, with the revocation of the same
 * sessions: the one place where ending sessions reaches the sockets.
 */
export function closeLiveSockets(db: Db, ended: Closing): void {
  if ("tokenHash" in ended || ended.userIds.length) outboxOf(db).closings.push(ended);
}

/** The request's outbox, emptied; null when the request emitted nothing. */
export function takeOutbox(db: Db): Outbox | null {
  const outbox = outboxes.get(db);
  outboxes.delete(db);
  return outbox && (outbox.events.length || outbox.closings.length) ? outbox : null;
}

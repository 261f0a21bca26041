/**
 * Who may write to whom (docs/messages.md#who-may-write-to-whom): the refusals of a private message, in the order they
 * are checked, from what one read of the receiver's row found. Administrators may always write and cannot be blocked
 * from it; a disabled account, and the sender's own block of the receiver, stop everyone. A block is private to the
 * blocker: the blocked member is refused exactly as by a member who accepts no messages.
 */
import type { ErrorName } from "../core/errors";

/** New conversations a member may start in an hour (docs/messages.md#limits); administrators are not counted. */
export const NEW_CONVERSATIONS_PER_HOUR = 10;
export const HOUR = 3600;

/** What a send checks about its receiver (booleans as SQLite answers them, 0 or 1). */
export interface Receiver {
  disable_time: number;
  inbox_accept: "everyone" | "following" | "nobody";
  blocks_sender: number | boolean;
  blocked_by_sender: number | boolean;
  follows_sender: number | boolean;
  /** The conversation between them; null before the first message. */
  conversation_id: number | null;
  /** Conversations the sender started in the last hour. */
  started: number;
}

/** The refusal of a message from `sender` to `receiver`, or null when it may go. */
export function sendRefusal(senderIsAdmin: boolean, receiver: Receiver): ErrorName | null {
  if (receiver.disable_time > 0) return "INBOX_RECEIVER_DISABLED";
  if (receiver.blocked_by_sender) return "INBOX_RECEIVER_BLOCKED";
  if (senderIsAdmin) return null;
  const accepts =
    receiver.inbox_accept === "everyone" || (receiver.inbox_accept === "following" && Boolean(receiver.follows_sender));
  if (receiver.blocks_sender || !accepts) return "INBOX_NOT_ACCEPTED";
  if (receiver.conversation_id === null && receiver.started >= NEW_CONVERSATIONS_PER_HOUR) {
    return "INBOX_NEW_CONVERSATIONS_LIMIT";
  }
  return null;
}

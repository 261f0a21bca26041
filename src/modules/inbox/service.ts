/**
 * Rules of the inbox routes besides sending (docs/messages.md): a member's conversations and the messages of one, the
 * read-mark, taking a conversation out of one's inbox, and withdrawing a message. Only the two members ever read a
 * conversation: every statement here is keyed by the caller's own member row. Reads are one batch; so are the
 * read-mark and the removal (their writes touch only the caller's rows, and their checks ride in the same batch); a
 * withdrawal reads the message first.
 */
import { itemsByIds, type Page, type PageQuery, pageOf } from "../../behaviours/content/page";
import { userExists } from "../../behaviours/content/repo";
import type { CallerId } from "../../core/caller";
import { ApiError } from "../../core/errors";
import { batch, changedRows, commit, type Db } from "../../db/client";
import { assertAuthorMay } from "../../domain/permissions";
import type { View } from "../../http/view";
import { now } from "../../lib/time";
import { emit } from "../events/outbox";
import { conversationRecords, messageRecords } from "./records";
import {
  conversationMessages,
  conversationOf,
  deleteMessage,
  inboxOf,
  markRead,
  recountInbox,
  removeConversation,
  resetMail,
  selectMember,
  selectMessage,
  selectUserId,
} from "./repo";
import type { Conversation, ConversationInclude, Message, MessageInclude } from "./schema";

/** GET /inbox: the caller's conversations still in their inbox, the latest activity first. */
export function listConversations(
  db: Db,
  view: View,
  caller: CallerId,
  query: PageQuery,
  include: Set<ConversationInclude>,
): Promise<Page<Conversation>> {
  return pageOf(db, view, conversationRecords, inboxOf(caller.user_id), query, include);
}

/**
 * GET /inbox/{user_id}: the messages between the caller and that member still in the caller's inbox, newest first;
 * an empty page before their first message, 201003 when the member does not exist.
 */
export function listMessages(
  db: Db,
  view: View,
  caller: CallerId,
  otherId: number,
  query: PageQuery,
  include: Set<MessageInclude>,
): Promise<Page<Message>> {
  const source = conversationMessages(db, caller.user_id, otherId);
  return pageOf(db, view, messageRecords, source, query, include, userExists(db, view, otherId));
}

/** The caller's Conversation record with `otherId`, read with the checks that name the refusals. */
function conversationRead(db: Db, view: View, caller: CallerId, otherId: number, include: Set<ConversationInclude>) {
  const { source, ids } = conversationOf(db, caller.user_id, otherId);
  return {
    user: selectUserId(db, otherId),
    records: itemsByIds(
      db,
      source,
      ids,
      conversationRecords.relation(db, view, include),
      conversationRecords.present(view),
    ),
  };
}

/** 201003 for a member who does not exist, 209007 when the caller has no conversation with them. */
function assertFound(found: { user: unknown[]; member: unknown[] }): void {
  if (found.user.length === 0) throw new ApiError("USER_NOT_FOUND");
  if (found.member.length === 0) throw new ApiError("CONVERSATION_NOT_FOUND");
}

/**
 * POST /inbox/{user_id}/read: marks read every message to the caller in it, recounts their `inbox_unread` from the
 * rows as marked, and lets the next message mail again. One batch: without a conversation its writes change nothing.
 * When it marked any, the caller's sockets get their new `inbox_unread` (docs/events.md#private-messages).
 */
export async function readConversation(
  db: Db,
  view: View,
  caller: CallerId,
  otherId: number,
  include: Set<ConversationInclude>,
): Promise<Conversation> {
  const { user, records } = conversationRead(db, view, caller, otherId, include);
  const found = await batch(db, {
    writes: [
      markRead(db, caller.user_id, otherId, now()),
      resetMail(db, caller.user_id, otherId),
      recountInbox(db, caller.user_id),
    ],
    user,
    records,
  });
  // The caller's record of the conversation is its member row: none when there is no conversation.
  assertFound({ user: found.user, member: found.records });
  const [conversation] = found.records;
  if (!conversation) throw new ApiError("CONVERSATION_NOT_FOUND");
  if (changedRows([found.writes[0]]) > 0) emit(db, "unread.updated", { users: [caller.user_id] });
  return conversation;
}

/**
 * DELETE /inbox/{user_id}: the conversation leaves the caller's inbox with its messages so far, its unread ones stop
 * counting (the caller's sockets get their `inbox_unread`); the other member keeps theirs, and a new message brings it
 * back with only what follows.
 */
export async function removeFromInbox(db: Db, caller: CallerId, otherId: number): Promise<void> {
  const found = await batch(db, {
    writes: [removeConversation(db, caller.user_id, otherId, now()), recountInbox(db, caller.user_id)],
    user: selectUserId(db, otherId),
    member: selectMember(db, caller.user_id, otherId),
  });
  assertFound(found);
  emit(db, "unread.updated", { users: [caller.user_id] });
}

/**
 * DELETE /messages/{message_id}: the sender withdraws their message under the site's rule
 * (`message_can_delete`, `message_can_delete_before`); administrators delete any. A message the caller is no party
 * to does not exist for them (209001), as for the receiver, who may not withdraw it (209009). An unread one leaves the
 * receiver's `inbox_unread`, which their sockets get.
 */
export async function withdrawMessage(db: Db, view: View, caller: CallerId, id: number): Promise<void> {
  const [message] = await batch(db, selectMessage(db, id));
  const party = message && (message.user_id === caller.user_id || message.receiver_id === caller.user_id);
  if (!message || (!party && !view.isAdmin)) throw new ApiError("MESSAGE_NOT_FOUND");
  assertAuthorMay("message", "delete", message, caller, view.options, now());
  await commit(db, [...deleteMessage(db, id), recountInbox(db, message.receiver_id)]);
  if (message.read_time === 0) emit(db, "unread.updated", { users: [message.receiver_id] });
}

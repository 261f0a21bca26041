/**
 * Sending a private message (docs/messages.md#sending): one read batch with every check, one write batch with the
 * message, both inboxes, the receiver's unread count and the mail claim, then its events (to the two members' sockets
 * only: docs/events.md#private-messages) and the mail after the answer.
 */
import { createdContent } from "../../behaviours/content/body";
import { recordsByIds } from "../../behaviours/content/page";
import { newestOf } from "../../behaviours/content/repo";
import { mentionMap, mentionSource, selectMentionable } from "../../behaviours/mentionable";
import { type CallerId, isAdmin } from "../../core/caller";
import { ApiError } from "../../core/errors";
import { batch, type Db } from "../../db/client";
import { entities } from "../../domain/entities";
import { HOUR, sendRefusal } from "../../domain/inbox-rules";
import { parseBody } from "../../http/late-body";
import type { View } from "../../http/view";
import { type MailOptions, mailConfigured, newMessageMail, sendMailAfter } from "../../lib/mail";
import { now } from "../../lib/time";
import { emit } from "../events/outbox";
import { messageRecords } from "./records";
import {
  claimMail,
  insertMessage,
  messagesById,
  recountInbox,
  sendChecks,
  startConversation,
  startedConversation,
  touchMembers,
} from "./repo";
import { type Message, MessageBody, type MessageInclude } from "./schema";

/** Work after the answer (`waitUntil`), the host mail is sent from, and the mail settings once they are loaded. */
export interface Background {
  waitUntil(work: Promise<unknown>): void;
  host: string;
  mailOptions(): MailOptions;
}

/**
 * POST /inbox/{user_id}. Checked in this order: oneself (209002), the receiver exists (201003), then who may write
 * (domain/inbox-rules.ts: 209004, 209005, 209003, 209006), then the body (200001), as an answer's.
 */
export async function sendMessage(
  db: Db,
  view: View,
  sender: CallerId,
  receiverId: number,
  raw: unknown,
  include: Set<MessageInclude>,
  background: Background,
): Promise<Message> {
  if (receiverId === sender.user_id) throw new ApiError("CANNOT_MESSAGE_YOURSELF");
  const time = now();
  const checked = await batch(db, {
    receiver: sendChecks(db, sender.user_id, receiverId, time - HOUR),
    members: selectMentionable(db, mentionSource(raw)),
  });
  const [receiver] = checked.receiver;
  if (!receiver) throw new ApiError("USER_NOT_FOUND");
  const refusal = sendRefusal(isAdmin(sender), receiver);
  if (refusal === "INBOX_NEW_CONVERSATIONS_LIMIT") {
    // The oldest of the hour's conversations leaves the count first.
    const retry = Math.max(1, (receiver.first_started ?? time) + HOUR - time);
    throw new ApiError(refusal, { headers: { "Retry-After": String(retry) } });
  }
  if (refusal) throw new ApiError(refusal);
  // Mentions are linked and notify nobody: a message is private to its two parties (docs/mentions.md#in-messages).
  const { content } = createdContent(parseBody(MessageBody, raw), [], mentionMap(checked.members));
  // A mail is claimed only when it can go out: claimed in vain, it would hold back the next one.
  const mailOptions = background.mailOptions();
  const mails = Boolean(receiver.inbox_email) && mailConfigured(mailOptions);

  const conversation = receiver.conversation_id ?? startedConversation(db, sender.user_id);
  const written = await batch(db, {
    started: receiver.conversation_id === null ? startConversation(db, sender.user_id, receiverId, time) : null,
    members: touchMembers(db, sender.user_id, receiverId, conversation, time),
    inserted: insertMessage(db, sender.user_id, receiverId, content, time),
    unread: recountInbox(db, receiverId),
    mail: mails ? claimMail(db, receiverId, sender.user_id, time) : null,
    records: recordsByIds(
      db,
      view,
      messageRecords,
      messagesById,
      newestOf(db, entities.message, sender.user_id),
      include,
    ),
  });
  const [message] = written.records;
  if (!message) throw new Error("a message insert wrote no row");
  emit(db, "message.created", { ids: [message.message_id] });
  emit(db, "unread.updated", { users: [receiverId] });
  if (written.mail?.length) {
    const mail = {
      to: receiver.email,
      ...newMessageMail(mailOptions.site_name, receiver.username, receiver.sender_name),
    };
    // After the answer, and never failing it; the log names the user, never an address or the text
    // (docs/messages.md#mail).
    sendMailAfter(background.waitUntil, mailOptions, background.host, mail, `new-message mail to user ${receiverId}`);
  }
  return message;
}

import type { Records } from "../../behaviours/content/page";
import { authorRelation, includedRelations } from "../../behaviours/content/relations";
import { conversation_members, messages } from "../../db/schema";
import type { ConversationRow, MessageRow } from "./repo";
import {
  CONVERSATION_INCLUDES,
  type Conversation,
  type ConversationInclude,
  ConversationSchema,
  MESSAGE_INCLUDES,
  type Message,
  type MessageInclude,
  MessageSchema,
} from "./schema";

/** The record with its relationships, when `include` asked for any (the rows are the batch's own objects). */
const withRelationships = <T extends object>(record: T, relationships: Record<string, unknown> | undefined): T =>
  relationships ? Object.assign(record, { relationships }) : record;

export const messageRecords: Records<MessageRow, Message, MessageInclude> = {
  includes: MESSAGE_INCLUDES,
  schema: MessageSchema,
  relation: (_db, view, include) =>
    includedRelations(include, () => [
      include.has("sender") && authorRelation(view, messages.sender_id, "sender"),
      include.has("receiver") && authorRelation(view, messages.receiver_id, "receiver"),
    ]),
  present: () => (row, relationships) => withRelationships(row, relationships) as Message,
};

type LastMessage = [number, number, number, string, string, number, number];

/** The latest message, selected as a JSON array of the message columns in their order. */
function lastMessageOf(json: string | null): Conversation["last_message"] {
  if (json === null) return null;
  const [message_id, sender_id, receiver_id, content_markdown, content_rendered, create_time, read_time] = JSON.parse(
    json,
  ) as LastMessage;
  return { message_id, sender_id, receiver_id, content_markdown, content_rendered, create_time, read_time };
}

export const conversationRecords: Records<ConversationRow, Conversation, ConversationInclude> = {
  includes: CONVERSATION_INCLUDES,
  schema: ConversationSchema,
  relation: (_db, view, include) =>
    includedRelations(include, () => [include.has("user") && authorRelation(view, conversation_members.other_user_id)]),
  present: () => (row, relationships) =>
    withRelationships(
      {
        conversation_id: row.conversation_id,
        user_id: row.user_id,
        unread_count: row.unread_count,
        update_time: row.update_time,
        last_message: lastMessageOf(row.last_message),
      },
      relationships,
    ),
};

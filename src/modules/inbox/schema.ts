/**
 * Zod schemas of the inbox routes (docs/messages.md#records): the Message record, the Conversation record of the
 * inbox list, a message's body, and the queries. Nothing here is a spec record: every field is an addition.
 */
import { contentFields, UserSummarySchema } from "../../behaviours/content/schema";
import { includeQuery, pageQuery, relationships, z } from "../../http/openapi";

const int = () => z.number().int();

export const MESSAGE_INCLUDES = ["sender", "receiver"] as const;
export type MessageInclude = (typeof MESSAGE_INCLUDES)[number];

export const CONVERSATION_INCLUDES = ["user"] as const;
export type ConversationInclude = (typeof CONVERSATION_INCLUDES)[number];

/** A message's own fields, as the inbox list shows the latest one. */
const messageFields = {
  message_id: int(),
  sender_id: int(),
  receiver_id: int(),
  content_markdown: z.string(),
  content_rendered: z.string().openapi({ description: "rendered and sanitised as an answer's" }),
  create_time: int(),
  read_time: int().openapi({ description: "0 until the receiver marks the conversation read" }),
};

export const MessageSchema = z
  .object({
    ...messageFields,
    relationships: relationships({
      sender: UserSummarySchema.nullable().optional(),
      receiver: UserSummarySchema.nullable().optional(),
    }),
  })
  .openapi("Message");

export type Message = z.infer<typeof MessageSchema>;

/** What an administrator reads of a reported message (docs/messages.md#moderation): no read state. */
export const MessageSummarySchema = z
  .object({
    message_id: int(),
    sender_id: int(),
    receiver_id: int(),
    content_markdown: z.string(),
    content_rendered: z.string(),
    create_time: int(),
  })
  .openapi("MessageSummary");

export const ConversationSchema = z
  .object({
    conversation_id: int(),
    user_id: int().openapi({ description: "the other member" }),
    unread_count: int().openapi({ description: "the messages to the caller in it that are unread" }),
    update_time: int().openapi({ description: "the time of its latest message" }),
    last_message: z
      .object(messageFields)
      .nullable()
      .openapi({ description: "the latest message still in the caller's inbox; null once it was withdrawn" }),
    relationships: relationships({
      user: UserSummarySchema.nullable().optional().openapi({ description: "the other member's summary" }),
    }),
  })
  .openapi("Conversation");

export type Conversation = z.infer<typeof ConversationSchema>;

export const MessageBody = z.object(contentFields).openapi("MessageContent", {
  description: "As an answer's: only one of the two needs to be sent; when both are, content_markdown is used.",
});

export const MessageIncludeQuery = z.object({ include: includeQuery(MESSAGE_INCLUDES) });
export const MessagePageQuery = z.object({ ...pageQuery, include: includeQuery(MESSAGE_INCLUDES) });
export const ConversationIncludeQuery = z.object({ include: includeQuery(CONVERSATION_INCLUDES) });
export const ConversationPageQuery = z.object({ ...pageQuery, include: includeQuery(CONVERSATION_INCLUDES) });

/**
 * Zod schemas of the notifications routes (spec "Notification", operation 6, "Events";
 * docs/conventions.md#object-shapes, docs/operations.md#notifications): the record with its relationships and the
 * queries (the nine kinds are behaviours/notification-events.ts's).
 */
import { UserSummarySchema } from "../../behaviours/content/schema";
import { NOTIFICATION_TYPES } from "../../behaviours/notification-events";
import { includeQuery, pageQuery, relationships, z } from "../../http/openapi";
import { AnswerSchema } from "../answers/schema";
import { ArticleSchema } from "../articles/schema";
import { CommentSchema } from "../comments/schema";
import { QuestionSchema, QuestionSummarySchema } from "../questions/schema";

export const NOTIFICATION_INCLUDES = [
  "receiver",
  "sender",
  "article",
  "question",
  "answer",
  "comment",
  "reply",
] as const;
export type NotificationInclude = (typeof NOTIFICATION_INCLUDES)[number];

const int = () => z.number().int();

// Unnamed, as in the reports module: the shared summaries are not registered components yet.
const ArticleSummarySchema = z.object({ article_id: int(), title: z.string(), create_time: int(), update_time: int() });
const AnswerSummarySchema = z.object({
  answer_id: int(),
  question_id: int(),
  content_summary: z.string().openapi({ description: "the first 80 characters of the tag-stripped answer" }),
  create_time: int(),
  update_time: int(),
});
const CommentSummarySchema = z.object({
  comment_id: int(),
  content_summary: z.string().openapi({ description: "the first 80 characters of the comment" }),
  create_time: int(),
  update_time: int(),
});

const related = <T extends z.ZodType>(schema: T, what: string) =>
  schema
    .nullable()
    .optional()
    .openapi({ description: `when asked: ${what}; null when its id is 0 or it is missing or trashed` });

const idField = (what: string) => int().openapi({ description: `${what}; 0 when the kind carries none` });

export const NotificationSchema = z
  .object({
    notification_id: int(),
    receiver_id: int(),
    sender_id: int().openapi({ description: "the user whose action caused it" }),
    type: z.enum(NOTIFICATION_TYPES),
    article_id: idField("article"),
    question_id: idField("question"),
    answer_id: idField("answer"),
    comment_id: idField("comment (for comment_replied: the comment replied to)"),
    reply_id: idField("the reply (comment_replied only)"),
    content_deleted: z
      .union([QuestionSchema, ArticleSchema, AnswerSchema, CommentSchema])
      .optional()
      .openapi({
        description:
          "only for the four *_deleted kinds: the item as it was before deletion, in its Question/Article/Answer/" +
          "Comment record shape (delete_time for administrators only, no relationships); other kinds have no such key",
      }),
    create_time: int(),
    read_time: int().openapi({ description: "0 while unread" }),
    webhook_id: int()
      .optional()
      .openapi({ description: "only for webhook_disabled: the endpoint that was stopped (docs/events.md)" }),
    relationships: relationships({
      receiver: related(UserSummarySchema, "the receiver"),
      sender: related(UserSummarySchema, "the sender"),
      article: related(ArticleSummarySchema, "article_id's summary"),
      question: related(QuestionSummarySchema, "question_id's summary"),
      answer: related(AnswerSummarySchema, "answer_id's summary"),
      comment: related(CommentSummarySchema, "comment_id's summary"),
      reply: related(CommentSummarySchema, "reply_id's summary"),
    }).openapi({
      description: "present when `include` asks for any; for a *_deleted kind the deleted item's key is absent",
    }),
  })
  .openapi("Notification");

export type Notification = z.infer<typeof NotificationSchema>;

const typeFilter = z
  .enum(NOTIFICATION_TYPES, { error: `must be one of: ${NOTIFICATION_TYPES.join(", ")}` })
  .optional()
  .openapi({ description: "only this kind (another value: 200001)" });

export const TypeQuery = z.object({ type: typeFilter });

export const NotificationPageQuery = z.object({
  ...pageQuery,
  include: includeQuery(NOTIFICATION_INCLUDES),
  type: typeFilter,
  read: z
    .string()
    .optional()
    .openapi({ description: "`true`: read ones only; any other value: unread ones only; absent: all" }),
});

export const NotificationIncludeQuery = z.object({ include: includeQuery(NOTIFICATION_INCLUDES) });

export const NotificationCountSchema = z.object({
  notification_count: int().openapi({ description: "unread notifications" }),
});

export type NotificationPageQueryInput = z.infer<typeof NotificationPageQuery>;

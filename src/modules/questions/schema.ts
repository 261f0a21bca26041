/** Zod schemas of the questions routes: the Question record (behaviour.md 2.1), bodies (4.6) and list queries. */
import { includeQuery, orderQuery, pageQuery, z } from "../../lib/openapi";
import type { OrderRule } from "../../lib/order";
import { adminOnly, idFilter, TopicSummarySchema, trashedFilter, UserSummarySchema, VotingSchema } from "../topics/schema";

export const QUESTION_INCLUDES = ["user", "topics", "is_following", "voting"] as const;
export type QuestionInclude = (typeof QUESTION_INCLUDES)[number];

export const QuestionSummarySchema = z
  .object({ question_id: z.number().int(), title: z.string(), create_time: z.number().int(), update_time: z.number().int() })
  .openapi("QuestionSummary");

export const QuestionSchema = z
  .object({
    question_id: z.number().int(),
    user_id: z.number().int(),
    title: z.string(),
    content_markdown: z.string(),
    content_rendered: z.string(),
    comment_count: z.number().int(),
    answer_count: z.number().int(),
    follower_count: z.number().int(),
    vote_count: z.number().int(),
    vote_up_count: z.number().int(),
    vote_down_count: z.number().int(),
    last_answer_time: z.number().int(),
    create_time: z.number().int(),
    update_time: z.number().int().openapi({ description: "moved by editing the title or content, and by a new answer" }),
    delete_time: adminOnly(z.number().int()),
    relationships: z
      .object({
        user: UserSummarySchema.nullable().optional(),
        topics: z.array(TopicSummarySchema).optional(),
        is_following: z.boolean().optional(),
        voting: VotingSchema.optional(),
      })
      .optional()
      .openapi({ description: "present when `include` asks for any" }),
  })
  .openapi("Question");

export type Question = z.infer<typeof QuestionSchema>;

/** Content fields: at least one on create; markdown wins when both are sent (spec operation 2, behaviour.md 4.6). */
export const contentFields = {
  content_markdown: z.string({ error: "must be a string" }).optional().openapi({ description: "Markdown; wins over content_rendered" }),
  content_rendered: z.string({ error: "must be a string" }).optional().openapi({ description: "HTML; sanitised and converted to Markdown" }),
};

const title = z
  .string({ error: (issue) => (issue.input === undefined ? "required" : "must be a string") })
  .trim()
  .refine((value) => {
    const length = Array.from(value).length;
    return length >= 2 && length <= 80;
  }, "must be 2 to 80 characters")
  .openapi({ minLength: 2, maxLength: 80 });

export const MAX_TOPICS = 10;

/** 1-10 topic ids, duplicates dropped (first occurrence kept); that each is a live topic is checked against D1. */
const topicIds = z
  .array(z.number({ error: "must hold topic ids" }).int("must hold topic ids").positive("must hold topic ids").max(Number.MAX_SAFE_INTEGER, "must hold topic ids"), {
    error: (issue) => (issue.input === undefined ? "required" : "must be an array of topic ids"),
  })
  .transform((ids) => [...new Set(ids)])
  .refine((ids) => ids.length >= 1 && ids.length <= MAX_TOPICS, `must hold 1 to ${MAX_TOPICS} topics`)
  .openapi({ type: "array", items: { type: "integer", minimum: 1 }, minItems: 1, maxItems: MAX_TOPICS });

export const QuestionCreateBody = z
  .object({ title, ...contentFields, topic_ids: topicIds })
  .openapi("QuestionCreate", { description: "At least one of content_markdown and content_rendered." });

export const QuestionEditBody = z
  .object({ title: title.optional(), ...contentFields, topic_ids: topicIds.optional() })
  .openapi("QuestionEdit", {
    description: "Only the fields sent change. A title or content edit moves update_time; topic_ids replaces the set and does not.",
  });

export type QuestionOrderField = "vote_count" | "create_time" | "update_time" | "delete_time";

/** Every question list: the reference's default is `-update_time` (behaviour.md 3.1, 11.7). */
export const QUESTION_ORDER: OrderRule<QuestionOrderField> = {
  fields: ["vote_count", "create_time", "update_time"],
  adminFields: ["delete_time"],
  default: "-update_time",
};

const include = includeQuery(QUESTION_INCLUDES);

export const QuestionIncludeQuery = z.object({ include });

/** Lists that follow the follow order (newest follow first) take no `order`. */
export const QuestionFollowingQuery = z.object({ ...pageQuery, include });

export const QuestionPageQuery = QuestionFollowingQuery.extend({
  order: orderQuery([...QUESTION_ORDER.fields, ...(QUESTION_ORDER.adminFields ?? [])], QUESTION_ORDER.default),
});

export const QuestionListQuery = QuestionPageQuery.extend({
  question_id: idFilter("only this question"),
  user_id: idFilter("only questions by this user"),
  topic_id: idFilter("only questions in this topic"),
  trashed: trashedFilter,
});

/**
 * Zod schemas of the questions routes: the Question record (docs/conventions.md#object-shapes), bodies
 * (docs/content.md#validation) and list queries.
 */
import {
  adminOnly,
  contentFields,
  IsBookmarkedSchema,
  TopicSummarySchema,
  titleField,
  topicIdsField,
  trashedFilter,
  UserSummarySchema,
  VotingSchema,
} from "../../behaviours/content/schema";
import { idFilter, includeQuery, orderQuery, pageQuery, relationships, z } from "../../http/openapi";
import type { OrderRule } from "../../lib/order";

export const QUESTION_INCLUDES = ["user", "topics", "is_following", "voting", "is_bookmarked"] as const;
export type QuestionInclude = (typeof QUESTION_INCLUDES)[number];

export const QuestionSummarySchema = z
  .object({
    question_id: z.number().int(),
    title: z.string(),
    create_time: z.number().int(),
    update_time: z.number().int(),
  })
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
    update_time: z
      .number()
      .int()
      .openapi({ description: "moved by editing the title or content, and by a new answer" }),
    delete_time: adminOnly(z.number().int()),
    accepted_answer_id: z
      .number()
      .int()
      .openapi({ description: "the live answer its author accepted, 0 for none (an addition to the spec's record)" }),
    relationships: relationships({
      user: UserSummarySchema.nullable().optional(),
      topics: z.array(TopicSummarySchema).optional(),
      is_following: z.boolean().optional(),
      voting: VotingSchema.optional(),
      is_bookmarked: IsBookmarkedSchema,
    }),
  })
  .openapi("Question");

export type Question = z.infer<typeof QuestionSchema>;

/** Spec operation 2, docs/content.md#validation: at least one content field; markdown wins when both are sent. */
export const QuestionCreateBody = z
  .object({ title: titleField, ...contentFields, topic_ids: topicIdsField })
  .openapi("QuestionCreate", { description: "At least one of content_markdown and content_rendered." });

export type QuestionCreate = z.infer<typeof QuestionCreateBody>;

export const QuestionEditBody = z
  .object({ title: titleField.optional(), ...contentFields, topic_ids: topicIdsField.optional() })
  .openapi("QuestionEdit", {
    description:
      "Only the fields sent change. " +
      "A title or content edit moves update_time; topic_ids replaces the set and does not.",
  });

export type QuestionOrderField = "vote_count" | "create_time" | "update_time" | "delete_time";

/**
 * Every question list: the reference's default is `-update_time` (docs/operations.md#questions,
 * docs/decisions.md#default-list-orders).
 */
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
  order: orderQuery(QUESTION_ORDER),
});

export const QuestionListQuery = QuestionPageQuery.extend({
  question_id: idFilter("only this question"),
  user_id: idFilter("only questions by this user"),
  topic_id: idFilter("only questions in this topic"),
  trashed: trashedFilter,
});

/** PUT /questions/{id}/accepted_answer (docs/operations.md#accepted-answer). */
export const AcceptedAnswerBody = z
  .object({
    answer_id: z
      .number({ error: (issue) => (issue.input === undefined ? "required" : "must be an answer id") })
      .int("must be an answer id")
      .positive("must be an answer id"),
  })
  .openapi("AcceptedAnswer", { description: "a live answer to this question" });

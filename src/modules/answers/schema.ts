/** Zod schemas of the answers routes: the Answer record (spec "Answer"), its body and list queries. */
import {
  adminOnly,
  contentFields,
  IsBookmarkedSchema,
  trashedFilter,
  UserSummarySchema,
  VotingSchema,
} from "../../behaviours/content/schema";
import { idFilter, includeQuery, orderQuery, pageQuery, relationships, z } from "../../http/openapi";
import type { OrderRule } from "../../lib/order";
import { QuestionSummarySchema } from "../questions/schema";

export const ANSWER_INCLUDES = ["user", "question", "voting", "is_bookmarked"] as const;
export type AnswerInclude = (typeof ANSWER_INCLUDES)[number];

export const AnswerSchema = z
  .object({
    answer_id: z.number().int(),
    question_id: z.number().int(),
    user_id: z.number().int(),
    content_markdown: z.string(),
    content_rendered: z.string(),
    comment_count: z.number().int(),
    vote_count: z.number().int().openapi({ description: "up votes minus down votes, may be negative" }),
    vote_up_count: z.number().int(),
    vote_down_count: z.number().int(),
    create_time: z.number().int(),
    update_time: z.number().int(),
    delete_time: adminOnly(z.number().int()),
    relationships: relationships({
      user: UserSummarySchema.nullable().optional(),
      question: QuestionSummarySchema.nullable()
        .optional()
        .openapi({ description: "null when the question is trashed" }),
      voting: VotingSchema.optional(),
      is_bookmarked: IsBookmarkedSchema,
    }),
  })
  .openapi("Answer");

export type Answer = z.infer<typeof AnswerSchema>;

export const AnswerBody = z.object(contentFields).openapi("AnswerContent", {
  description:
    "Only one of the two needs to be sent; when both are, content_markdown is used. " +
    "On an edit, neither changes nothing.",
});

export type AnswerOrderField = "vote_count" | "create_time" | "update_time" | "delete_time";

/** Every answer list (docs/operations.md#answers): default `-create_time`. */
export const ANSWER_ORDER: OrderRule<AnswerOrderField> = {
  fields: ["vote_count", "create_time", "update_time"],
  adminFields: ["delete_time"],
  default: "-create_time",
};

/**
 * A question's answers may also put the accepted one first (`-accepted`) or last (`accepted`), the others then in
 * the default order (docs/operations.md#accepted-answer).
 */
export const QUESTION_ANSWER_ORDER: OrderRule<AnswerOrderField | "accepted"> = {
  ...ANSWER_ORDER,
  fields: [...ANSWER_ORDER.fields, "accepted"],
};

const include = includeQuery(ANSWER_INCLUDES);

export const AnswerIncludeQuery = z.object({ include });

export const AnswerPageQuery = z.object({
  ...pageQuery,
  include,
  order: orderQuery(ANSWER_ORDER),
});

export const QuestionAnswerPageQuery = AnswerPageQuery.extend({ order: orderQuery(QUESTION_ANSWER_ORDER) });

export const AnswerListQuery = AnswerPageQuery.extend({
  answer_id: idFilter("only this answer"),
  question_id: idFilter("only answers to this question"),
  user_id: idFilter("only answers by this user"),
  trashed: trashedFilter,
});

/**
 * Zod schemas of the topics routes (behaviour.md 2.1, 3.5) and the pieces every content module shares: image
 * URL sets, the topic summary (spec "Shared sub-objects") and id filters in list queries.
 */
import { includeQuery, orderQuery, pageQuery, z } from "../../lib/openapi";
import type { OrderRule } from "../../lib/order";

export const TOPIC_INCLUDES = ["is_following"] as const;
export type TopicInclude = (typeof TOPIC_INCLUDES)[number];

/** `{original, small, middle, large}`; left unnamed so it cannot clash with the users module's component. */
export const ImageUrlsSchema = z.object({ original: z.string(), small: z.string(), middle: z.string(), large: z.string() });

export const TopicSummarySchema = z
  .object({ topic_id: z.number().int(), name: z.string(), cover: ImageUrlsSchema })
  .openapi("TopicSummary");

/** The spec's user summary, as content relations present their authors. */
export const UserSummarySchema = z
  .object({ user_id: z.number().int(), username: z.string(), headline: z.string(), avatar: ImageUrlsSchema })
  .openapi("UserSummary");

export const VotingSchema = z.enum(["up", "down", ""]).openapi({ description: "the caller's vote: `up`, `down`, or '' (not voted, or anonymous)" });

export const adminOnly = <T extends z.ZodType>(schema: T) =>
  schema.optional().openapi({ description: "restricted: administrators only (0 = live, > 0 = time it was trashed)" });

export const TopicSchema = z
  .object({
    topic_id: z.number().int(),
    name: z.string(),
    cover: ImageUrlsSchema,
    description: z.string(),
    article_count: z.number().int(),
    question_count: z.number().int(),
    follower_count: z.number().int(),
    delete_time: adminOnly(z.number().int()),
    relationships: z
      .object({ is_following: z.boolean().optional().openapi({ description: "the caller follows the topic" }) })
      .optional()
      .openapi({ description: "present when `include` asks for any" }),
  })
  .openapi("Topic");

export type Topic = z.infer<typeof TopicSchema>;

/** A query filter on an id: digits only, like path ids, else 200001 naming the parameter. */
export const idFilter = (description: string) =>
  z
    .string()
    .regex(/^[1-9]\d{0,14}$/, "must be a positive integer")
    .transform(Number)
    .optional()
    .openapi({ type: "integer", description });

export const trashedFilter = z
  .string()
  .optional()
  .openapi({ description: "`true`: only trashed items (administrators only; ignored for others, who never see trashed items)" });

/** Text trimmed, then 1..max characters counted in code points (behaviour.md 3.5). */
const trimmedText = (max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? "required" : "must be a string") })
    .trim()
    .refine((value) => value.length > 0, "must not be empty")
    .refine((value) => Array.from(value).length <= max, `at most ${max} characters`)
    .openapi({ minLength: 1, maxLength: max });

export const TopicCreateBody = z
  .object({ name: trimmedText(20), description: trimmedText(1000) })
  .openapi("TopicCreate", {
    description: "Names are unique case-insensitively among live topics. Cover uploads come with the images work; the default cover is shown.",
  });

export const TopicEditBody = TopicCreateBody.partial().openapi("TopicEdit", { description: "Only the fields sent change." });

export type TopicChanges = z.infer<typeof TopicEditBody>;

const include = includeQuery(TOPIC_INCLUDES);

export const TopicIncludeQuery = z.object({ include });
export const TopicPageQuery = z.object({ ...pageQuery, include });

export type TopicOrderField = "topic_id" | "follower_count" | "delete_time";

/** GET /topics: the reference's default is `topic_id` ascending (behaviour.md 3.5). */
export const TOPIC_ORDER: OrderRule<TopicOrderField> = {
  fields: ["topic_id", "follower_count"],
  adminFields: ["delete_time"],
  default: "topic_id",
};

export const TopicListQuery = TopicPageQuery.extend({
  order: orderQuery([...TOPIC_ORDER.fields, ...(TOPIC_ORDER.adminFields ?? [])], TOPIC_ORDER.default),
  topic_id: idFilter("only this topic"),
  name: z.string().optional().openapi({ description: "exact name, case-insensitive" }),
  trashed: trashedFilter,
});

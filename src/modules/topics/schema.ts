/**
 * Zod schemas of the topics routes (docs/conventions.md#object-shapes, docs/operations.md#topics): the Topic record,
 * its bodies and list queries.
 */
import { adminOnly, trashedFilter } from "../../behaviours/content/schema";
import {
  ImageUrlsSchema,
  idFilter,
  includeQuery,
  orderQuery,
  pageQuery,
  relationships,
  trimmedText,
  z,
} from "../../http/openapi";
import type { OrderRule } from "../../lib/order";

export const TOPIC_INCLUDES = ["is_following"] as const;
export type TopicInclude = (typeof TOPIC_INCLUDES)[number];

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
    relationships: relationships({
      is_following: z.boolean().optional().openapi({ description: "the caller follows the topic" }),
    }),
  })
  .openapi("Topic");

export type Topic = z.infer<typeof TopicSchema>;

export const TopicCreateBody = z
  .object({ name: trimmedText(20), description: trimmedText(1000) })
  .openapi("TopicCreate", {
    description:
      "Names are unique case-insensitively among live topics. " +
      "A cover comes with the multipart form of the same route; without one the default cover is shown.",
  });

export const TopicEditBody = TopicCreateBody.partial().openapi("TopicEdit", {
  description: "Only the fields sent change.",
});

/** `cover`: the stored path of a new cover, set by multipart edits (cover.ts), never by the JSON body. */
export type TopicChanges = z.infer<typeof TopicEditBody> & { cover?: string };

const include = includeQuery(TOPIC_INCLUDES);

export const TopicIncludeQuery = z.object({ include });
export const TopicPageQuery = z.object({ ...pageQuery, include });

export type TopicOrderField = "topic_id" | "follower_count" | "delete_time";

/** GET /topics: the reference's default is `topic_id` ascending (docs/operations.md#topics). */
export const TOPIC_ORDER: OrderRule<TopicOrderField> = {
  fields: ["topic_id", "follower_count"],
  adminFields: ["delete_time"],
  default: "topic_id",
};

export const TopicListQuery = TopicPageQuery.extend({
  order: orderQuery(TOPIC_ORDER),
  topic_id: idFilter("only this topic"),
  name: z.string().optional().openapi({ description: "exact name, case-insensitive" }),
  trashed: trashedFilter,
});

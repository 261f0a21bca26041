/**
 * Zod schemas of articles (spec "Article", docs/operations.md#articles, docs/content.md#validation): the record, its
 * queries and bodies.
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

export const ARTICLE_INCLUDES = ["user", "topics", "is_following", "voting", "is_bookmarked"] as const;
export type ArticleInclude = (typeof ARTICLE_INCLUDES)[number];

const int = () => z.number().int();

export const ArticleSchema = z
  .object({
    article_id: int(),
    user_id: int(),
    title: z.string(),
    content_markdown: z.string(),
    content_rendered: z.string().openapi({ description: "HTML rendered from content_markdown, sanitised" }),
    comment_count: int(),
    follower_count: int(),
    vote_count: int(),
    vote_up_count: int(),
    vote_down_count: int(),
    create_time: int(),
    update_time: int().openapi({ description: "moved by edits of the title or content only" }),
    delete_time: adminOnly(int()),
    relationships: relationships({
      user: UserSummarySchema.nullable().optional(),
      topics: z
        .array(TopicSummarySchema)
        .optional()
        .openapi({ description: "live topics, in the order they were attached" }),
      is_following: z
        .boolean()
        .optional()
        .openapi({ description: "the caller follows the article (false for anonymous callers)" }),
      voting: VotingSchema.optional(),
      is_bookmarked: IsBookmarkedSchema,
    }),
  })
  .openapi("Article");

export type Article = z.infer<typeof ArticleSchema>;

export type ArticleOrderField = "vote_count" | "create_time" | "update_time" | "delete_time";

/** Every article list (docs/operations.md#articles; spec operation 8). */
export const ARTICLE_ORDER: OrderRule<ArticleOrderField> = {
  fields: ["vote_count", "create_time", "update_time"],
  adminFields: ["delete_time"],
  default: "-create_time",
};

const include = includeQuery(ARTICLE_INCLUDES);

export const ArticleIncludeQuery = z.object({ include });

export const ArticlePageQuery = z.object({
  ...pageQuery,
  include,
  order: orderQuery(ARTICLE_ORDER),
});

export const ArticleListQuery = ArticlePageQuery.extend({
  article_id: idFilter("only this article"),
  user_id: idFilter("only articles by this user"),
  topic_id: idFilter("only articles in this topic"),
  trashed: trashedFilter,
});

/** The following lists are newest follow first: no `order`. */
export const FollowingPageQuery = z.object({ ...pageQuery, include });

export const ArticleCreateBody = z
  .object({ title: titleField, ...contentFields, topic_ids: topicIdsField })
  .openapi("ArticleCreate", {
    description: "At least one of content_markdown and content_rendered must hold content.",
  });

export type ArticleCreate = z.infer<typeof ArticleCreateBody>;

export const ArticleEditBody = z
  .object({ title: titleField.optional(), ...contentFields, topic_ids: topicIdsField.optional() })
  .openapi("ArticleEdit", { description: "Only the fields sent change; topic_ids replaces the whole set." });

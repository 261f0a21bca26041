/** Zod schemas of articles (spec "Article", behaviour.md 3.3 and 4.6): the record, its queries and bodies. */
import { includeQuery, orderQuery, pageQuery, z } from "../../lib/openapi";
import type { OrderRule } from "../../lib/order";
import { adminOnly, idFilter, TopicSummarySchema, trashedFilter, UserSummarySchema, VotingSchema } from "../topics/schema";

export const ARTICLE_INCLUDES = ["user", "topics", "is_following", "voting"] as const;
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
    relationships: z
      .object({
        user: UserSummarySchema.nullable().optional(),
        topics: z.array(TopicSummarySchema).optional().openapi({ description: "live topics, in the order they were attached" }),
        is_following: z.boolean().optional().openapi({ description: "the caller follows the article (false for anonymous callers)" }),
        voting: VotingSchema.optional(),
      })
      .optional()
      .openapi({ description: "present when `include` asks for any" }),
  })
  .openapi("Article");

export type Article = z.infer<typeof ArticleSchema>;

export type ArticleOrderField = "vote_count" | "create_time" | "update_time" | "delete_time";

/** Every article list (behaviour.md 3.3; spec operation 8). */
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
  order: orderQuery([...ARTICLE_ORDER.fields, "delete_time (administrators)"], ARTICLE_ORDER.default),
});

export const ArticleListQuery = ArticlePageQuery.extend({
  article_id: idFilter("only this article"),
  user_id: idFilter("only articles by this user"),
  topic_id: idFilter("only articles in this topic"),
  trashed: trashedFilter,
});

/** The following lists are newest follow first: no `order`. */
export const FollowingPageQuery = z.object({ ...pageQuery, include });

/** behaviour.md 4.6: trimmed, 2-80 characters (code points). */
const title = z
  .string({ error: (issue) => (issue.input === undefined ? "required" : "must be a string") })
  .trim()
  .refine((value) => [...value].length >= 2 && [...value].length <= 80, "2 to 80 characters")
  .openapi({ minLength: 2, maxLength: 80 });

const contentField = (description: string) => z.string({ error: "must be a string" }).optional().openapi({ description });

const isTopicId = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value > 0;

/**
 * The topic ids a body names, read before the body is validated, so that an edit can look its topics up in
 * the same round trip as the article (whatever is not a topic id is left for validation to refuse).
 */
export function topicIdsIn(body: unknown): number[] {
  const value = (body as { topic_ids?: unknown } | null)?.topic_ids;
  return Array.isArray(value) ? [...new Set(value.filter(isTopicId))].slice(0, 10) : [];
}

/** 1-10 topic ids after removing repeats (behaviour.md 4.6); every problem is reported on `topic_ids` itself. */
const topicIds = z
  .unknown()
  .transform((value, ctx) => {
    if (!Array.isArray(value) || !value.every(isTopicId)) {
      ctx.addIssue({ code: "custom", message: value === undefined ? "required" : "must be an array of topic ids" });
      return z.NEVER;
    }
    const ids = [...new Set(value)];
    if (ids.length < 1 || ids.length > 10) {
      ctx.addIssue({ code: "custom", message: "1 to 10 topics" });
      return z.NEVER;
    }
    return ids;
  })
  .openapi({ type: "array", items: { type: "integer", minimum: 1 }, minItems: 1, maxItems: 10, description: "existing, live topics; repeats are ignored" });

const content = {
  content_markdown: contentField("Markdown; when both are sent this one is used"),
  content_rendered: contentField("HTML, converted to Markdown when content_markdown is empty"),
};

export const ArticleCreateBody = z
  .object({ title, ...content, topic_ids: topicIds })
  .openapi("ArticleCreate", { description: "At least one of content_markdown and content_rendered must hold content." });

export type ArticleCreate = z.infer<typeof ArticleCreateBody>;

export const ArticleEditBody = z
  .object({ title: title.optional(), ...content, topic_ids: topicIds.optional() })
  .openapi("ArticleEdit", { description: "Only the fields sent change; topic_ids replaces the whole set." });

export type ArticleEdit = z.infer<typeof ArticleEditBody>;

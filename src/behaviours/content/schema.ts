/**
 * Zod pieces every content module shares: the sub-objects relations present (spec "Shared sub-objects"), the
 * caller's vote, the administrators-only trash time and filter, and the body fields of questions and articles
 * (docs/content.md#validation: title, content, topics).
 */
import { ImageUrlsSchema, z } from "../../http/openapi";

export const TopicSummarySchema = z
  .object({ topic_id: z.number().int(), name: z.string(), cover: ImageUrlsSchema })
  .openapi("TopicSummary");

/** The spec's user summary, as content relations present their authors. */
export const UserSummarySchema = z
  .object({ user_id: z.number().int(), username: z.string(), headline: z.string(), avatar: ImageUrlsSchema })
  .openapi("UserSummary");

export const VotingSchema = z
  .enum(["up", "down", ""])
  .openapi({ description: "the caller's vote: `up`, `down`, or '' (not voted, or anonymous)" });

/** `is_bookmarked`: the caller's own bookmark, never anyone else's (docs/operations.md#bookmarks). */
export const IsBookmarkedSchema = z
  .boolean()
  .optional()
  .openapi({ description: "the caller bookmarked it (false for anonymous callers)" });

export const adminOnly = <T extends z.ZodType>(schema: T) =>
  schema.optional().openapi({ description: "restricted: administrators only (0 = live, > 0 = time it was trashed)" });

export const trashedFilter = z.string().optional().openapi({
  description: "`true`: only trashed items (administrators only; ignored for others, who never see trashed items)",
});

/** Content fields: at least one on create (lib/markdown.ts decides); non-blank markdown wins over HTML. */
export const contentFields = {
  content_markdown: z
    .string({ error: "must be a string" })
    .optional()
    .openapi({ description: "Markdown; when both are sent this one is used, unless blank" }),
  content_rendered: z
    .string({ error: "must be a string" })
    .optional()
    .openapi({ description: "HTML, sanitised and converted to Markdown when content_markdown is blank" }),
};

/** A question's or an article's title: trimmed, 2-80 characters (code points). */
export const titleField = z
  .string({ error: (issue) => (issue.input === undefined ? "required" : "must be a string") })
  .trim()
  .refine((value) => [...value].length >= 2 && [...value].length <= 80, "2 to 80 characters")
  .openapi({ minLength: 2, maxLength: 80 });

export const MAX_TOPICS = 10;

export const isTopicId = (value: unknown): value is number =>
  typeof value === "number" && Number.isSafeInteger(value) && value > 0;

/**
 * 1-10 topic ids after removing repeats (first occurrence kept); every problem is reported on `topic_ids`
 * itself. That each is a live topic is checked against D1 (behaviours/content/body.ts).
 */
export const topicIdsField = z
  .unknown()
  .transform((value, ctx) => {
    if (!Array.isArray(value) || !value.every(isTopicId)) {
      ctx.addIssue({ code: "custom", message: value === undefined ? "required" : "must be an array of topic ids" });
      return z.NEVER;
    }
    const ids = [...new Set(value)];
    if (ids.length < 1 || ids.length > MAX_TOPICS) {
      ctx.addIssue({ code: "custom", message: `1 to ${MAX_TOPICS} topics` });
      return z.NEVER;
    }
    return ids;
  })
  .openapi({
    type: "array",
    items: { type: "integer", minimum: 1 },
    minItems: 1,
    maxItems: MAX_TOPICS,
    description: "existing, live topics; repeats are ignored",
  });

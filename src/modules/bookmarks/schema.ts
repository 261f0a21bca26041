/**
 * Zod schemas of the bookmark routes (docs/operations.md#bookmarks): a bookmark, the caller's list of them with each
 * item's record, and its query.
 */
import { BOOKMARKABLE_KINDS } from "../../behaviours/bookmarkable";
import { includeQuery, pageQuery, z } from "../../http/openapi";
import { ANSWER_INCLUDES, AnswerSchema } from "../answers/schema";
import { ARTICLE_INCLUDES, ArticleSchema } from "../articles/schema";
import { QUESTION_INCLUDES, QuestionSchema } from "../questions/schema";

export const BookmarkSchema = z
  .object({
    bookmarkable_type: z.enum(BOOKMARKABLE_KINDS),
    bookmarkable_id: z.number().int(),
    create_time: z.number().int().openapi({ description: "when the caller bookmarked it" }),
  })
  .openapi("Bookmark");

const record = <T extends z.ZodType>(schema: T, type: string) =>
  schema.optional().openapi({ description: `present when bookmarkable_type is ${type}: the ${type}'s record` });

export const BookmarkedItemSchema = BookmarkSchema.extend({
  question: record(QuestionSchema, "question"),
  answer: record(AnswerSchema, "answer"),
  article: record(ArticleSchema, "article"),
}).openapi("BookmarkedItem", {
  description: "a bookmark with the record it names, under the key bookmarkable_type names (the others are absent)",
});

export type BookmarkedItem = z.infer<typeof BookmarkedItemSchema>;

/** Every include name of the kinds bookmarked: each record takes its own and ignores the others. */
export const BOOKMARK_INCLUDES = [...new Set([...QUESTION_INCLUDES, ...ANSWER_INCLUDES, ...ARTICLE_INCLUDES])];

export const BookmarkPageQuery = z.object({
  ...pageQuery,
  include: includeQuery(BOOKMARK_INCLUDES),
  type: z
    .enum(BOOKMARKABLE_KINDS, { error: `one of ${BOOKMARKABLE_KINDS.join(", ")}` })
    .optional()
    .openapi({ description: "only bookmarks of this kind" }),
});

export type BookmarkQuery = z.output<typeof BookmarkPageQuery>;

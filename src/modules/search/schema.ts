/**
 * Zod schemas of the search route (docs/search.md): the query, checked and turned into an FTS5 expression before
 * anything is read, and the records it answers, each of its kind's shape with `relationships.highlight`.
 */
import { SEARCH_KINDS } from "../../behaviours/searchable";
import { includeQuery, pageQuery, z } from "../../http/openapi";
import { MAX_QUERY_LENGTH, MAX_QUERY_TERMS, parseSearchQuery } from "../../lib/search-text";
import { ANSWER_INCLUDES, AnswerSchema } from "../answers/schema";
import { ARTICLE_INCLUDES, ArticleSchema } from "../articles/schema";
import { QUESTION_INCLUDES, QuestionSchema } from "../questions/schema";
import { TOPIC_INCLUDES, TopicSchema } from "../topics/schema";
import { USER_INCLUDES, UserSchema } from "../users/schema";

/** Every include name of the kinds searched: each kind takes its own and ignores the others. */
const SEARCH_INCLUDES = [
  ...new Set([...QUESTION_INCLUDES, ...ANSWER_INCLUDES, ...ARTICLE_INCLUDES, ...TOPIC_INCLUDES, ...USER_INCLUDES]),
];

/**
 * The query with its last word read as the beginning of a word, as if it ended in `*` (a quoted phrase or a `*`
 * term stays as it is): what a user search matches, so that `sam` finds `samwise42` (docs/search.md#finding-members).
 */
const lastWordAsPrefix = (q: string) => (/[^\s"*]$/.test(q.trimEnd()) ? `${q.trimEnd()}*` : q);

export const SearchQuery = z.object({
  q: z
    .string({ error: (issue) => (issue.input === undefined ? "required" : "must be a string") })
    .transform((value, ctx) => {
      const parsed = parseSearchQuery(value);
      if (!parsed.ok) {
        ctx.addIssue({ code: "custom", message: parsed.error });
        return z.NEVER;
      }
      // The query's own rules decide the prefix too: one they refuse leaves the words as they are.
      const prefixed = parseSearchQuery(lastWordAsPrefix(value));
      return { words: parsed.match, prefix: prefixed.ok ? prefixed.match : parsed.match };
    })
    .openapi({
      type: "string",
      example: "全文 search",
      description:
        `What to find: words (every one must match; case and accents are ignored), "quoted phrases" and prefix* ` +
        `terms; Chinese, Japanese and Korean text matches character by character. At most ${MAX_QUERY_LENGTH} ` +
        `characters and ${MAX_QUERY_TERMS} terms. For users the last word is a prefix without its *.`,
    }),
  type: z
    .enum(SEARCH_KINDS, { error: `one of ${SEARCH_KINDS.join(", ")}` })
    .default("question")
    .openapi({ description: "the kind of record to find; default question" }),
  ...pageQuery,
  include: includeQuery(SEARCH_INCLUDES),
});

export type SearchParams = z.output<typeof SearchQuery>;

export const SearchHighlightSchema = z.string().openapi({
  description:
    "a short excerpt of the best matching field as HTML: the text escaped, each match in `<mark>`, no other markup",
  example: "SQLite <mark>全文</mark>检索…",
});

/** The records of every kind searched; which one a page holds is the `type` asked. */
export const SearchResultSchema = z
  .union([QuestionSchema, AnswerSchema, ArticleSchema, TopicSchema, UserSchema])
  .openapi("SearchResult", {
    description: "a record of the kind asked, as its own lists show it, with `relationships.highlight` always present",
  });

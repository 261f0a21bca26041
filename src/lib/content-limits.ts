/**
 * Bounds on the work one content write may cost, whatever its input (docs/content.md#work-bounds): the HTML it renders
 * to, the width of its tables. Both the markdown path (lib/markdown.ts) and the HTML path
 * (lib/html-to-markdown.ts) check them before the expensive step, and refuse with {@link ContentLimitError},
 * which the content pipeline turns into a 200001 naming the content fields.
 */

/**
 * The most HTML (UTF-8 bytes) one content field may render to (docs/content.md#limits). The text alone may be
 * 100 000 code points, but CJK text takes three bytes a character, so it reaches this bound first, at about
 * 85 000 characters.
 */
export const MAX_RENDERED_BYTES = 256 * 1024;

/** The most columns a table may have; real tables have a handful. */
export const MAX_TABLE_COLUMNS = 64;

/**
 * The most cells, padding included, the tables of one content field may have in all: rendering a cell costs
 * a parser about as much as 40 characters of prose, and this leaves room for a table of 10 columns and 500 rows.
 */
export const MAX_TABLE_CELLS = 6_000;

/** Content refused by a bound, with the message the client sees on the content fields. */
export class ContentLimitError extends Error {
  override readonly name = "ContentLimitError";
}

/**
 * Bounds on the work one content write may cost, whatever its input (README, Security): the HTML it renders
 * to, the width of its tables. Both the markdown path (lib/markdown.ts) and the HTML path
 * (lib/html-to-markdown.ts) check them before the expensive step, and refuse with {@link ContentLimitError},
 * which the content pipeline turns into a 200001 naming the content fields.
 */

/** The most HTML one content field may render to. */
export const MAX_RENDERED_BYTES = 256 * 1024;

/** The most columns a table may have; real tables have a handful. */
export const MAX_TABLE_COLUMNS = 64;

/** Content refused by a bound, with the message the client sees on the content fields. */
export class ContentLimitError extends Error {
  override readonly name = "ContentLimitError";
}

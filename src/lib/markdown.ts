/**
 * The content pipeline of questions, answers and articles (docs/content.md#validation, docs/decisions.md#content):
 * markdown is the source of truth and content_rendered is always rendered from it, so the two agree.
 */
import { compile, parse, postprocess, preprocess } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";
import { ContentLimitError, MAX_RENDERED_BYTES } from "./content-limits";
import { htmlToMarkdown } from "./html-to-markdown";
import { markdownWorkRefusal, renderedTooLarge, utf8Length } from "./markdown-bounds";
import { isSafeUrl, MarkupScrubber, sanitizeWithText } from "./sanitize";

const extensions = [gfm()];
const htmlExtensions = [gfmHtml()];

type Events = ReturnType<typeof postprocess>;

/**
 * Every parse, the scrub's later passes included (escaping `<` as `&lt;` makes the text longer), is of a source
 * that passed the bounds of lib/markdown-bounds.ts.
 * @throws ContentLimitError for a source over them.
 */
function parseMarkdown(markdown: string): Events {
  const tooMuchWork = markdownWorkRefusal(markdown);
  if (tooMuchWork) throw new ContentLimitError(tooMuchWork);
  return postprocess(
    parse({ extensions })
      .document()
      .write(preprocess()(markdown, undefined, true)),
  );
}

/**
 * micromark escapes raw HTML (allowDangerousHtml is off) and empties links with unsafe protocols; the allow-list
 * pass after it is the second line of defence the reference lacked (docs/decisions.md#rendered-html-is-sanitised), and
 * adds rel to external links.
 */
function renderEvents(events: Events): { html: string; text: string } {
  return sanitizeWithText(compile({ htmlExtensions })(events));
}

/** Markdown with GFM (tables, strikethrough, autolinks, task lists) to safe HTML. */
export function renderMarkdown(markdown: string): string {
  return renderEvents(parseMarkdown(markdown)).html;
}

/** Tokens {@link scrubOnce} rewrites or keeps whole; between them it only escapes ({@link MARKUP_START}). */
const SCRUBBED = new Set([
  "codeFenced",
  "codeIndented",
  "codeText",
  "htmlFlow",
  "htmlText",
  "autolink",
  "resourceDestination",
  "definitionDestination",
]);

/**
 * In the text between the tokens {@link scrubOnce} rewrites, micromark reads every `<` as text, but a browser,
 * or a renderer laxer than CommonMark about what a tag is, would read one before a letter, `/`, `!` or `?` as
 * markup (`<img/src=x/onerror=…>`). Those that no backslash escapes are written `&lt;`, which renders the same.
 * The alternation consumes backslash escapes first, so `\<` is seen as escaped and `\\<` is not.
 */
const MARKUP_START = /\\[\s\S]|<(?=[a-zA-Z/!?])/g;

function escapeMarkupStarts(text: string): string {
  return text.replace(MARKUP_START, (match) => (match === "<" ? "&lt;" : match));
}

/** A link destination's URL: without the `<>` it may be written in, backslash escapes resolved. */
function destinationUrl(source: string): string {
  const url = source.startsWith("<") ? source.slice(1, -1) : source;
  return url.replace(/\\([!-/:-@[-`{-~])/g, "$1");
}

/**
 * One rewrite of the source as micromark reads it: code stays byte for byte; raw HTML, block or inline, goes
 * through the allow-list tag by tag; an unsafe link or image destination becomes `#`, and an unsafe autolink
 * becomes text by escaping its `<`; other text only has its markup-like `<` escaped ({@link MARKUP_START}).
 */
function scrubOnce(markdown: string, events: Events): string {
  const html = new MarkupScrubber();
  let out = "";
  let cursor = 0;
  for (const [kind, token] of events) {
    const start = token.start.offset;
    // Tokens inside a rewritten one are done with it.
    if (kind !== "enter" || start < cursor || !SCRUBBED.has(token.type)) continue;
    out += html.keep(escapeMarkupStarts(markdown.slice(cursor, start)));
    cursor = token.end.offset;
    const source = markdown.slice(start, cursor);
    if (token.type === "htmlFlow" || token.type === "htmlText") out += html.scrub(source);
    else if (token.type === "autolink") out += html.keep(isSafeUrl(source.slice(1, -1)) ? source : `\\${source}`);
    else if (token.type.endsWith("Destination")) out += html.keep(isSafeUrl(destinationUrl(source)) ? source : "#");
    else out += html.keep(source);
  }
  return out + html.keep(escapeMarkupStarts(markdown.slice(cursor)));
}

/**
 * Passes allowed for {@link scrub} to settle, each on a fresh parse. Ordinary content settles in one (nothing to
 * change) or two; more are needed only where a removal changes how the text around it parses.
 */
const MAX_PASSES = 3;

/**
 * The markdown source made safe for clients that render it with raw HTML enabled, as the reference's purifier
 * made it (docs/content.md#validation), with its parse. Outside code, raw HTML keeps only allowed tags and attributes
 * and safe URLs, and link destinations only safe URLs; code and all other markdown stay as written. A removal can
 * change how the rest parses (code may stop being code, text may join into a tag), so the result is parsed again
 * until a pass changes nothing: safety is then a property of the stored text as a renderer reads it, and
 * scrubbing is idempotent. Text that has not settled after {@link MAX_PASSES} is stored as one code block.
 */
function scrub(markdown: string): { markdown: string; events: Events } {
  let events = parseMarkdown(markdown);
  for (let pass = 1; ; pass++) {
    const next = scrubOnce(markdown, events);
    if (next === markdown) return { markdown, events };
    if (pass === MAX_PASSES) return asCodeBlock(next);
    markdown = next;
    events = parseMarkdown(markdown);
  }
}

/** Text as a fenced code block: the fence is longer than any backtick run in it, so nothing inside closes it. */
function asCodeBlock(text: string): { markdown: string; events: Events } {
  let longest = 2;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = "`".repeat(longest + 1);
  const markdown = `${fence}\n${text}\n${fence}`;
  return { markdown, events: parseMarkdown(markdown) };
}

/** See {@link scrub}. */
export function scrubMarkdownSource(markdown: string): string {
  return scrub(markdown).markdown;
}

/** docs/content.md#validation: the tag-stripped rendered text may hold at most this many characters. */
export const CONTENT_MAX_LENGTH = 100_000;

export interface Content {
  content_markdown: string;
  content_rendered: string;
}

export type ContentResult = { ok: true; content: Content } | { ok: false; errors: Record<keyof Content, string> };

function failure(message: string): ContentResult {
  return { ok: false, errors: { content_markdown: message, content_rendered: message } };
}

/**
 * The content fields of a create or edit, as docs/content.md#validation has them: non-blank markdown wins; else the
 * HTML is sanitised and converted to markdown. The markdown is stored scrubbed ({@link scrubMarkdownSource}),
 * and content_rendered is rendered from the scrubbed markdown either way. Content that is blank, or renders to
 * nothing, or whose text is over {@link CONTENT_MAX_LENGTH} characters, or that is over a bound on the work it
 * costs (lib/markdown-bounds.ts, lib/content-limits.ts), fails on both fields (200001).
 */
export function processContent(input: {
  content_markdown?: string | null;
  content_rendered?: string | null;
}): ContentResult {
  try {
    return processBounded(input.content_markdown ?? "", input.content_rendered ?? "");
  } catch (error) {
    // A bound of either path (lib/markdown-bounds.ts, lib/html-to-markdown.ts), decided before the work it bounds.
    if (error instanceof ContentLimitError) return failure(error.message);
    throw error;
  }
}

function processBounded(markdown: string, rendered: string): ContentResult {
  const source = markdown.trim() ? markdown : rendered.trim() ? htmlToMarkdown(rendered) : "";
  // Rendered from the scrub's own parse of the stored text: one parse for content with nothing to scrub.
  const { markdown: content_markdown, events } = scrub(source);
  // The HTML and its text come from one parse of the rendered HTML.
  const { html: content_rendered, text } = renderEvents(events);
  if (!content_rendered.trim()) return failure("Content must not be empty");
  // The estimate before parsing leaves out the tags; this is the bound itself.
  if (utf8Length(content_rendered) > MAX_RENDERED_BYTES) return failure(renderedTooLarge());
  // Counted in code points, as the reference counts multibyte text.
  if (Array.from(text).length > CONTENT_MAX_LENGTH) {
    return failure(`Content must be at most ${CONTENT_MAX_LENGTH} characters`);
  }
  return { ok: true, content: { content_markdown, content_rendered } };
}

/**
 * The content pipeline of questions, answers and articles (docs/content.md#validation, docs/decisions.md#content):
 * markdown is the source of truth and content_rendered is always rendered from it, so the two agree.
 */
import { ContentLimitError, MAX_RENDERED_BYTES } from "./content-limits";
import { htmlToMarkdown } from "./html-to-markdown";
import { MARKUP_START, markdownWorkRefusal, renderedTooLarge } from "./markdown-bounds";
import { normaliseSource, type ParsedMarkdown, parseMarkdown } from "./markdown-parser";
import { renderTokens } from "./markdown-render";
import { MarkupScrubber } from "./markup-scrubber";
import type { MentionMap } from "./mentions";
import { isSafeUrl } from "./safe-url";
import { codePointLength, utf8Length } from "./text-length";

/**
 * Every parse, the scrub's later passes included (escaping `<` as `&lt;` makes the text longer), is of a source
 * that passed the bounds of lib/markdown-bounds.ts.
 * @throws ContentLimitError for a source over them.
 */
function parseBounded(markdown: string): ParsedMarkdown {
  const tooMuchWork = markdownWorkRefusal(markdown);
  if (tooMuchWork) throw new ContentLimitError(tooMuchWork);
  return parseMarkdown(markdown);
}

/** Markdown with GFM (tables, strikethrough, autolinks, task lists, footnotes) to safe HTML. */
export function renderMarkdown(markdown: string): string {
  return renderTokens(parseBounded(normaliseSource(markdown))).html;
}

/**
 * In the text between the spans {@link scrubOnce} rewrites, the parser reads every `<` as text, but a browser or a
 * lax renderer reads a {@link MARKUP_START} as markup. Those that no backslash escapes are written `&lt;`, which
 * renders the same. The alternation consumes backslash escapes first, so `\<` is seen as escaped and `\\<` is not.
 */
const ESCAPE_OR_MARKUP_START = new RegExp(String.raw`\\[\s\S]|${MARKUP_START.source}`, "g");

function escapeMarkupStarts(text: string): string {
  return text.replace(ESCAPE_OR_MARKUP_START, (match) => (match === "<" ? "&lt;" : match));
}

/**
 * A safe destination as it is kept: as written, unless a lax renderer would read a tag in it, in angle brackets
 * (`[a]: <script>`) or not (`[a]: a<i` before a line `onclick=x>`). That one is written bare instead, with spaces,
 * controls, parentheses and angle brackets percent-encoded and `&` and `\` escaped: the same URL.
 */
function destination(text: string, url: string): string {
  if (!MARKUP_START.test(text)) return text;
  return url.replace(/[\0- ()<>\\&\x7f]/g, (c) => (c === "&" || c === "\\" ? `\\${c}` : encodeURIComponent(c)));
}

/**
 * One rewrite of the source as the parser reads it: code stays byte for byte; raw HTML, block or inline, goes
 * through the allow-list tag by tag; an unsafe link or image destination becomes `#` (and a safe one that looks
 * like a tag is written bare), and an unsafe autolink becomes text by escaping its `<`; other text only has its
 * markup-like `<` escaped ({@link ESCAPE_OR_MARKUP_START}).
 */
function scrubOnce({ source, spans }: ParsedMarkdown): string {
  const html = new MarkupScrubber();
  let out = "";
  let cursor = 0;
  for (const span of spans) {
    // Spans inside a rewritten one are done with it.
    if (span.start < cursor) continue;
    out += html.keep(escapeMarkupStarts(source.slice(cursor, span.start)));
    cursor = span.end;
    const text = source.slice(span.start, span.end);
    if (span.kind === "html") out += html.scrub(text);
    else if (span.kind === "autolink") out += html.keep(isSafeUrl(span.url) ? text : `\\${text}`);
    else if (span.kind === "destination") out += html.keep(isSafeUrl(span.url) ? destination(text, span.url) : "#");
    else out += html.keep(text);
  }
  return out + html.keep(escapeMarkupStarts(source.slice(cursor)));
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
 * scrubbing is idempotent. Text that has not settled after {@link MAX_PASSES}, or in which the parser found a
 * construct it could not place in the source, is stored as one code block.
 */
function scrub(markdown: string): ParsedMarkdown {
  let parsed = parseBounded(normaliseSource(markdown));
  for (let pass = 1; parsed.placed; pass++) {
    const next = scrubOnce(parsed);
    if (next === parsed.source) return parsed;
    if (pass === MAX_PASSES) return asCodeBlock(next);
    parsed = parseBounded(next);
  }
  return asCodeBlock(parsed.source);
}

/** Text as a fenced code block: the fence is longer than any backtick run in it, so nothing inside closes it. */
function asCodeBlock(text: string): ParsedMarkdown {
  let longest = 2;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = "`".repeat(longest + 1);
  return parseBounded(`${fence}\n${text}\n${fence}`);
}

/** See {@link scrub}. */
export function scrubMarkdownSource(markdown: string): string {
  return scrub(markdown).source;
}

/** docs/content.md#validation: the tag-stripped rendered text may hold at most this many characters. */
export const CONTENT_MAX_LENGTH = 100_000;

export interface Content {
  content_markdown: string;
  content_rendered: string;
}

/** A content that passed, and, when a map of members was passed in, those it mentions (docs/mentions.md). */
export type ContentResult =
  | { ok: true; content: Content; mentioned?: number[] }
  | { ok: false; errors: Record<keyof Content, string> };

function failure(message: string): ContentResult {
  return { ok: false, errors: { content_markdown: message, content_rendered: message } };
}

/**
 * The content fields of a create or edit, as docs/content.md#validation has them: non-blank markdown wins; else the
 * HTML is sanitised and converted to markdown. The markdown is stored scrubbed ({@link scrubMarkdownSource}),
 * and content_rendered is rendered from the scrubbed markdown either way. Content that is blank, or renders to
 * nothing, or whose text is over {@link CONTENT_MAX_LENGTH} characters, or that is over a bound on the work it
 * costs (lib/markdown-bounds.ts, lib/content-limits.ts), fails on both fields (200001). Mentions of `members` become
 * links to them (docs/mentions.md).
 */
export function processContent(
  input: {
    content_markdown?: string | null;
    content_rendered?: string | null;
  },
  members?: MentionMap,
): ContentResult {
  try {
    return processBounded(input.content_markdown ?? "", input.content_rendered ?? "", members);
  } catch (error) {
    // A bound of either path (lib/markdown-bounds.ts, lib/html-to-markdown.ts), decided before the work it bounds.
    if (error instanceof ContentLimitError) return failure(error.message);
    throw error;
  }
}

function processBounded(markdown: string, rendered: string, members: MentionMap | undefined): ContentResult {
  const source = markdown.trim() ? markdown : rendered.trim() ? htmlToMarkdown(rendered) : "";
  // Rendered from the scrub's own parse of the stored text: one parse for content with nothing to scrub.
  const parsed = scrub(source);
  const content_markdown = parsed.source;
  const { html: content_rendered, text, mentioned } = renderTokens(parsed, members);
  if (!content_rendered.trim()) return failure("Content must not be empty");
  // The estimate before parsing leaves out the tags; this is the bound itself.
  if (utf8Length(content_rendered) > MAX_RENDERED_BYTES) return failure(renderedTooLarge());
  // Counted in code points, as the reference counts multibyte text.
  if (codePointLength(text) > CONTENT_MAX_LENGTH) {
    return failure(`Content must be at most ${CONTENT_MAX_LENGTH} characters`);
  }
  return { ok: true, content: { content_markdown, content_rendered }, ...(members && { mentioned }) };
}

/**
 * The content pipeline of questions, answers and articles (behaviour.md 4.6, DECISIONS.md "Content"):
 * markdown is the source of truth and content_rendered is always rendered from it, so the two agree.
 */
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";
import { htmlToMarkdown } from "./html-to-markdown";
import { sanitizeHtml, stripTags } from "./sanitize";

const extensions = [gfm()];
const htmlExtensions = [gfmHtml()];

/**
 * Markdown with GFM (tables, strikethrough, autolinks, task lists) to safe HTML. micromark escapes raw HTML
 * (allowDangerousHtml is off) and empties links with unsafe protocols; the allow-list pass after it is the
 * second line of defence the reference lacked (behaviour.md 11.31), and adds rel to external links.
 */
export function renderMarkdown(markdown: string): string {
  return sanitizeHtml(micromark(markdown, { extensions, htmlExtensions }));
}

/** behaviour.md 4.6: the tag-stripped rendered text may hold at most this many characters. */
export const CONTENT_MAX_LENGTH = 100_000;

export interface Content {
  content_markdown: string;
  content_rendered: string;
}

export type ContentResult =
  | { ok: true; content: Content }
  | { ok: false; errors: Record<keyof Content, string> };

function failure(message: string): ContentResult {
  return { ok: false, errors: { content_markdown: message, content_rendered: message } };
}

/**
 * The content fields of a create or edit, as behaviour.md 4.6 has them: non-blank markdown wins; else the
 * HTML is sanitised and converted to markdown; content_rendered is rendered from the markdown either way.
 * Content that is blank, or renders to nothing, or whose text is over {@link CONTENT_MAX_LENGTH} characters,
 * fails on both fields (200001). Markdown is stored as written: with raw HTML off it is never executable.
 */
export function processContent(input: {
  content_markdown?: string | null;
  content_rendered?: string | null;
}): ContentResult {
  const markdown = input.content_markdown ?? "";
  const rendered = input.content_rendered ?? "";
  const content_markdown = markdown.trim() ? markdown : rendered.trim() ? htmlToMarkdown(rendered) : "";
  const content_rendered = renderMarkdown(content_markdown);
  if (!content_rendered.trim()) return failure("Content must not be empty");
  // Counted in code points, as the reference counts multibyte text.
  if (Array.from(stripTags(content_rendered)).length > CONTENT_MAX_LENGTH) {
    return failure(`Content must be at most ${CONTENT_MAX_LENGTH} characters`);
  }
  return { ok: true, content: { content_markdown, content_rendered } };
}

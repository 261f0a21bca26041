/**
 * Parsed markdown (lib/markdown-parser.ts) to HTML and to its text (docs/content.md#markdown-rendering). Raw HTML is
 * written as text, as the reference's renderer did. The HTML is sanitised on the tokens, before it is written:
 * only the tags and attributes of {@link ALLOWED} are written, links and images keep only safe URLs, and
 * external links get rel (docs/content.md#urls-and-links). Every tag and attribute comes from markdown-it's own
 * renderer, which escapes all text, so no HTML parser has to read the result again.
 */
import type Token from "markdown-it/lib/token.mjs";
import { escapeText } from "./html-allow-list";
import { markdownIt } from "./markdown-parser";
import { linkMentions, type MentionMap } from "./mentions";
import { isExternal, isSafeUrl } from "./safe-url";

const md = markdownIt;

/** The tags rendered markdown may have, with their attributes. Tokens of other tags are not written. */
const ALLOWED: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.entries({
    a: ["href", "title", "rel"],
    img: ["src", "alt", "title"],
    ol: ["start"],
    th: ["align"],
    td: ["align"],
    ...Object.fromEntries(
      "p h1 h2 h3 h4 h5 h6 blockquote ul li pre code hr table thead tbody tr em strong del br sup"
        .split(" ")
        .map((tag) => [tag, []]),
    ),
  }).map(([tag, attributes]) => [tag, new Set(attributes)]),
);

const textOfToken = (tokens: Token[], idx: number) => escapeText(tokens[idx]?.content ?? "");
// Text escapes only `&<>`, as the sanitiser writes it (lib/html-allow-list.ts): it leaves rendered HTML as it is.
md.renderer.rules.text = textOfToken;
md.renderer.rules.code_inline = (tokens, idx) => `<code>${textOfToken(tokens, idx)}</code>`;
// A fence's info string (a language) would be a class, which the allow-list does not keep.
md.renderer.rules.fence = (tokens, idx) => `<pre><code>${textOfToken(tokens, idx)}</code></pre>\n`;
md.renderer.rules.code_block = md.renderer.rules.fence;
// Raw HTML is text: the reference escaped it, and the stored markdown keeps it (scrubbed) for clients that render it.
md.renderer.rules.html_block = textOfToken;
md.renderer.rules.html_inline = textOfToken;
md.renderer.rules.task_checkbox = (tokens, idx) =>
  `<input type="checkbox" disabled=""${tokens[idx]?.meta?.checked ? ' checked=""' : ""} />`;

/** A footnote's number, with its repeat for a note referred to more than once (`1:1`). */
function footnoteNumber(token: Token | undefined): string {
  const meta = (token?.meta ?? {}) as { id?: number; subId?: number };
  const n = String((meta.id ?? 0) + 1);
  return meta.subId ? `${n}:${meta.subId}` : n;
}
// GFM's footnotes, as GitHub writes them less the ids and classes the allow-list drops.
md.renderer.rules.footnote_ref = (tokens, idx) => {
  const n = footnoteNumber(tokens[idx]);
  return `<sup><a href="#user-content-fn-${n}">${n}</a></sup>`;
};
md.renderer.rules.footnote_block_open = () => "<h2>Footnotes</h2>\n<ol>\n";
md.renderer.rules.footnote_block_close = () => "</ol>\n";
md.renderer.rules.footnote_open = () => "<li>\n";
md.renderer.rules.footnote_close = () => "</li>\n";
md.renderer.rules.footnote_anchor = (tokens, idx) =>
  ` <a href="#user-content-fnref-${footnoteNumber(tokens[idx])}">\u21a9</a>`;

/** What markdown-it writes differently from GFM: strikethrough is `<del>`, alignment is `align`. */
function gfmShapes(token: Token) {
  if (token.type === "s_open" || token.type === "s_close") token.tag = "del";
  const style = token.attrGet("style");
  if ((token.tag === "th" || token.tag === "td") && typeof style === "string") {
    token.attrs = [["align", style.replace("text-align:", "")]];
  }
}

function sanitiseToken(token: Token) {
  if (token.type === "link_open" || token.type === "image") {
    const name = token.type === "image" ? "src" : "href";
    const url = String(token.attrGet(name) ?? "");
    if (!isSafeUrl(url)) token.attrs = (token.attrs ?? []).filter(([attribute]) => attribute !== name);
    else if (token.type === "link_open" && isExternal(url)) token.attrSet("rel", "nofollow noopener");
  }
  const allowed = ALLOWED.get(token.tag);
  if (token.tag && token.type !== "task_checkbox" && !allowed) token.hidden = true;
  if (token.attrs) token.attrs = token.attrs.filter(([attribute]) => allowed?.has(attribute));
}

/** Readies parsed tokens for writing: GFM's shapes, then the allow-list, on every token and its children. */
function finish(tokens: Token[]) {
  for (const token of tokens) {
    // An escaped character in an image's alt text (`![a \\[b\\]]`) is text; markdown-it 14 joins it only elsewhere.
    if (token.type === "text_special") token.type = "text";
    gfmShapes(token);
    sanitiseToken(token);
    if (token.children) finish(token.children);
  }
}

/** Tokens whose content is written as text (raw HTML included, as it is escaped). */
const TEXT = new Set(["text", "code_inline", "code_block", "fence", "html_block", "html_inline"]);

/** The text a reader sees, as the HTML's text nodes hold it: an image's alt text is not text. */
function textOf(tokens: Token[]): string {
  let text = "";
  for (const token of tokens) {
    if (token.type === "softbreak" || token.type === "hardbreak") text += "\n";
    else if (TEXT.has(token.type)) text += token.content;
    else if (token.children && token.type !== "image") text += textOf(token.children);
  }
  return text;
}

/**
 * The HTML of parsed markdown and its text (docs/content.md#validation measures content by it), with the mentions of
 * `members` linked (docs/mentions.md) and answered. Each block ends
 * in a newline, except the last of a source that does not end in one, as the HTML stored before this renderer.
 */
export function renderTokens(
  { source, tokens }: { source: string; tokens: Token[] },
  members?: MentionMap,
): { html: string; text: string; mentioned: number[] } {
  // Mentions become links before the allow-list runs, which they then pass like any link (lib/mentions.ts).
  const mentioned = members ? linkMentions(tokens, members) : [];
  finish(tokens);
  const html = md.renderer.render(tokens, md.options, {});
  return { html: source.endsWith("\n") ? html : html.replace(/\n$/, ""), text: textOf(tokens), mentioned };
}

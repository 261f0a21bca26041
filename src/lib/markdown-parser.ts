/**
 * The one markdown parser (docs/content.md#markdown-rendering): markdown-it with GFM's tables, strikethrough, autolink
 * literals, task lists and footnotes, and with raw HTML recognised so that it can be scrubbed from the stored source
 * and escaped in the rendered HTML. Each parse also says where the constructs the scrub (lib/markdown.ts) rewrites
 * lie in the source (markdown-source-spans.ts).
 */
import MarkdownIt from "markdown-it";
import type StateCore from "markdown-it/lib/rules_core/state_core.mjs";
import type Token from "markdown-it/lib/token.mjs";
import footnote from "markdown-it-footnote";
import { type Collector, recordSourceSpans, type SourceSpan } from "./markdown-source-spans";

export type { SourceSpan } from "./markdown-source-spans";

export interface ParsedMarkdown {
  /** The source as parsed: line endings are `\n` and NUL is U+FFFD, as markdown-it reads them. */
  source: string;
  tokens: Token[];
  /** In source order by start; a span may lie inside another (code in a link's text). */
  spans: SourceSpan[];
  /** False when a span was found in text that could not be placed in the source. */
  placed: boolean;
}

const md = new MarkdownIt({ html: true, linkify: true, xhtmlOut: true });
md.use(footnote);
// GFM has no inline footnotes (`^[…]`), and their text would be parsed apart from its paragraph's map.
md.inline.ruler.disable("footnote_inline");
// Every link is kept as a link so that the scrub sees its destination; the renderer decides what is safe.
md.validateLink = () => true;

/**
 * GFM links a bare address only when it starts with `www.` (`file.py` and `node.js` stay text;
 * docs/content.md#markdown-rendering). linkify-it's own bare-address search (fuzzyLink) links any known top-level
 * domain, and its expression cost 100 ms on 53 000 characters of inline code (measured with linkify-it 6), so
 * `www.` is added as a scheme instead, its tail read with linkify-it's own host and path expressions.
 */
md.linkify.set({ fuzzyLink: false });
let wwwTail: RegExp | undefined;
md.linkify.add("www.", {
  validate(text, pos, self) {
    // linkify-it keeps the sources of its expressions as strings beside them, and types them all as RegExp.
    const sources = self.re as unknown as Record<"src_host_port_strict" | "src_path", string>;
    wwwTail ??= new RegExp(sources.src_host_port_strict + sources.src_path, "iy");
    wwwTail.lastIndex = pos;
    return wwwTail.exec(text)?.[0].length ?? 0;
  },
  normalize(match) {
    match.url = `http://${match.url}`;
  },
});

/** `[ ]` or `[x]` and a space at the start of a list item's first paragraph: a GFM task-list item. */
const TASK = /^\[([ xX])\](?=[ \t])/;

function markTask(inline: Token, state: StateCore) {
  const first = inline.children?.[0];
  const match = first?.type === "text" ? TASK.exec(first.content) : null;
  if (!first || !match) return;
  first.content = first.content.slice(3);
  const checkbox = new state.Token("task_checkbox", "input", 0);
  checkbox.meta = { checked: match[1] !== " " };
  inline.children?.unshift(checkbox);
}

// Before text_join, which would merge an escaped `\[` into the text after it.
md.core.ruler.before("text_join", "task_lists", (state) => {
  const tokens = state.tokens;
  for (const [i, token] of tokens.entries()) {
    if (
      token.type === "inline" &&
      tokens[i - 1]?.type === "paragraph_open" &&
      tokens[i - 2]?.type === "list_item_open"
    ) {
      markTask(token, state);
    }
  }
});

/** The markdown-it instance, for the renderer's rules (lib/markdown-render.ts). */
export const markdownIt = md;

// After the plugins and the task-list rule, so that the rules wrapped are the ones this parser runs.
recordSourceSpans(md);

/** markdown-it's normalisation of line endings and NUL, done first so that offsets are the stored text's. */
export function normaliseSource(source: string): string {
  return source.replace(/\r\n?/g, "\n").replace(/\0/g, "\uFFFD");
}

/** Parses a normalised source ({@link normaliseSource}) and finds its spans. */
export function parseMarkdown(source: string): ParsedMarkdown {
  const collector: Collector = { spans: [], placed: true, maps: new Map(), current: null };
  const tokens = md.parse(source, { collector });
  collector.spans.sort((a, b) => a.start - b.start || b.end - a.end);
  return { source, tokens, spans: collector.spans, placed: collector.placed };
}

/**
 * Where the constructs the scrub (lib/markdown.ts) rewrites or checks lie in the markdown source: code, raw HTML,
 * autolinks and link destinations (docs/content.md#markdown-rendering). markdown-it gives source lines for blocks
 * only, so the rules that find those constructs are wrapped to record where each one lies; inline rules place theirs
 * through the map of their token's text (markdown-text-maps.ts), and a construct found in text whose map failed is
 * reported, never guessed at.
 */
import type MarkdownIt from "markdown-it";
import type StateBlock from "markdown-it/lib/rules_block/state_block.mjs";
import type StateCore from "markdown-it/lib/rules_core/state_core.mjs";
import type StateInline from "markdown-it/lib/rules_inline/state_inline.mjs";
import type Token from "markdown-it/lib/token.mjs";
import { inlineTextMaps, lineOf, type TextMap, tableCellMaps } from "./markdown-text-maps";

/** What the scrub checks or keeps, by where it lies in the source. */
export type SourceSpan =
  | { kind: "code" | "html"; start: number; end: number }
  | { kind: "autolink" | "destination"; start: number; end: number; url: string };

/** What a parse collects, carried in markdown-it's `env`. */
export interface Collector {
  spans: SourceSpan[];
  placed: boolean;
  /** Where each inline token's text lies in the source. */
  maps: Map<Token, TextMap>;
  /** The map of the inline text being parsed; null when it has none. */
  current: TextMap | null;
}

type BlockRule = (state: StateBlock, startLine: number, endLine: number, silent: boolean) => boolean;
type InlineRule = (state: StateInline, silent: boolean) => boolean;

function collectorOf(state: { env: unknown }): Collector {
  return (state.env as { collector: Collector }).collector;
}

/** markdown-it's own list of a chain's rules, by name: read to wrap a rule with its original (it has no getter). */
type RuleList<T> = { name: string; fn: T; alt: string[] }[];

/** Replaces a rule by `wrap(original)`, keeping the chains it may end (`at` would clear them). */
function wrapRule<T>(
  ruler: { at(name: string, fn: T, options?: { alt?: string[] }): void },
  name: string,
  wrap: (rule: T) => T,
) {
  const rules = (ruler as unknown as { __rules__: RuleList<T> }).__rules__;
  const entry = rules.find((rule) => rule.name === name);
  if (!entry) throw new Error(`markdown-it has no rule ${name}`);
  ruler.at(name, wrap(entry.fn), { alt: entry.alt });
}

type AfterBlock = (state: StateBlock, startLine: number, tokensBefore: number) => void;
type AfterInline = (state: StateInline, start: number, tokensBefore: number) => void;

function wrapBlock(md: MarkdownIt, name: string, after: AfterBlock) {
  wrapRule<BlockRule>(md.block.ruler, name, (rule) => (state, startLine, endLine, silent) => {
    const before = state.tokens.length;
    const ok = rule(state, startLine, endLine, silent);
    if (ok && !silent) after(state, startLine, before);
    return ok;
  });
}

function wrapInline(md: MarkdownIt, name: string, after: AfterInline) {
  wrapRule<InlineRule>(md.inline.ruler, name, (rule) => (state, silent) => {
    const start = state.pos;
    const before = state.tokens.length;
    const ok = rule(state, silent);
    if (ok && !silent) after(state, start, before);
    return ok;
  });
}

/** Blocks kept or checked whole: from the first character of their first line to the end of their last. */
function blockSpan(kind: "code" | "html") {
  return (state: StateBlock, startLine: number) => {
    collectorOf(state).spans.push({
      kind,
      start: lineOf(state, startLine).begin + lineOf(state, startLine).shift,
      end: lineOf(state, state.line - 1).end,
    });
  };
}

function keepMaps(state: StateBlock, maps: [Token, TextMap][]) {
  for (const [token, map] of maps) collectorOf(state).maps.set(token, map);
}

/** A link's or definition's own destination, kept apart from those of links nested in or tried inside it. */
const destinations: ({ start: number; end: number; url: string } | null)[] = [];

function withOwnDestination<T>(run: () => T): { result: T; destination: (typeof destinations)[number] } {
  destinations.push(null);
  try {
    const result = run();
    return { result, destination: destinations.at(-1) ?? null };
  } finally {
    destinations.pop();
  }
}

/** Places a span of the inline text being parsed in the source, or reports that it cannot. */
function pushInline(state: StateInline, span: SourceSpan) {
  const collector = collectorOf(state);
  const map = collector.current;
  if (map === null || span.end <= span.start || span.end > state.src.length) {
    collector.placed = false;
    return;
  }
  const offset = (i: number) => (typeof map === "number" ? map + i : (map[i] as number));
  collector.spans.push({ ...span, start: offset(span.start), end: offset(span.end - 1) + 1 });
}

/** Wraps the block rules: code and HTML blocks, the texts' maps, and reference definitions' destinations. */
function recordBlockSpans(md: MarkdownIt) {
  /**
   * Indented code straight after a line of text may be code to markdown-it only: CommonMark reads such lines as the
   * text of a paragraph when one is open (after a definition, or lazily in a list item), and there raw HTML is HTML.
   * So only indented code after a blank line (or at the start) is kept as code; other indented code is scrubbed as
   * text, safe for whichever parser a client uses.
   */
  wrapBlock(md, "code", (state, startLine) => {
    if (startLine === 0 || state.isEmpty(startLine - 1)) blockSpan("code")(state, startLine);
  });
  wrapBlock(md, "fence", blockSpan("code"));
  wrapBlock(md, "html_block", blockSpan("html"));
  for (const name of ["paragraph", "lheading", "heading"]) {
    wrapBlock(md, name, (state, _startLine, before) => keepMaps(state, inlineTextMaps(state, before)));
  }
  wrapBlock(md, "table", (state, _startLine, before) => keepMaps(state, tableCellMaps(state, before)));

  const parseLinkDestination = md.helpers.parseLinkDestination;
  md.helpers.parseLinkDestination = (text, start, max) => {
    const result = parseLinkDestination(text, start, max);
    if (result.ok && destinations.length > 0) {
      destinations[destinations.length - 1] = { start, end: result.pos, url: result.str };
    }
    return result;
  };
  wrapRule<BlockRule>(md.block.ruler, "reference", (rule) => (state, startLine, endLine, silent) => {
    const { result, destination } = withOwnDestination(() => rule(state, startLine, endLine, silent));
    if (!result || silent || !destination) return result;
    // The rule reads its lines joined, each from its first character to its line ending.
    const map: number[] = [];
    for (let line = startLine; line < state.line; line++) {
      const marks = lineOf(state, line);
      for (let offset = marks.begin + marks.shift; offset <= marks.end; offset++) map.push(offset);
    }
    const start = map[destination.start];
    const last = map[destination.end - 1];
    if (start === undefined || last === undefined) collectorOf(state).placed = false;
    else collectorOf(state).spans.push({ kind: "destination", start, end: last + 1, url: destination.url });
    return result;
  });
}

/** Wraps the inline rules: links' and images' destinations, code spans, inline HTML and autolinks. */
function recordInlineSpans(md: MarkdownIt) {
  for (const name of ["link", "image"]) {
    wrapRule<InlineRule>(md.inline.ruler, name, (rule) => (state, silent) => {
      const start = state.pos;
      const { result, destination } = withOwnDestination(() => rule(state, silent));
      // A destination the link did not end up using (`[a](x` that fell back to a reference) lies past its end.
      if (result && !silent && destination && destination.start > start && destination.end <= state.pos) {
        pushInline(state, { kind: "destination", ...destination });
      }
      return result;
    });
  }
  wrapInline(md, "backticks", (state, start, before) => {
    // An unclosed run of backticks is text.
    if (state.tokens.length > before && state.tokens.at(-1)?.type === "code_inline") {
      pushInline(state, { kind: "code", start, end: state.pos });
    }
  });
  wrapInline(md, "html_inline", (state, start) => pushInline(state, { kind: "html", start, end: state.pos }));
  wrapInline(md, "autolink", (state, start) =>
    pushInline(state, { kind: "autolink", start, end: state.pos, url: state.src.slice(start + 1, state.pos - 1) }),
  );

  // markdown-it's own inline step, with the map of each text set while it is parsed.
  md.core.ruler.at("inline", (state: StateCore) => {
    const collector = collectorOf(state);
    for (const token of state.tokens) {
      if (token.type !== "inline") continue;
      collector.current = collector.maps.get(token) ?? null;
      token.children ??= [];
      state.md.inline.parse(token.content, state.md, state.env, token.children);
    }
    collector.current = null;
  });
}

/**
 * Makes md record the spans of every parse in the `collector` of the parse's env. Called once on the configured
 * parser, after its plugins: the rules wrapped are those it then has.
 */
export function recordSourceSpans(md: MarkdownIt): void {
  recordBlockSpans(md);
  recordInlineSpans(md);
}

/**
 * The one markdown parser (docs/content.md#markdown-rendering): markdown-it with GFM's tables, strikethrough, autolink
 * literals, task lists and footnotes, and with raw HTML recognised so that it can be
 * scrubbed from the stored source and escaped in the rendered HTML.
 *
 * markdown-it gives source lines for blocks only, and the scrub (lib/markdown.ts) rewrites the source at the
 * constructs it must check: code, raw HTML, autolinks and link destinations. So the rules that find those are
 * wrapped here to record where each one lies in the source. Inline rules see their paragraph's text with the
 * container prefixes removed, so each inline token gets a map from its text back to the source, and the map is
 * checked character by character: a construct found in text whose map fails is reported, never guessed at.
 */
import MarkdownIt from "markdown-it";
import type StateBlock from "markdown-it/lib/rules_block/state_block.mjs";
import type StateCore from "markdown-it/lib/rules_core/state_core.mjs";
import type StateInline from "markdown-it/lib/rules_inline/state_inline.mjs";
import type Token from "markdown-it/lib/token.mjs";
import footnote from "markdown-it-footnote";

/** What the scrub checks or keeps, by where it lies in the source. */
export type SourceSpan =
  | { kind: "code" | "html"; start: number; end: number }
  | { kind: "autolink" | "destination"; start: number; end: number; url: string };

export interface ParsedMarkdown {
  /** The source as parsed: line endings are `\n` and NUL is U+FFFD, as markdown-it reads them. */
  source: string;
  tokens: Token[];
  /** In source order by start; a span may lie inside another (code in a link's text). */
  spans: SourceSpan[];
  /** False when a span was found in text that could not be placed in the source. */
  placed: boolean;
}

/**
 * The source offset of each character of an inline token's text; a number when the text is one run of the
 * source from that offset, as most are (all outside lists, quotes and footnotes).
 */
type TextMap = number | Int32Array;

interface Collector {
  spans: SourceSpan[];
  placed: boolean;
  /** Where each inline token's text lies in the source. */
  maps: Map<Token, TextMap>;
  /** The map of the inline text being parsed; null when it has none. */
  current: TextMap | null;
}

type BlockRule = (state: StateBlock, startLine: number, endLine: number, silent: boolean) => boolean;
type InlineRule = (state: StateInline, silent: boolean) => boolean;

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

function wrapBlock(name: string, after: (state: StateBlock, startLine: number, tokensBefore: number) => void) {
  wrapRule<BlockRule>(md.block.ruler, name, (rule) => (state, startLine, endLine, silent) => {
    const before = state.tokens.length;
    const ok = rule(state, startLine, endLine, silent);
    if (ok && !silent) after(state, startLine, before);
    return ok;
  });
}

function wrapInline(name: string, after: (state: StateInline, start: number, tokensBefore: number) => void) {
  wrapRule<InlineRule>(md.inline.ruler, name, (rule) => (state, silent) => {
    const start = state.pos;
    const before = state.tokens.length;
    const ok = rule(state, silent);
    if (ok && !silent) after(state, start, before);
    return ok;
  });
}

/** A line's marks in the block state, which keeps one of each per line of the source. */
function lineOf(state: StateBlock, line: number) {
  return {
    begin: state.bMarks[line] as number,
    end: state.eMarks[line] as number,
    shift: state.tShift[line] as number,
    tabShift: state.bsCount[line] as number,
  };
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
/**
 * Indented code straight after a line of text may be code to markdown-it only: CommonMark reads such lines as the
 * text of a paragraph when one is open (after a definition, or lazily in a list item), and there raw HTML is HTML.
 * So only indented code after a blank line (or at the start) is kept as code; other indented code is scrubbed as
 * text, safe for whichever parser a client uses.
 */
wrapBlock("code", (state, startLine) => {
  if (startLine === 0 || state.isEmpty(startLine - 1)) blockSpan("code")(state, startLine);
});
wrapBlock("fence", blockSpan("code"));
wrapBlock("html_block", blockSpan("html"));

/**
 * The source offset of each character of `getLines(begin, end, indent, false)`, computed as markdown-it's
 * StateBlock.getLines builds that text: a tab only partly inside the indentation leaves spaces, placed on it.
 */
function linesMap(state: StateBlock, begin: number, end: number, indent: number): number[] {
  const map: number[] = [];
  for (let line = begin; line < end; line++) {
    const marks = lineOf(state, line);
    let first = marks.begin;
    let lineIndent = 0;
    const last = line + 1 < end ? marks.end + 1 : marks.end;
    while (first < last && lineIndent < indent) {
      const ch = state.src.charCodeAt(first);
      if (ch === 9) lineIndent += 4 - ((lineIndent + marks.tabShift) % 4);
      else if (ch === 32 || first - marks.begin < marks.shift) lineIndent++;
      else break;
      first++;
    }
    for (let pad = indent; pad < lineIndent; pad++) map.push(first - 1);
    for (let offset = first; offset < last; offset++) map.push(offset);
  }
  return map;
}

/** Whether every character of text is the source character the map places it on (a tab may read as spaces). */
function mapHolds(source: string, text: string, map: ArrayLike<number>): boolean {
  if (map.length !== text.length) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const s = source.charCodeAt(map[i] as number);
    if (c !== s && !(c === 32 && s === 9)) return false;
  }
  return true;
}

/** Keeps a map for the token when it holds; a token without one gets its spans reported instead of placed. */
function keepMap(state: StateBlock, token: Token, map: number[], from: number) {
  if (from < 0) return;
  const placed = Int32Array.from(map.slice(from, from + token.content.length));
  if (mapHolds(state.src, token.content, placed)) collectorOf(state).maps.set(token, placed);
}

/** The text of an inline token is its lines, trimmed, and for a heading without its `#`s. */
function mapLines(state: StateBlock, _startLine: number, before: number) {
  const tokens = state.tokens.slice(before);
  for (const [i, token] of tokens.entries()) {
    if (token.type !== "inline" || !token.map || !token.content) continue;
    const [begin, end] = token.map;
    const heading = tokens[i - 1]?.type === "heading_open";
    // Most blocks (all outside lists and quotes) are one run of the source: the token's text, then only the
    // whitespace trimmed off it. A container's prefix inside the run would leave a letter of the text after it.
    const first = lineOf(state, begin).begin;
    const start = first + contentStart(state.src, (offset) => first + offset, heading);
    const after = start + token.content.length;
    if (state.src.startsWith(token.content, start) && onlySpaceBetween(state.src, after, lineOf(state, end - 1).end)) {
      collectorOf(state).maps.set(token, start);
      continue;
    }
    const map = linesMap(state, begin, end, state.blkIndent);
    keepMap(
      state,
      token,
      map,
      contentStart(state.src, (i) => map[i] ?? -1, heading),
    );
  }
}

/** Whether the character at `offset` is whitespace as `String.prototype.trim` sees it (none past the end). */
const isSpaceAt = (source: string, offset: number | undefined) => /\s/.test(source.charAt(offset ?? -1));

function onlySpaceBetween(source: string, from: number, to: number): boolean {
  for (let offset = from; offset < to; offset++) if (!isSpaceAt(source, offset)) return false;
  return true;
}

/**
 * Where the trimmed text begins in its lines: after the whitespace `String.prototype.trim` removes (markdown-it
 * trims so, Unicode spaces such as U+3000 included), and for a heading after its `#`s too.
 */
function contentStart(source: string, offsetOf: (i: number) => number, heading: boolean): number {
  const isTrimmed = (i: number) => isSpaceAt(source, offsetOf(i));
  let i = 0;
  if (heading) {
    while (isTrimmed(i)) i++;
    while (source.charAt(offsetOf(i)) === "#") i++;
  }
  while (isTrimmed(i)) i++;
  return i;
}
wrapBlock("paragraph", mapLines);
wrapBlock("lheading", mapLines);
wrapBlock("heading", mapLines);

/**
 * A table row's cells as markdown-it's table rule reads them (its escapedSplit, then a trim of each): the
 * source offsets of each cell's characters, a backslash before a `|` left out as it leaves it out.
 */
function rowCells(source: string, start: number, end: number): number[][] {
  while (start < end && isSpaceAt(source, start)) start++;
  while (end > start && isSpaceAt(source, end - 1)) end--;
  const cells: number[][] = [];
  let cell: number[] = [];
  let escaped = false;
  for (let pos = start; pos < end; pos++) {
    const ch = source.charCodeAt(pos);
    if (ch === 124 && !escaped) {
      cells.push(cell);
      cell = [];
    } else if (ch === 124) cell[cell.length - 1] = pos;
    else cell.push(pos);
    escaped = ch === 92;
  }
  cells.push(cell);
  if (cells[0]?.length === 0) cells.shift();
  if (cells.at(-1)?.length === 0) cells.pop();
  return cells.map((offsets) => {
    let from = 0;
    let to = offsets.length;
    while (from < to && isSpaceAt(source, offsets[from])) from++;
    while (to > from && isSpaceAt(source, offsets[to - 1])) to--;
    return offsets.slice(from, to);
  });
}

wrapBlock("table", (state, _startLine, before) => {
  let cells: number[][] = [];
  let column = 0;
  for (const token of state.tokens.slice(before)) {
    if (token.type === "tr_open" && token.map) {
      const marks = lineOf(state, token.map[0]);
      cells = rowCells(state.src, marks.begin + marks.shift, marks.end);
      column = 0;
    } else if (token.type === "inline") {
      const map = cells[column++] ?? [];
      if (token.content) keepMap(state, token, map, 0);
    }
  }
});

/** A link's or definition's own destination, kept apart from those of links nested in or tried inside it. */
const destinations: ({ start: number; end: number; url: string } | null)[] = [];
const parseLinkDestination = md.helpers.parseLinkDestination;
md.helpers.parseLinkDestination = (text, start, max) => {
  const result = parseLinkDestination(text, start, max);
  if (result.ok && destinations.length > 0) {
    destinations[destinations.length - 1] = { start, end: result.pos, url: result.str };
  }
  return result;
};

function withOwnDestination<T>(run: () => T): { result: T; destination: (typeof destinations)[number] } {
  destinations.push(null);
  try {
    const result = run();
    return { result, destination: destinations.at(-1) ?? null };
  } finally {
    destinations.pop();
  }
}

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

wrapInline("backticks", (state, start, before) => {
  // An unclosed run of backticks is text.
  if (state.tokens.length > before && state.tokens.at(-1)?.type === "code_inline") {
    pushInline(state, { kind: "code", start, end: state.pos });
  }
});
wrapInline("html_inline", (state, start) => pushInline(state, { kind: "html", start, end: state.pos }));
wrapInline("autolink", (state, start) =>
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

/**
 * Where the text of each inline token lies in the markdown source (docs/content.md#markdown-rendering). Inline rules
 * see their paragraph's text with the container prefixes (list indents, `>`, a heading's `#`s, a table's pipes)
 * removed, so each inline token gets a map from its text back to the source, checked character by character: a
 * token whose map does not hold gets none, and markdown-source-spans.ts reports what is found in it instead of
 * guessing where it lies.
 */
import type StateBlock from "markdown-it/lib/rules_block/state_block.mjs";
import type Token from "markdown-it/lib/token.mjs";

/**
 * The source offset of each character of an inline token's text; a number when the text is one run of the
 * source from that offset, as most are (all outside lists, quotes and footnotes).
 */
export type TextMap = number | Int32Array;

/** A line's marks in the block state, which keeps one of each per line of the source. */
export function lineOf(state: StateBlock, line: number) {
  return {
    begin: state.bMarks[line] as number,
    end: state.eMarks[line] as number,
    shift: state.tShift[line] as number,
    tabShift: state.bsCount[line] as number,
  };
}

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

/** The token's part of `map` from `from`, when it holds; null otherwise. */
function heldMap(source: string, token: Token, map: number[], from: number): Int32Array | null {
  if (from < 0) return null;
  const placed = Int32Array.from(map.slice(from, from + token.content.length));
  return mapHolds(source, token.content, placed) ? placed : null;
}

/**
 * The maps of the inline tokens a paragraph or heading rule added (from token `before` on). The text of an inline
 * token is its lines, trimmed, and for a heading without its `#`s.
 */
export function inlineTextMaps(state: StateBlock, before: number): [Token, TextMap][] {
  const maps: [Token, TextMap][] = [];
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
      maps.push([token, start]);
      continue;
    }
    const map = linesMap(state, begin, end, state.blkIndent);
    const held = heldMap(
      state.src,
      token,
      map,
      contentStart(state.src, (i) => map[i] ?? -1, heading),
    );
    if (held) maps.push([token, held]);
  }
  return maps;
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

/** The maps of the cells' inline tokens a table rule added (from token `before` on). */
export function tableCellMaps(state: StateBlock, before: number): [Token, TextMap][] {
  const maps: [Token, TextMap][] = [];
  let cells: number[][] = [];
  let column = 0;
  for (const token of state.tokens.slice(before)) {
    if (token.type === "tr_open" && token.map) {
      const marks = lineOf(state, token.map[0]);
      cells = rowCells(state.src, marks.begin + marks.shift, marks.end);
      column = 0;
    } else if (token.type === "inline") {
      const map = cells[column++] ?? [];
      const held = token.content ? heldMap(state.src, token, map, 0) : null;
      if (held) maps.push([token, held]);
    }
  }
  return maps;
}

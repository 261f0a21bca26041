/**
 * A linear pre-scan that decides, before the parser (lib/markdown-parser.ts) reads anything, that parsing and
 * rendering a markdown source is bounded work (docs/content.md#work-bounds). The rules were first set against
 * micromark, the parser before markdown-it, some of whose resolvers walk back over every event before the current one,
 * so that some shapes cost time quadratic in their size (seconds to minutes at 200 000 characters):
 * - containers: a container opened on a line is checked again on every later line it stays open on, and
 *   containers opened on the same line (`- - - x`, `> > x`, `>>>>x`) cost far more than nesting by indentation;
 * - inline delimiters that close nothing (`a~ `, `a]`, `*a`): each walks back over its paragraph for an opener;
 * - setext underlines; tables, whose body rows are padded to the header's width (few bytes, many cells);
 * - blocks in general, definitions most, and punctuation cost many times what the same characters of prose do.
 * markdown-it is linear on all of these, but the same shapes are still the dear ones, so the rules stay (they cost
 * real documents nothing), and one was added for markdown-it's dearest construct, the bracket ({@link MAX_BRACKETS}).
 * The limits leave room for real documents (long prose, code, tables of a few thousand cells, lists nested ten
 * deep), which the tests check; bench/content.ts measures the worst input each lets through.
 */
import { MAX_RENDERED_BYTES, MAX_TABLE_CELLS, MAX_TABLE_COLUMNS } from "./content-limits";
import { utf8Length } from "./text-length";

/** The most characters a markdown source may have: twice the text limit leaves room for markup. */
export const MAX_SOURCE_LENGTH = 200_000;

/** Containers (list items, quotes) one line may be inside, counting those it opens. */
export const MAX_NESTING = 32;
/** Lines that open two or more containers, which micromark handled far more slowly than other lines. */
export const MAX_SAME_LINE_CONTAINERS = 200;
/** Open containers summed over all lines: the checks a parser repeats line after line. */
export const MAX_CONTAINER_WORK = 20_000;
/**
 * Containers opened in all (list items, quotes): closing one cost micromark time that grows with the
 * document, so 2 400 short quotes cost as much as 1 000 000 characters of prose would.
 */
export const MAX_CONTAINERS = 1_000;
/** Lines that could underline a setext heading (`===`, `---`). */
export const MAX_SETEXT_UNDERLINES = 200;
/**
 * Lines that are not blank: each costs a parser about as much as 80 characters of prose, so 200 000 characters
 * of short lines would cost ten times what the same length of prose does. 100 000 characters of code have ~4 000.
 */
export const MAX_LINES = 6_000;
/** Lines that may start a link or footnote definition (they start with `[`): each costs as much as a block. */
export const MAX_DEFINITIONS = 1_000;
/**
 * ASCII punctuation characters: every one may start a construct the parser tries (links, images, code, HTML,
 * autolinks, escapes, entities), which costs up to 25 times a letter of prose. A 100 000-character code block
 * has about 30 000.
 */
export const MAX_PUNCTUATION = 40_000;
/**
 * Opening brackets (`[`): links, images, footnote references, task-list boxes, definitions. markdown-it tries a
 * link at each one, which costs up to 10 µs whether or not it closes (a hundred times a letter of prose), and an
 * image at each `![`, which costs up to three times that; so a `[` after `!` counts {@link IMAGE_BRACKET}.
 */
export const MAX_BRACKETS = 2_000;
export const IMAGE_BRACKET = 3;
/**
 * A `<` before a letter, `/`, `!` or `?`: what a browser, or a renderer laxer than CommonMark about what a tag is,
 * reads as the start of markup (`<img/src=x/onerror=…>`). The scrub escapes or rewrites every one (lib/markdown.ts).
 */
export const MARKUP_START = /<(?=[a-zA-Z/!?])/;

/**
 * Tags of raw HTML ({@link MARKUP_START}): the scrub reads each fragment with the HTML tokenizer, a few µs a tag,
 * on every pass.
 */
export const MAX_HTML_TAGS = 2_000;
/**
 * Delimiters that may close nothing (`*`, `_`, `~`, `]`) times the punctuation their paragraph holds (the
 * events they may walk back over), summed over paragraphs (text between blank lines).
 */
export const MAX_INLINE_WORK = 4_000_000;

/** The list markers and quote markers a line starts with, and the whitespace between them. */
const CONTAINER_PREFIX = /^[ \t]*(?:(?:>|(?:[-+*]|\d{1,9}[.)])(?=[ \t]|$))[ \t]*)*/;
const MARKER = /[>+*-]|\d{1,9}[.)]/g;
const LIST_MARKER = /^[ \t]*(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;
const BLANK = /^[ \t]*$/;
const SETEXT_UNDERLINE = /^[ \t]*(?:=+|-+)[ \t]*$/;
/**
 * A GFM table's delimiter row (`-|:-:|-`), trimmed, which needs a pipe; its cells are the runs of dashes.
 * Only lines made of its characters are tried, and no whitespace can be matched two ways, so it runs in linear time.
 */
const DELIMITER_ROW_CHARACTERS = /^[-|: \t]+$/;
const DELIMITER_ROW = /^\|?(?:[ \t]*:?-+:?[ \t]*\|)*[ \t]*:?-+:?[ \t]*\|?$/;
const DASH_RUN = /-+/g;
/** Characters whose HTML escape is longer than they are, with the extra bytes: `&lt;` for `<` and so on. */
const ESCAPE_GROWTH: Record<string, number> = { "<": 3, ">": 3, "&": 4, '"': 5 };
/** `<td></td>\n`: the least HTML one padded table cell renders to. */
const CELL_BYTES = 10;
/** `<a href="http://">…</a>` around a literal autolink, whose text the href repeats: short links double. */
const AUTOLINK_BYTES = 32;
/** `<p></p>\n`, `<li></li>`, `<h1></h1>`…: about what each line's block adds to the HTML. */
const LINE_BYTES = 8;

function indentation(line: string): number {
  let width = 0;
  for (const c of line) {
    if (c === " ") width++;
    else if (c === "\t") width += 4 - (width % 4);
    else break;
  }
  return width;
}

function isPunctuation(code: number): boolean {
  const between = (low: number, high: number) => code >= low && code <= high;
  return between(33, 47) || between(58, 64) || between(91, 96) || between(123, 126);
}

/** The ASCII punctuation characters of text ({@link MAX_PUNCTUATION} bounds them). */
export function punctuationIn(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) if (isPunctuation(text.charCodeAt(i))) count++;
  return count;
}

/** `*` `_` `~` `]`: the delimiters whose resolution walks back over their paragraph. */
function isWalkingDelimiter(code: number): boolean {
  return code === 42 || code === 95 || code === 126 || code === 93;
}

/**
 * Why the parser must not be given this source, or null when its parse and its rendered HTML are bounded.
 * One pass over the lines; every count over-estimates what the parser will do, so a refusal may be stricter
 * than needed but an acceptance is never wrong.
 */
export function markdownWorkRefusal(source: string): string | null {
  if (source.length > MAX_SOURCE_LENGTH) return `Content must be at most ${MAX_SOURCE_LENGTH} characters of markdown`;
  const lines = source.split(/\r\n|\r|\n/);
  // List items still possibly open, by the indentation of their marker; a line only closes those it is not
  // indented under after a blank line, or by starting a sibling item (lazy lines close nothing).
  const openItems: number[] = [];
  let quoteDepth = 0;
  let previousMarkers = 0;
  let containers = 0;
  let afterBlank = true;
  let sameLine = 0;
  let containerWork = 0;
  let setext = 0;
  let nonBlank = 0;
  let definitions = 0;
  let tableColumns = 0;
  let tableCells = 0;
  let inlineWork = 0;
  let delimiters = 0;
  let punctuation = 0;
  let allPunctuation = 0;
  let brackets = 0;
  let tags = 0;
  let renderedBytes = 0;
  let previous = "";
  for (const line of lines) {
    if (BLANK.test(line)) {
      containerWork += openItems.length;
      inlineWork += delimiters * punctuation;
      delimiters = punctuation = tableColumns = quoteDepth = previousMarkers = 0;
      afterBlank = true;
      previous = line;
      continue;
    }
    const indent = indentation(line);
    const prefix = CONTAINER_PREFIX.exec(line)?.[0] ?? "";
    const markers = prefix.match(MARKER)?.length ?? 0;
    if (markers > 1 && ++sameLine > MAX_SAME_LINE_CONTAINERS) {
      return "Content nests lists or quotes on one line too often";
    }
    if (++nonBlank > MAX_LINES) return `Content must have at most ${MAX_LINES} lines that are not blank`;
    const listItem = LIST_MARKER.test(line);
    if (afterBlank || listItem) while ((openItems.at(-1) ?? -1) >= indent) openItems.pop();
    if (listItem) openItems.push(indent);
    // The item this line opens is on the stack already; the markers after it open one container each, and
    // stay open on the lazy lines after it until a blank line.
    const opened = markers - (listItem ? 1 : 0);
    // A quote marker continues the quote of the line before unless a blank or unquoted line came between.
    containers += listItem || afterBlank || previousMarkers === 0 ? markers : Math.max(0, markers - previousMarkers);
    if (containers > MAX_CONTAINERS) return `Content may open at most ${MAX_CONTAINERS} list items and quotes`;
    previousMarkers = markers;
    quoteDepth = Math.max(quoteDepth, opened);
    const depth = openItems.length + (markers > 0 ? opened : quoteDepth);
    if (depth > MAX_NESTING) return `Content nests lists or quotes more than ${MAX_NESTING} deep`;
    containerWork += depth;
    if (containerWork > MAX_CONTAINER_WORK) return "Content nests lists or quotes too much";
    if (SETEXT_UNDERLINE.test(line) && ++setext > MAX_SETEXT_UNDERLINES) {
      return "Content has too many heading underlines";
    }
    const body = line.slice(prefix.length);
    if (/^[ \t]*\[/.test(body) && ++definitions > MAX_DEFINITIONS) return "Content has too many link definitions";
    const cells = body.trim();
    const delimiterRow = DELIMITER_ROW_CHARACTERS.test(cells) && DELIMITER_ROW.test(cells);
    if (delimiterRow && (cells.includes("|") || previous.includes("|"))) {
      tableColumns = cells.match(DASH_RUN)?.length ?? 0;
      if (tableColumns > MAX_TABLE_COLUMNS) return `Tables may have at most ${MAX_TABLE_COLUMNS} columns`;
      // The header row and this one.
      tableCells += 2 * tableColumns;
    } else if (tableColumns > 0) {
      // Every body row is padded to the header's width.
      tableCells += tableColumns;
    }
    if (tableCells > MAX_TABLE_CELLS) return `Tables may have at most ${MAX_TABLE_CELLS} cells in all`;
    for (let i = 0; i < line.length; i++) {
      const code = line.charCodeAt(i);
      if (!isPunctuation(code)) continue;
      punctuation++;
      allPunctuation++;
      if (isWalkingDelimiter(code)) delimiters++;
      if (code === 91) brackets += line.charCodeAt(i - 1) === 33 ? IMAGE_BRACKET : 1;
      if (code === 60 && MARKUP_START.test(line.slice(i, i + 2))) tags++;
      renderedBytes += ESCAPE_GROWTH[line.charAt(i)] ?? 0;
      // GFM autolinks: `a@b.c`, `www.a.b`, `http://a.b`.
      if (code === 64 || (code === 46 && line.endsWith("www", i)) || (code === 58 && line.startsWith("//", i + 1))) {
        renderedBytes += AUTOLINK_BYTES;
      }
    }
    // The line ending is an event too.
    punctuation++;
    afterBlank = false;
    previous = line;
  }
  inlineWork += delimiters * punctuation;
  if (allPunctuation > MAX_PUNCTUATION) return tooMuchPunctuation();
  if (inlineWork > MAX_INLINE_WORK) return "Content has too many emphasis, strikethrough or link markers";
  if (tags > MAX_HTML_TAGS) return `Content may have at most ${MAX_HTML_TAGS} HTML tags`;
  if (brackets > MAX_BRACKETS) {
    return `Content may have at most ${MAX_BRACKETS} link brackets ("[", "![" counting ${IMAGE_BRACKET})`;
  }
  renderedBytes += utf8Length(source) + tableCells * CELL_BYTES + nonBlank * LINE_BYTES;
  if (renderedBytes > MAX_RENDERED_BYTES) return renderedTooLarge();
  return null;
}

/** The message of content over {@link MAX_PUNCTUATION}, in markdown or in the text of HTML. */
export function tooMuchPunctuation(): string {
  return `Content must have at most ${MAX_PUNCTUATION} punctuation characters`;
}

/** The message of content over {@link MAX_RENDERED_BYTES}, estimated before rendering or measured after. */
export function renderedTooLarge(): string {
  return `Content must render to at most ${MAX_RENDERED_BYTES / 1024} KiB of HTML`;
}

/**
 * Hostile content sources for the content pipeline, each at the most characters the pipeline takes: the shapes
 * that once cost micromark seconds of CPU or multiplied the HTML they render to, and the neighbours of each
 * (other delimiters, other containers, other ways to nest). Shared by test/content-bounds.test.ts (through
 * HTTP) and bench/content.ts (the CPU time of each).
 */
import { MAX_TABLE_CELLS, MAX_TABLE_COLUMNS } from "../../src/lib/content-limits";
import {
  IMAGE_BRACKET,
  MAX_BRACKETS,
  MAX_CONTAINERS,
  MAX_DEFINITIONS,
  MAX_HTML_TAGS,
  MAX_INLINE_WORK,
  MAX_LINES,
  MAX_NESTING,
  MAX_PUNCTUATION,
  MAX_SETEXT_UNDERLINES,
  MAX_SOURCE_LENGTH,
} from "../../src/lib/markdown-bounds";

/** `unit` repeated to just under `length` characters, plus `tail`. */
export function fill(unit: string, length = MAX_SOURCE_LENGTH, tail = ""): string {
  return unit.repeat(Math.floor((length - tail.length) / unit.length)) + tail;
}

const wideHeader = (n: number) => `a${"|a".repeat(n - 1)}\n-${"|-".repeat(n - 1)}\n`;

/** The table: n columns in the header and n body rows of one cell each, padded to n. */
export const wideTable = (n: number) => wideHeader(n) + "a|\n".repeat(n);

const codeUnit = "function add(a: number, b: number): number {\n  return a + b; // [sum] *x*\n}\n\n";
const prose = "The quick brown fox jumps over the lazy dog, and then some. ";
const indentedList = (depth: number, item = (i: number) => `item ${i}`) =>
  Array.from({ length: depth }, (_, i) => `${"  ".repeat(i)}- ${item(i)}\n`).join("");

/** name → markdown source. */
export const MARKDOWN_CORPUS: Record<string, string> = {
  "issue: table 250 x 250 (2 KB)": wideTable(250),
  "issue: table 1000 x 1000 (8 KB)": wideTable(1000),
  "issue: a~ x 60,000": "a~ ".repeat(60_000),
  "issue: '- ' x 10,000 + x": `${"- ".repeat(10_000)}x`,
  "prose, one paragraph": fill(prose),
  "prose, paragraphs": fill(`${prose}${prose}\n\n`),
  "table 64 columns, rows of one cell": fill("a|\n", MAX_SOURCE_LENGTH, "").replace(/^/, wideHeader(64)),
  "tables 64 wide, many": fill(`${wideHeader(64)}\n`),
  "table rows of many cells": `a|b\n-|-\n${fill("1|2|3|4|5|6|7|8|9|0\n", MAX_SOURCE_LENGTH - 8)}`,
  "star after word": fill("a* "),
  "star before word": fill("*a"),
  underscores: fill("a_ "),
  tildes: fill("~a"),
  "double tildes": fill("a~~ "),
  "close brackets": fill("a]"),
  "open brackets": fill("[a"),
  "image openers": fill("!["),
  "links without destinations": fill("[a]("),
  "unclosed angle destinations": fill("[a](<"),
  "nested brackets": fill("[", MAX_SOURCE_LENGTH / 2) + fill("]", MAX_SOURCE_LENGTH / 2),
  "backtick runs": fill("`a``"),
  "angle brackets": fill("<a"),
  "autolink-like": fill("<http://a"),
  entities: fill("&amp;"),
  "numeric entities": fill("&#x1F600;"),
  "quotes to escape": fill('"'),
  backslashes: fill("\\"),
  "www autolinks": fill("www.a.b "),
  "email autolinks": fill("a@b.c "),
  "reference definitions": fill("[a]: b\n"),
  "reference definitions, separate": fill("[a]: b\n\n"),
  "reference uses": `[a]: /x\n\n${fill("[a] ")}`,
  "footnote calls": fill("[^a]"),
  "footnote definitions": fill("[^a]: b\n"),
  "list markers on one line": `${"- ".repeat(99_999)}x`,
  "quote markers on one line": `${"> ".repeat(99_999)}x`,
  "quote markers without spaces": `${">".repeat(199_999)}x`,
  "ordered markers on one line": `${"1. ".repeat(66_666)}x`,
  "containers on each line": fill("- > x\n"),
  "nesting by indentation": Array.from({ length: 440 }, (_, i) => `${" ".repeat(2 * i)}- x\n`).join(""),
  "quotes nested line by line": Array.from({ length: 600 }, (_, i) => `${">".repeat(i)} x\n`).join(""),
  "deep quote, lazy lines": `${">".repeat(32)} x\n${fill("a\n", MAX_SOURCE_LENGTH - 40)}`,
  "flat list items": fill("- item\n"),
  "ordered list items": fill("1. item\n"),
  "setext headings": fill("a\n=\n"),
  "thematic breaks": fill("***\n"),
  "atx headings": fill("# a\n"),
  fences: fill("```\n"),
  "html blocks": fill("<div>\n"),
  "html comments": fill("<!--"),
  "short lists": fill("- one\n  - two\n    - three\n\n"),
  "short quotes": fill("> q\n\n"),
  "blank lines": fill("\n"),
  "hard breaks": fill("a  \n"),
  "lines of one paragraph": fill("ab\n"),
  "task list items": fill("- [ ] a\n"),
  "nested emphasis": fill("**a *b "),
  pipes: fill("|"),
  "whitespace before a letter": fill(" ", MAX_SOURCE_LENGTH, "x"),
  "whitespace before a dash row": fill("\t", MAX_SOURCE_LENGTH, "-|-x"),
  // Just inside each bound, the rest of the length filled with prose: the most work each lets through.
  "quotes at the container limit": fill(prose, MAX_SOURCE_LENGTH / 2, "> q\n\n".repeat(MAX_CONTAINERS)),
  "lines at the line limit": fill(prose, MAX_SOURCE_LENGTH / 2, `\n\n${"a  \n".repeat(MAX_LINES - 2)}`),
  "setext at the limit": fill(prose, MAX_SOURCE_LENGTH / 2, `\n\n${"a\n=\n\n".repeat(MAX_SETEXT_UNDERLINES)}`),
  "definitions at the limit": fill(prose, MAX_SOURCE_LENGTH / 2, `\n\n${"[a]: b\n\n".repeat(MAX_DEFINITIONS)}`),
  "table at the cell limit": wideHeader(MAX_TABLE_COLUMNS) + "a|\n".repeat(MAX_TABLE_CELLS / MAX_TABLE_COLUMNS - 3),
  "closers at the paragraph limit": "a~ ".repeat(Math.floor(Math.sqrt(MAX_INLINE_WORK)) - 1),
  "open brackets at the punctuation limit": fill("[a", 2 * MAX_PUNCTUATION),
  "backticks at the punctuation limit": fill("`a``", (4 * MAX_PUNCTUATION) / 3),
  "email autolinks at the punctuation limit": fill("a@b.c ", 3 * MAX_PUNCTUATION),
  "www autolinks at the punctuation limit": fill("www.a.b ", 4 * MAX_PUNCTUATION),
  "entities at the punctuation limit": fill("&amp;", (5 * MAX_PUNCTUATION) / 2),
  "nesting at the depth limit": fill(`${indentedList(MAX_NESTING, () => "x")}\n`, 20_000),
  // Raw HTML is scrubbed tag by tag, each fragment read by the HTML tokenizer; with attributes to remove, twice.
  "inline HTML at the punctuation limit": fill("<b>a</b> ", (9 * MAX_PUNCTUATION) / 5),
  "inline HTML to scrub at the tag limit": fill(
    prose,
    MAX_SOURCE_LENGTH / 2,
    "<i onclick=x>a</i> ".repeat(MAX_HTML_TAGS / 2),
  ),
  // markdown-it tries a link at every `[`, closed or not, and an image opener costs it most.
  "link openers at the bracket limit": fill(prose, MAX_SOURCE_LENGTH / 2, "[a".repeat(MAX_BRACKETS)),
  "image openers at the bracket limit": fill(prose, MAX_SOURCE_LENGTH / 2, "![a".repeat(MAX_BRACKETS / IMAGE_BRACKET)),
  "nested openers at the bracket limit": fill(
    prose,
    MAX_SOURCE_LENGTH / 2,
    "[![a".repeat(MAX_BRACKETS / (IMAGE_BRACKET + 1)),
  ),
  "links at the bracket limit": fill(prose, MAX_SOURCE_LENGTH / 2, `\n\n${"[a](/b) ".repeat(40)}\n\n`.repeat(50)),
};

/** Real long documents the bounds must accept. */
export const REAL_DOCUMENTS: Record<string, string> = {
  "100 000 characters of prose": fill(`${prose}${prose}${prose}\n\n`, 100_000),
  "75 000 characters of Chinese": fill("这是一段很长的中文内容，用来测试多字节文本。\n\n", 75_000),
  "a long code block": `\`\`\`ts\n${fill(codeUnit, 99_990)}\`\`\`\n`,
  "a table of 10 columns and 500 rows": `|a|b|c|d|e|f|g|h|i|j|\n|-|-|-|-|-|-|-|-|-|-|\n${"|1|2|3|4|5|6|7|8|9|0|\n".repeat(500)}`,
  "lists nested 10 deep": `${indentedList(10)}\n`.repeat(50),
  "a document with a bit of everything": fill(
    `# Title\n\n${prose.repeat(5)}\n\n` +
      "Some *emphasis*, __strong__, ~~struck~~, `code` and a [link](https://example.com).\n\n" +
      "- one\n  - two\n    - three\n\n> a quote\n>\n> more of it\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n" +
      `${prose.repeat(4)}\n\n`,
    100_000,
  ),
};

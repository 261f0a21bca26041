/**
 * HTML → markdown for clients that send only content_rendered (docs/content.md#validation): the stored markdown must be
 * editable later and render back to the same content. The input is read through the allow-list sanitiser
 * (lib/sanitize.ts), so only allowed elements reach the conversion: hast-util-to-mdast, then
 * mdast-util-to-markdown with GFM for tables, strikethrough and task lists. Markup markdown cannot express keeps
 * its text.
 *
 * The work is bounded before the conversion whatever the input (docs/content.md#html-input): the HTML is at most
 * MAX_RENDERED_BYTES and {@link MAX_TAGS} tags, tables at most MAX_TABLE_COLUMNS wide and, padded to
 * their widest row as markdown needs, MAX_TABLE_CELLS in all; the text at most MAX_SOURCE_LENGTH characters
 * (the markdown holds all of it, and no more is accepted); inline formatting nested deeper than
 * {@link MAX_INLINE_NESTING} keeps its text only. Anything over a bound is refused with a {@link ContentLimitError}.
 */
import type { Element, ElementContent, Root } from "hast";
import { defaultHandlers, type Handle, toMdast } from "hast-util-to-mdast";
import type { Nodes as MdastNodes } from "mdast";
import { gfmToMarkdown } from "mdast-util-gfm";
import { type Options, toMarkdown } from "mdast-util-to-markdown";
import { ContentLimitError, MAX_RENDERED_BYTES, MAX_TABLE_CELLS, MAX_TABLE_COLUMNS } from "./content-limits";
import {
  MAX_PUNCTUATION,
  MAX_SOURCE_LENGTH,
  punctuationIn,
  renderedTooLarge,
  tooMuchPunctuation,
} from "./markdown-bounds";
import { sanitizedTree } from "./sanitize";
import { utf8Length } from "./text-length";

/**
 * The most tags (start tags, comments, doctypes) the HTML may have. An element costs parse5, the sanitiser and
 * the conversion 30 to 90 µs of CPU (bench/html.ts; hast-util-to-mdast's whitespace pass and
 * mdast-util-to-markdown's escaping cost most), so this keeps every write under 50 ms: at 800 tags one run took
 * 63 ms. MDClub's own theme sends its editor's HTML alone, and a long article (60 paragraphs, lists, a few links,
 * headings and code blocks) has one to three hundred tags (docs/performance.md#content-pipeline-cpu).
 */
export const MAX_TAGS = 500;

/**
 * mdast-util-to-markdown's cost grows with the cube of nested emphasis, strong, strikethrough and links
 * (100 levels: 2 s), so formatting inside this many of them keeps its text only. Real text nests two or three.
 */
const MAX_INLINE_NESTING = 8;

/** The elements hast-util-to-mdast turns into nested phrasing: strong, emphasis, delete, link. */
const INLINE_CONTAINERS = new Set(["a", "b", "strong", "em", "i", "u", "mark", "del", "s", "strike"]);

const SECTIONS = ["thead", "tbody", "tfoot"];

const isElement = (node: Root["children"][number], tags: string[]): node is Element =>
  node.type === "element" && tags.includes(node.tagName);

/** The rows of a table (not of tables nested in it), as parse5 places them: in the table or in its sections. */
function rowsOf(table: Element): Element[] {
  const rows: Element[] = [];
  for (const child of table.children) {
    const inSection = child.type === "element" && SECTIONS.includes(child.tagName) ? child.children : [child];
    for (const row of inSection) if (isElement(row, ["tr"])) rows.push(row);
  }
  return rows;
}

/** children with the {@link INLINE_CONTAINERS} among them and their descendants replaced by their content. */
function unwrapInline(children: ElementContent[]): ElementContent[] {
  const out: ElementContent[] = [];
  const stack = [...children].reverse();
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.type === "element" && INLINE_CONTAINERS.has(node.tagName)) {
      for (const child of node.children.toReversed()) stack.push(child);
    } else out.push(node);
  }
  return out;
}

/**
 * Prepares the sanitised tree for the conversion within the bounds of the file comment: refuses text the
 * markdown could not hold, unwraps formatting nested too deep, and refuses tables the conversion would make too
 * big, counting cells as the markdown will have them (every row padded to the widest, a header row added).
 * Spans are removed: markdown cannot express them, and hast-util-to-mdast would pad the table out to a `colspan`
 * or `rowspan` of any size.
 */
function prepare(tree: Root): void {
  let cells = 0;
  let text = 0;
  let punctuation = 0;
  const stack: [Root | Element, number][] = [[tree, 0]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [node, inlineDepth] = next;
    // Only an element is ever that deep: the root counts none.
    if (inlineDepth >= MAX_INLINE_NESTING && node.type === "element") node.children = unwrapInline(node.children);
    for (const child of node.children) {
      if (child.type === "text") {
        text += child.value.length;
        if (text > MAX_SOURCE_LENGTH) {
          throw new ContentLimitError(`Content must be at most ${MAX_SOURCE_LENGTH} characters of markdown`);
        }
        // The markdown escapes these, so it has at least as many; converting them is the costly part.
        punctuation += punctuationIn(child.value);
        if (punctuation > MAX_PUNCTUATION) throw new ContentLimitError(tooMuchPunctuation());
      }
      if (child.type === "element") stack.push([child, inlineDepth + Number(INLINE_CONTAINERS.has(child.tagName))]);
    }
    if (node.type !== "element") continue;
    delete node.properties.colSpan;
    delete node.properties.rowSpan;
    if (node.tagName !== "table") continue;
    const rows = rowsOf(node);
    let widest = 1; // a loop: spreading thousands of rows into Math.max overflows the stack
    for (const row of rows) widest = Math.max(widest, row.children.filter((c) => isElement(c, ["td", "th"])).length);
    if (widest > MAX_TABLE_COLUMNS) throw new ContentLimitError(`Tables may have at most ${MAX_TABLE_COLUMNS} columns`);
    cells += (rows.length + 1) * widest;
    if (cells > MAX_TABLE_CELLS) throw new ContentLimitError(`Tables may have at most ${MAX_TABLE_CELLS} cells in all`);
  }
}

/** How many tags html has at most: each `<` before a letter, `!` or `?`; a cheap count made before parsing. */
function tags(html: string): number {
  let count = 0;
  for (let at = html.indexOf("<"); at >= 0; at = html.indexOf("<", at + 1)) {
    if (/[a-zA-Z!?]/.test(html[at + 1] ?? "")) count++;
  }
  return count;
}

/** Over the rendered-HTML bound in UTF-8 bytes; a string longer in UTF-16 units than it is over it in bytes too. */
function overRenderedLimit(html: string): boolean {
  return html.length > MAX_RENDERED_BYTES || utf8Length(html) > MAX_RENDERED_BYTES;
}

/** Where the library's conversion differs from what renders back to the same content. */
const handlers: Record<string, Handle> = {
  // A link without a (safe) href, or an image without a src, is its text: `[x]()` would render an empty link.
  a: (state, node: Element) => (node.properties.href === undefined ? state.all(node) : defaultHandlers.a(state, node)),
  img: (state, node: Element): MdastNodes | undefined => {
    if (node.properties.src !== undefined) return defaultHandlers.img(state, node);
    const alt = String(node.properties.alt ?? "").trim();
    return alt ? { type: "text", value: alt } : undefined;
  },
  // markdown writes <p> in list items only for a loose list, so an item is spread only if it has one; the
  // library's own guess counts a nested list of two items as spread, which would loosen the rendered list.
  li: (state, node: Element) => {
    const item = defaultHandlers.li(state, node);
    item.spread = node.children.some((child) => child.type === "element" && child.tagName === "p");
    return item;
  },
};

/** Made once: mdast-util-to-markdown caches the regular expressions it compiles on these objects. */
const MARKDOWN_OPTIONS: Options = {
  // Aligned pipes would pad every cell to its column's widest: one long cell would multiply the whole table.
  extensions: [gfmToMarkdown({ tablePipeAlign: false })],
  bullet: "-",
  bulletOther: "+",
  emphasis: "*",
  strong: "*",
  rule: "*",
  fences: true,
  listItemIndent: "one",
};

/**
 * Converts (and first sanitises) client HTML into markdown that renders to the same content.
 * @throws ContentLimitError when the input is over a bound (see the file comment).
 */
export function htmlToMarkdown(html: string): string {
  if (overRenderedLimit(html)) throw new ContentLimitError(renderedTooLarge());
  if (tags(html) > MAX_TAGS) throw new ContentLimitError(`Content may have at most ${MAX_TAGS} HTML tags`);
  const tree = sanitizedTree(html);
  prepare(tree);
  return toMarkdown(toMdast(tree, { handlers }), MARKDOWN_OPTIONS).trimEnd();
}

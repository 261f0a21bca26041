/**
 * HTML → markdown for clients that send only content_rendered (behaviour.md 4.6): the stored markdown must be
 * editable later and render back to the same content. The input is read through the allow-list sanitiser, so
 * only allowed elements reach the conversion; markup markdown cannot express keeps its text.
 */
import { decodeText, parseHtml, type HtmlElement, type HtmlNode } from "./sanitize";

const BLOCK = new Set([
  "address", "blockquote", "caption", "center", "col", "colgroup", "dd", "div", "dl", "dt", "figcaption", "figure",
  "h1", "h2", "h3", "h4", "h5", "h6", "hr", "li", "ol", "p", "pre", "table", "tbody", "td", "tfoot", "th", "thead",
  "tr", "ul",
]);

/** Canonical text's own escapes, decoded for markdown (`<` stays escaped: it could open an autolink). */
const DECODED: Record<string, string> = { amp: "&", lt: "\\<", gt: ">", quot: '"' };

const ALIGN: Record<string, string> = { left: ":---", center: ":---:", right: "---:" };

const element = <T extends string>(node: HtmlNode | undefined, tag: T): node is HtmlElement & { tag: T } =>
  typeof node === "object" && node.tag === tag;

/**
 * Escapes canonical text (see HtmlNode) for a markdown paragraph. `&amp;` stays a bare `&` unless it would
 * start a reference; names the sanitiser left undecoded stay references, which micromark decodes. `_` inside
 * a word cannot start emphasis, so snake_case stays readable.
 */
function escapeText(text: string): string {
  return text.replace(
    /&amp;(?=#?[a-zA-Z0-9]+;)|&(amp|lt|gt|quot);|&[a-zA-Z][a-zA-Z0-9]*;|[\\`*[\]~]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu,
    (match, name?: string) => {
      if (name !== undefined) return DECODED[name]!;
      if (match === "&amp;") return "\\&";
      return match.startsWith("&") ? match : `\\${match}`;
    },
  );
}

/** A plain string (an attribute) as markdown inline text. */
function escapePlain(value: string): string {
  return escapeText(value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"));
}

function plainText(nodes: HtmlNode[]): string {
  return nodes
    .map((n) => (typeof n === "string" ? decodeText(n) : n.tag === "br" ? "\n" : plainText(n.children)))
    .join("");
}

/**
 * Where the content between edge spaces and line breaks lies. A loop: an end-anchored regex backtracks
 * quadratically on long runs. (Inline markdown holds "\n" only for <br>, see inlineElement.)
 */
function edges(markdown: string): [start: number, end: number] {
  let start = 0;
  let end = markdown.length;
  while (start < end && (markdown[start] === " " || markdown[start] === "\n")) start++;
  while (end > start && (markdown[end - 1] === " " || markdown[end - 1] === "\n")) end--;
  return [start, end];
}

/** Moves edge spaces and breaks outside the markers: `** x**` would not be emphasis. */
function wrap(marker: string, content: string): string {
  const [start, end] = edges(content);
  if (start === end) return content;
  return `${content.slice(0, start)}${marker}${content.slice(start, end)}${marker}${content.slice(end)}`;
}

/** A fence of backticks longer than any run inside the code. */
function fenceFor(code: string, shortest: number): string {
  let longest = 0;
  for (const run of code.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return "`".repeat(Math.max(shortest, longest + 1));
}

function codeSpan(text: string): string {
  const code = text.replace(/\n/g, " ");
  if (!code) return "";
  const fence = fenceFor(code, 1);
  // CommonMark strips one space from each side of a code span, and a fence cannot touch a content backtick.
  const spaced = code.startsWith(" ") && code.endsWith(" ") && /[^ ]/.test(code);
  const pad = spaced || code.startsWith("`") || code.endsWith("`") ? " " : "";
  return `${fence}${pad}${code}${pad}${fence}`;
}

function destination(url: string): string {
  return url
    .replace(/[\\()]|&(?=#?[a-zA-Z0-9]+;)/g, "\\$&")
    .replace(/[\s<>]/g, (c) => encodeURIComponent(c));
}

function title(value: string | undefined): string {
  return value ? ` "${value.replace(/\s+/g, " ").replace(/["\\]|&(?=#?[a-zA-Z0-9]+;)/g, "\\$&")}"` : "";
}

function inline(nodes: HtmlNode[], inLink = false): string {
  return nodes
    .map((n) => (typeof n === "string" ? escapeText(n.replace(/[\t\n\f\r ]+/g, " ")) : inlineElement(n, inLink)))
    .join("");
}

function inlineElement(el: HtmlElement, inLink: boolean): string {
  const content = () => inline(el.children, inLink || el.tag === "a");
  switch (el.tag) {
    case "strong":
    case "b":
      return wrap("**", content());
    case "em":
    case "i":
      return wrap("*", content());
    case "del":
    case "s":
      return wrap("~~", content());
    case "code":
    case "tt":
      return codeSpan(plainText(el.children));
    case "br":
      return "\n"; // the hard break "\\\n" is written by paragraph, once edges are trimmed
    case "input":
      return el.attrs.checked === undefined ? "[ ]" : "[x]";
    case "img": {
      const alt = escapePlain((el.attrs.alt ?? "").replace(/\s+/g, " "));
      return el.attrs.src === undefined ? alt : `![${alt}](${destination(el.attrs.src)}${title(el.attrs.title)})`;
    }
    case "a":
      // Markdown links cannot nest; rel and target are dropped (rendering sets rel again).
      return inLink || el.attrs.href === undefined
        ? content()
        : `[${content()}](${destination(el.attrs.href)}${title(el.attrs.title)})`;
    default:
      return BLOCK.has(el.tag) ? ` ${content()} ` : content();
  }
}

/** Inline markdown as a paragraph: trimmed, and nothing at a line start that would begin another block. */
function paragraph(markdown: string): string {
  return markdown
    .slice(...edges(markdown))
    .replace(/ {2,}/g, " ") // where text nodes meet; HTML collapses these anyway
    .replace(/ ?\n ?/g, "\\\n")
    .replace(/^([#>+=|:-])/gm, "\\$1")
    .replace(/^(\d+)([.)])/gm, "$1\\$2");
}

/** For headings and table cells, which are one line. */
function oneLine(markdown: string): string {
  return paragraph(markdown.replace(/\n/g, " "));
}

/** `previous` is the block before the list: if it is a list with the same marker, the two would merge. */
function list(el: HtmlElement, previous: string | undefined): string {
  const items: HtmlNode[][] = [];
  for (const child of el.children) {
    if (element(child, "li")) items.push(child.children);
    else if (typeof child !== "string" || child.trim()) (items.at(-1) ?? (items[0] = [])).push(child);
  }
  // micromark writes <p> in list items only for a loose list; joining with blank lines keeps it loose.
  const loose = el.children.some((li) => element(li, "li") && li.children.some((c) => element(c, "p")));
  const gap = loose ? "\n\n" : "\n";
  const ordered = el.tag === "ol";
  const other = previous !== undefined && (ordered ? /^\d+\./ : /^-(?: |$)/).test(previous);
  return items
    .map((children, i) => {
      const marker = ordered ? `${i + 1}${other ? ")" : "."}` : other ? "+" : "-";
      const indent = " ".repeat(marker.length + 1);
      const lines = blocks(children).join(gap).split("\n");
      const body = lines.map((line, j) => (j && line ? indent + line : line)).join("\n");
      return body ? `${marker} ${body}` : marker;
    })
    .join(gap);
}

function table(el: HtmlElement, out: string[]): void {
  const rows: HtmlElement[] = [];
  for (const child of el.children) {
    if (element(child, "tr")) rows.push(child);
    else if (element(child, "caption")) blocks(child.children, out);
    else if (typeof child === "object" && ["thead", "tbody", "tfoot"].includes(child.tag)) {
      for (const row of child.children) if (element(row, "tr")) rows.push(row);
    }
  }
  const cells = rows.map((tr) => tr.children.filter((c) => element(c, "td") || element(c, "th")));
  const [header, ...body] = cells;
  if (!header) {
    blocks(el.children.filter((c) => !element(c, "caption")), out);
    return;
  }
  const width = cells.reduce((widest, row) => Math.max(widest, row.length), 1);
  const line = (row: (HtmlElement | undefined)[], cell: (c: HtmlElement | undefined) => string) =>
    `| ${Array.from({ length: width }, (_, i) => cell(row[i])).join(" | ")} |`;
  // GFM splits cells at every unescaped pipe, even inside code spans, before reading inline markdown.
  const text = (c: HtmlElement | undefined) => (c ? oneLine(inline(c.children)).replace(/\|/g, "\\|") : "");
  const align = (c: HtmlElement | undefined) => ALIGN[c?.attrs.align?.toLowerCase() ?? ""] ?? "---";
  out.push([line(header, text), line(header, align), ...body.map((row) => line(row, text))].join("\n"));
}

/** Appends the markdown blocks of el to out (arrays are passed down: spreading a long one overflows the stack). */
function block(el: HtmlElement, out: string[]): void {
  switch (el.tag) {
    case "h1":
    case "h2":
    case "h3":
    case "h4":
    case "h5":
    case "h6": {
      // A trailing `#` would be read as the optional closing sequence.
      const text = oneLine(inline(el.children)).replace(/#$/, "\\#");
      if (text) out.push(`${"#".repeat(Number(el.tag[1]))} ${text}`);
      return;
    }
    case "hr":
      out.push("***"); // `---` under a paragraph line would make it a heading
      return;
    case "pre": {
      const code = plainText(el.children).replace(/\n$/, "");
      const fence = fenceFor(code, 3);
      out.push(`${fence}\n${code}\n${fence}`);
      return;
    }
    case "blockquote": {
      const inner = blocks(el.children).join("\n\n");
      if (inner) out.push(inner.replace(/^/gm, "> ").replace(/^> $/gm, ">"));
      return;
    }
    case "ul":
    case "ol":
      out.push(list(el, out.at(-1)));
      return;
    case "table":
      table(el, out);
      return;
    default:
      blocks(el.children, out);
  }
}

/** Block markdown for a sequence of nodes: runs of inline nodes become paragraphs. */
function blocks(nodes: HtmlNode[], out: string[] = []): string[] {
  let run: HtmlNode[] = [];
  const flush = () => {
    const text = paragraph(inline(run));
    if (text) out.push(text);
    run = [];
  };
  for (const node of nodes) {
    if (typeof node === "object" && BLOCK.has(node.tag)) {
      flush();
      block(node, out);
    } else run.push(node);
  }
  flush();
  return out;
}

/** Converts (and first sanitises) client HTML into markdown that renders to the same content. */
export function htmlToMarkdown(html: string): string {
  return blocks(parseHtml(html)).join("\n\n");
}

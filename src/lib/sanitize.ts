/**
 * The HTML allow-list of behaviour.md 4.6, as a small tokenizer (Workers have no DOM). The input is read
 * leniently into a tree that holds allowed elements only; the tree is then written out canonically:
 * lower-case names, double-quoted re-escaped attributes, escaped text, every element closed. Safety rests on
 * that writer, not on reading input exactly like a browser: whatever the input, a browser parsing the output
 * sees only allowed tags, checked attributes and text, and reading the output again yields the same tree
 * (so sanitizeHtml is idempotent). {@link MarkupScrubber} applies the same allow-list tag by tag, without a tree,
 * to the raw HTML inside markdown source.
 */

export interface HtmlElement {
  tag: string;
  /** Decoded values, in input order; names are on the allow-list. */
  attrs: Record<string, string>;
  children: HtmlNode[];
}

/**
 * A string is text in canonical form: `&`, `<`, `>` escaped, character references decoded except named ones
 * outside {@link NAMED}, which are kept as written so a browser (or micromark, for htmlToMarkdown) decodes them.
 */
export type HtmlNode = HtmlElement | string;

const TABLE_PART = ["align", "valign"];
const COLUMN = ["align", "valign", "span", "width"];
const CELL = ["width", "rowspan", "colspan", "align", "valign"];
const PLAIN =
  "address b big br caption center cite code dd del div dl dt em h1 h2 h3 h4 h5 h6 hr i ins li ol p pre s small span " +
  "sub sup strong tt u ul figure figcaption audio video mark";

const ALLOWED = new Map<string, ReadonlySet<string>>([
  ...PLAIN.split(" ").map((tag) => [tag, new Set<string>()] as const),
  ["a", new Set(["href", "target", "title", "rel"])],
  ["abbr", new Set(["title"])],
  ["blockquote", new Set(["cite"])],
  ["col", new Set(COLUMN)],
  ["colgroup", new Set(COLUMN)],
  ["font", new Set(["color", "size", "face"])],
  ["img", new Set(["src", "alt", "title", "width", "height"])],
  ["table", new Set(["width", "border", "align", "valign"])],
  ["tbody", new Set(TABLE_PART)],
  ["tfoot", new Set(TABLE_PART)],
  ["thead", new Set(TABLE_PART)],
  ["tr", new Set(TABLE_PART)],
  ["td", new Set(CELL)],
  ["th", new Set(CELL)],
  // Only the checkbox micromark writes for a GFM task-list item; any other input type is dropped.
  ["input", new Set(["type", "checked", "disabled"])],
]);

const VOID = new Set(["br", "hr", "img", "col", "input"]);
const URL_ATTRS = new Set(["href", "src", "cite"]);
const BOOLEAN_ATTRS = new Set(["checked", "disabled"]);

/** Elements whose content is raw text up to their end tag: dropped with it. */
const RAW_TEXT = new Set(["script", "style", "iframe", "noembed", "noframes", "noscript", "textarea", "title", "xmp"]);
/** Elements whose content is markup that must not leak out as text or tags: dropped up to the matching end tag. */
const DROP_SUBTREE = new Set(["svg", "math", "template", "object"]);

/** Deeper input is flattened so that the recursive writers here and in html-to-markdown cannot overflow. */
const MAX_DEPTH = 100;

/**
 * Named references decoded here: the markup-significant ones, and the ASCII punctuation ones, so that a URL
 * scheme spelled with them (`javascript&colon;`) is seen and refused. Any other name stays as written in text
 * and is taken literally in attributes (its `&` is escaped on output), so what is checked is what a browser uses.
 */
const NAMED: Record<string, string> = {
  amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0", Tab: "\t", NewLine: "\n",
  colon: ":", sol: "/", bsol: "\\", num: "#", quest: "?", period: ".", comma: ",", semi: ";", excl: "!",
  lpar: "(", rpar: ")", lsqb: "[", rsqb: "]", lcub: "{", rcub: "}", commat: "@", percnt: "%", equals: "=",
  plus: "+", ast: "*", lowbar: "_", grave: "`", verbar: "|", Hat: "^", dollar: "$",
};

const REFERENCE = /&(?:#(\d+);?|#[xX]([0-9a-fA-F]+);?|([a-zA-Z][a-zA-Z0-9]*);)/g;

function codePoint(digits: string, radix: number): string {
  const n = Number.parseInt(digits, radix);
  const valid = n > 0 && n <= 0x10ffff && (n < 0xd800 || n > 0xdfff);
  return String.fromCodePoint(valid ? n : 0xfffd);
}

/** Decodes numeric references and the {@link NAMED} ones; other `&name;` stay literal. */
function decodeEntities(value: string): string {
  return value.replace(REFERENCE, (match, dec?: string, hex?: string, name?: string) => {
    if (dec !== undefined) return codePoint(dec, 10);
    if (hex !== undefined) return codePoint(hex, 16);
    return Object.hasOwn(NAMED, name!) ? NAMED[name!]! : match;
  });
}

function escapeText(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function escapeAttribute(value: string): string {
  return escapeText(value).replace(/"/g, "&quot;");
}

/** Raw input text → canonical text (see {@link HtmlNode}). */
function canonicalText(raw: string): string {
  return raw.replace(/&(?:#\d+;?|#[xX][0-9a-fA-F]+;?|([a-zA-Z][a-zA-Z0-9]*);)|[&<>]/g, (match, name?: string) =>
    name !== undefined && !Object.hasOwn(NAMED, name) ? match : escapeText(decodeEntities(match)),
  );
}

/** Canonical text → plain text. */
export function decodeText(text: string): string {
  return text.replace(/&(amp|lt|gt);/g, (_m, name: string) => NAMED[name]!);
}

/**
 * A URL a browser may follow: http, https, mailto, or relative (including `//host` and `#fragment`).
 * Browsers drop tabs and newlines anywhere and trim controls and spaces at the ends, so the value is cleaned
 * the same way. The scheme test then ignores every control, space and invisible character, and counts any
 * colon before the first `/?#` as a scheme: `java\0script:` is refused although a browser would not run it.
 */
function safeUrl(value: string): string | null {
  const url = trimControls(value.replace(/[\t\n\r]/g, ""));
  const probe = url.replace(/[\0- \x7f-\xa0\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]/g, "");
  if (!probe) return null;
  const hasScheme = probe[probe.search(/[/?#:]/)] === ":";
  return hasScheme && !/^(?:https?|mailto):/i.test(probe) ? null : url;
}

/** Whether a URL as written in markup (character references not yet decoded) is one the allow-list keeps. */
export function isSafeUrl(raw: string): boolean {
  return safeUrl(decodeEntities(raw)) !== null;
}

/** Trims C0 controls and spaces; a loop, as an end-anchored regex backtracks quadratically on long runs. */
function trimControls(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && value.charCodeAt(start) <= 0x20) start++;
  while (end > start && value.charCodeAt(end - 1) <= 0x20) end--;
  return value.slice(start, end);
}

/** Absolute http(s) or protocol-relative: a link that leaves the site. */
function isExternal(url: string): boolean {
  return /^(?:https?:)?\/\//i.test(url);
}

function cleanAttributes(tag: string, raw: [string, string][]): Record<string, string> | null {
  const allowed = ALLOWED.get(tag)!;
  const attrs: Record<string, string> = {};
  for (const [name, rawValue] of raw) {
    // The first of duplicate attributes wins, as in browsers.
    if (!allowed.has(name) || Object.hasOwn(attrs, name)) continue;
    const value = decodeEntities(rawValue);
    if (URL_ATTRS.has(name)) {
      const url = safeUrl(value);
      if (url !== null) attrs[name] = url;
    } else attrs[name] = BOOLEAN_ATTRS.has(name) ? "" : value;
  }
  if (tag === "input" && attrs.type?.toLowerCase() !== "checkbox") return null;
  if (tag === "input") attrs.type = "checkbox";
  // DECISIONS.md "Content": external links get rel="nofollow noopener", whatever rel the input had.
  if (tag === "a" && attrs.href !== undefined && isExternal(attrs.href)) attrs.rel = "nofollow noopener";
  return attrs;
}

interface Tag {
  name: string;
  attrs: [string, string][];
  /** An end tag (`</name>`). */
  closing: boolean;
  selfClosing: boolean;
  /** Index just past the closing `>`. */
  end: number;
}

const isSpace = (c: string | undefined) => c === " " || c === "\n" || c === "\t" || c === "\f" || c === "\r";

/**
 * Reads a tag's name and attributes from `start` (just past `<` or `</`) the way the HTML tokenizer does.
 * Returns null when the input ends inside the tag: browsers drop such a tag, and so does the caller.
 */
function readTag(html: string, start: number, closing: boolean): Tag | null {
  let i = start;
  while (i < html.length && !isSpace(html[i]) && html[i] !== "/" && html[i] !== ">") i++;
  const tag: Tag = { name: html.slice(start, i).toLowerCase(), attrs: [], closing, selfClosing: false, end: 0 };
  for (;;) {
    while (i < html.length && (isSpace(html[i]) || html[i] === "/")) {
      tag.selfClosing = html[i] === "/" && html[i + 1] === ">";
      i++;
    }
    if (i >= html.length) return null;
    if (html[i] === ">") {
      tag.end = i + 1;
      return tag;
    }
    const nameStart = i++; // a first `=` belongs to the name
    while (i < html.length && !isSpace(html[i]) && !"/>=".includes(html[i]!)) i++;
    const name = html.slice(nameStart, i).toLowerCase();
    let j = i;
    while (j < html.length && isSpace(html[j])) j++;
    let value = "";
    if (html[j] === "=") {
      j++;
      while (j < html.length && isSpace(html[j])) j++;
      const quote = html[j];
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, j + 1);
        if (close < 0) return null;
        value = html.slice(j + 1, close);
        j = close + 1;
      } else {
        const valueStart = j;
        while (j < html.length && !isSpace(html[j]) && html[j] !== ">") j++;
        value = html.slice(valueStart, j);
      }
      i = j;
    }
    tag.attrs.push([name, value]);
  }
}

/**
 * What a `<` starts: text (not markup), a tag the input ends inside (browsers drop it), a comment-like construct
 * (comment, CDATA, doctype, processing instruction, bogus comment; unterminated, it runs to the end as in
 * browsers), or a start or end tag.
 */
type Markup =
  | { type: "text" }
  | { type: "unclosed" }
  | { type: "comment"; end: number }
  | { type: "tag"; tag: Tag };

const isLetter = (c: string | undefined) => c !== undefined && /[a-zA-Z]/.test(c);

/** Index just past `terminator` searched from `from`, or the end of the input. */
function pastOrEnd(html: string, terminator: string, from: number): number {
  const at = html.indexOf(terminator, from);
  return at < 0 ? html.length : at + terminator.length;
}

/** Reads the markup starting at the `<` at html[lt]. */
function readMarkup(html: string, lt: number): Markup {
  const next = html[lt + 1];
  if (html.startsWith("<!--", lt)) {
    const empty = /^<!---?>/.exec(html.slice(lt, lt + 6));
    return { type: "comment", end: empty ? lt + empty[0].length : pastOrEnd(html, "-->", lt + 4) };
  }
  if (html.startsWith("<![CDATA[", lt)) return { type: "comment", end: pastOrEnd(html, "]]>", lt + 9) };
  // A doctype, processing instruction, `</>` or bogus comment.
  if (next === "!" || next === "?" || (next === "/" && !isLetter(html[lt + 2]))) {
    return { type: "comment", end: pastOrEnd(html, ">", lt + 2) };
  }
  const closing = next === "/";
  if (!isLetter(closing ? html[lt + 2] : next)) return { type: "text" };
  const tag = readTag(html, lt + (closing ? 2 : 1), closing);
  return tag ? { type: "tag", tag } : { type: "unclosed" };
}

/**
 * Whether a start tag opens an element that is dropped with its content, and how that content ends: raw text
 * at the first end tag of the element, markup at the matching one.
 */
function dropsContent(tag: Tag): "raw text" | "markup" | null {
  if (tag.closing) return null;
  if (RAW_TEXT.has(tag.name)) return "raw text";
  // In SVG and MathML a self-closing tag has no content; elsewhere `/>` is ignored.
  const selfClosed = tag.selfClosing && (tag.name === "svg" || tag.name === "math");
  return DROP_SUBTREE.has(tag.name) && !selfClosed ? "markup" : null;
}

/** Where the raw text of element `name` that starts at `from` ends: at its end tag, or the end of the input. */
function rawTextEnd(html: string, name: string, from: number): number {
  const end = new RegExp(`</${name}[\\t\\n\\f\\r />]`, "ig");
  end.lastIndex = from;
  return end.exec(html)?.index ?? html.length;
}

/** Reads html into a tree of allowed elements (see the file comment). */
export function parseHtml(input: string): HtmlNode[] {
  // The HTML input stream normalises newlines; NUL is never meaningful and only serves to split keywords.
  const html = input.replace(/\r\n?/g, "\n").replace(/\0/g, "");
  const root: HtmlElement = { tag: "", attrs: {}, children: [] };
  const open: HtmlElement[] = [root];
  let dropping: { tag: string; depth: number } | null = null;
  let pos = 0;

  const addText = (raw: string) => {
    if (!raw || dropping) return;
    const children = open.at(-1)!.children;
    const last = children.at(-1);
    const text = canonicalText(raw);
    if (typeof last === "string") children[children.length - 1] = last + text;
    else children.push(text);
  };
  while (pos < html.length) {
    const lt = html.indexOf("<", pos);
    if (lt < 0) {
      addText(html.slice(pos));
      break;
    }
    addText(html.slice(pos, lt));
    const markup = readMarkup(html, lt);
    if (markup.type === "unclosed") break;
    if (markup.type === "text") {
      addText("<");
      pos = lt + 1;
      continue;
    }
    if (markup.type === "comment") {
      pos = markup.end;
      continue;
    }
    const { tag } = markup;
    pos = tag.end;
    if (tag.closing) {
      if (dropping) {
        if (tag.name === dropping.tag && --dropping.depth === 0) dropping = null;
        continue;
      }
      const at = open.findLastIndex((el) => el.tag === tag.name);
      if (at > 0) open.length = at; // closes it and everything left open inside it
      continue;
    }
    if (tag.name === "plaintext") break; // the rest of the document is its text
    const drops = dropsContent(tag);
    if (drops === "raw text") {
      pos = rawTextEnd(html, tag.name, pos); // its end tag is then read (and ignored) as any other
      continue;
    }
    if (dropping) {
      if (tag.name === dropping.tag && !tag.selfClosing) dropping.depth++;
      continue;
    }
    if (drops) dropping = { tag: tag.name, depth: 1 };
    if (!ALLOWED.has(tag.name) || open.length > MAX_DEPTH) continue;
    const attrs = cleanAttributes(tag.name, tag.attrs);
    if (!attrs) continue;
    const el: HtmlElement = { tag: tag.name, attrs, children: [] };
    open.at(-1)!.children.push(el);
    if (!VOID.has(el.tag)) open.push(el);
  }
  return root.children;
}

function startTag(tag: string, attrs: Record<string, string>): string {
  let out = `<${tag}`;
  for (const [name, value] of Object.entries(attrs)) out += ` ${name}="${escapeAttribute(value)}"`;
  return out + (VOID.has(tag) ? " />" : ">");
}

/** An allowed tag as {@link serializeHtml} writes it; null for any other tag, and for end tags of void elements. */
function writeTag(tag: Tag): string | null {
  if (!ALLOWED.has(tag.name)) return null;
  if (tag.closing) return VOID.has(tag.name) ? null : `</${tag.name}>`;
  const attrs = cleanAttributes(tag.name, tag.attrs);
  return attrs && startTag(tag.name, attrs);
}

function serializeHtml(nodes: HtmlNode[]): string {
  let out = "";
  for (const node of nodes) {
    if (typeof node === "string") {
      out += node;
      continue;
    }
    out += startTag(node.tag, node.attrs);
    if (!VOID.has(node.tag)) out += `${serializeHtml(node.children)}</${node.tag}>`;
  }
  return out;
}

/**
 * The allow-list applied tag by tag, for the raw HTML in markdown source, which comes in fragments (an HTML
 * block, an inline tag) with markdown between them. No tree is built and nothing is balanced, so the markdown
 * around each tag keeps its meaning: an allowed tag is rewritten as {@link sanitizeHtml} writes it, any other
 * tag, comment, CDATA, doctype or processing instruction is removed, and so is the content of the elements
 * sanitizeHtml drops with it (script, style, svg, …), up to their end tag in this or a later fragment; the
 * caller passes the markdown between fragments through {@link keep} meanwhile. A `<` that starts a tag the
 * fragment does not close would swallow whatever a renderer writes after the fragment, so it and every later
 * `<` of the fragment are escaped instead.
 */
export class MarkupScrubber {
  private dropping: { tag: string; raw: boolean; depth: number } | null = null;

  /** Text outside the fragments: kept unless it lies inside dropped content. */
  keep(text: string): string {
    return this.dropping ? "" : text;
  }

  scrub(html: string): string {
    let out = "";
    let pos = 0;
    while (pos < html.length) {
      // Raw text (a script's, say) ends at the first end tag of its element, whatever else it holds.
      const lt = this.dropping?.raw ? rawTextEnd(html, this.dropping.tag, pos) : html.indexOf("<", pos);
      if (lt < 0 || lt === html.length) return out + this.keep(html.slice(pos));
      out += this.keep(html.slice(pos, lt));
      const markup = readMarkup(html, lt);
      if (markup.type === "unclosed") return out + this.keep(html.slice(lt).replace(/</g, "&lt;"));
      if (markup.type === "text") {
        out += this.keep("<");
        pos = lt + 1;
      } else if (markup.type === "comment") pos = markup.end;
      else {
        out += this.tag(markup.tag);
        pos = markup.tag.end;
      }
    }
    return out;
  }

  private tag(tag: Tag): string {
    const dropping = this.dropping;
    if (dropping) {
      if (tag.name !== dropping.tag) return "";
      if (tag.closing) {
        if (--dropping.depth === 0) this.dropping = null;
      } else if (!dropping.raw && !tag.selfClosing) dropping.depth++;
      return "";
    }
    const drops = dropsContent(tag);
    if (drops) {
      this.dropping = { tag: tag.name, raw: drops === "raw text", depth: 1 };
      return "";
    }
    return writeTag(tag) ?? "";
  }
}

/** The allow-list sanitiser of behaviour.md 4.6 (see the file comment). */
export function sanitizeHtml(html: string): string {
  return serializeHtml(parseHtml(html));
}

function textOf(nodes: HtmlNode[]): string {
  return nodes.map((node) => (typeof node === "string" ? decodeText(node) : textOf(node.children))).join("");
}

/** The text of html with tags removed and entities decoded (behaviour.md 4.6 measures content by it). */
export function stripTags(html: string): string {
  return textOf(parseHtml(html));
}

/**
 * content_summary (behaviour.md 2.1): the first `length` characters of the tag-stripped text, counted in code
 * points as the reference counts multibyte text. Whitespace runs become one space: a summary is one line.
 */
export function contentSummary(html: string, length = 80): string {
  const text = stripTags(html).replace(/\s+/g, " ").trim();
  return Array.from(text).slice(0, length).join("");
}

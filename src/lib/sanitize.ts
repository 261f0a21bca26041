/**
 * The HTML allow-list of docs/content.md#validation. HTML is read by parse5, a spec-compliant parser (Workers have no
 * DOM), into a hast tree that hast-util-sanitize cuts down to the allow-list; the rules the schema cannot state (safe
 * URLs, rel on external links, the task-list checkbox) are then applied by {@link cleanAttributes}, and the tree
 * is written out canonically: lower-case names, double-quoted escaped attributes, escaped text, every element
 * closed. A browser parsing the output sees only allowed tags, checked attributes and text, and reading the output
 * again yields the same tree (so sanitizeHtml is idempotent). {@link MarkupScrubber} applies the same allow-list
 * and the same writer tag by tag, as parse5's tokenizer reads them but without a tree, to the raw HTML inside
 * markdown source.
 */
import type { Element, Root, RootContent } from "hast";
import { fromParse5 } from "hast-util-from-parse5";
import { type Schema, sanitize } from "hast-util-sanitize";
import {
  type DefaultTreeAdapterMap,
  defaultTreeAdapter,
  ErrorCodes,
  parseFragment,
  type Token,
  Tokenizer,
  TokenizerMode,
} from "parse5";
import { find, html as htmlSchema } from "property-information";

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
  // Only the checkbox of a GFM task-list item; any other input type is dropped.
  ["input", new Set(["type", "checked", "disabled"])],
]);

const VOID = new Set(["br", "hr", "img", "col", "input"]);
const URL_ATTRS = new Set(["href", "src", "cite"]);
const BOOLEAN_ATTRS = new Set(["checked", "disabled"]);

/** Elements whose content is raw text up to their end tag: dropped with it. */
const RAW_TEXT = new Set(["script", "style", "iframe", "noembed", "noframes", "noscript", "textarea", "title", "xmp"]);
/** Elements whose content is markup that must not leak out as text or tags: dropped up to the matching end tag. */
const DROP_SUBTREE = new Set(["svg", "math", "template", "object"]);
/** Every element dropped with its content; other elements off the list are unwrapped (their text is kept). */
const DROPPED = new Set([...RAW_TEXT, ...DROP_SUBTREE]);

/**
 * Named references decoded here: the markup-significant ones, and the ASCII punctuation ones, so that a URL
 * scheme spelled with them (`javascript&colon;`) is seen and refused. Any other name is taken literally in
 * attributes (its `&` is escaped on output), so what is checked is what a browser uses.
 */
const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  Tab: "\t",
  NewLine: "\n",
  colon: ":",
  sol: "/",
  bsol: "\\",
  num: "#",
  quest: "?",
  period: ".",
  comma: ",",
  semi: ";",
  excl: "!",
  lpar: "(",
  rpar: ")",
  lsqb: "[",
  rsqb: "]",
  lcub: "{",
  rcub: "}",
  commat: "@",
  percnt: "%",
  equals: "=",
  plus: "+",
  ast: "*",
  lowbar: "_",
  grave: "`",
  verbar: "|",
  Hat: "^",
  dollar: "$",
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
    const named = name !== undefined && Object.hasOwn(NAMED, name) ? NAMED[name] : undefined;
    return named ?? match;
  });
}

/** Text as HTML writes it: quotes need no escape outside attributes. */
export function escapeText(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function escapeAttribute(value: string): string {
  return escapeText(value).replace(/"/g, "&quot;");
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

/**
 * Stand-ins for the site's own origin, which content is rendered without knowing. Both schemes are tried because
 * the same href can leave or stay depending on the page's: `http:evil.com` is the page's own `/evil.com` on an
 * http page and `http://evil.com/` on an https one.
 */
const SITE_BASES = ["http://site.invalid/a/", "https://site.invalid/a/"];

/**
 * A path, query or fragment that a browser can only resolve on the site itself, decided without parsing it: no
 * scheme (no colon), no backslash, no control or space (which URL parsing drops or trims), and no `//` at the start.
 * Links in content are mostly these, and the full check parses each URL twice.
 */
const ON_SITE = /^(?:[^/\\:\0- \x7f]|\/(?![/\\]))[^\\:\0- \x7f]*$/;

/**
 * Whether a safe URL leads off the site, resolved as a browser resolves it (`\\evil.com`, `/\evil.com` and
 * `//evil.com` are other hosts); mailto links lead to no page and are not external.
 */
export function isExternal(url: string): boolean {
  if (ON_SITE.test(url)) return false;
  return SITE_BASES.some((base) => {
    const target = URL.parse(url, base);
    return target === null || (target.protocol.startsWith("http") && target.host !== "site.invalid");
  });
}

/**
 * The rules of the allow-list for one element's attributes (values decoded), in input order. Null when the
 * element itself must go: an input that is not a checkbox.
 */
function cleanAttributes(tag: string, decoded: Iterable<[string, string]>): Record<string, string> | null {
  const allowed = ALLOWED.get(tag);
  if (!allowed) throw new Error(`<${tag}> reached the attribute rules but is not in the allow-list`);
  const attrs: Record<string, string> = {};
  for (const [name, value] of decoded) {
    // The first of duplicate attributes wins, as in browsers.
    if (!allowed.has(name) || Object.hasOwn(attrs, name)) continue;
    if (URL_ATTRS.has(name)) {
      const url = safeUrl(value);
      if (url !== null) attrs[name] = url;
    } else attrs[name] = BOOLEAN_ATTRS.has(name) ? "" : value;
  }
  if (tag === "input" && attrs.type?.toLowerCase() !== "checkbox") return null;
  if (tag === "input") attrs.type = "checkbox";
  // External links get rel="nofollow noopener", whatever rel the input had (README, Security).
  if (tag === "a" && attrs.href !== undefined && isExternal(attrs.href)) attrs.rel = "nofollow noopener";
  return attrs;
}

function startTag(tag: string, attrs: Record<string, string>): string {
  let out = `<${tag}`;
  for (const [name, value] of Object.entries(attrs)) out += ` ${name}="${escapeAttribute(value)}"`;
  return out + (VOID.has(tag) ? " />" : ">");
}

/**
 * The allow-list as hast-util-sanitize's schema (hast names attributes by their DOM property: `colSpan`). Every
 * field is set, as the library fills missing ones from its GitHub defaults; URLs, and what an input must be, are
 * checked by {@link cleanAttributes} instead.
 */
const SCHEMA: Schema = {
  tagNames: [...ALLOWED.keys()],
  attributes: Object.fromEntries(
    [...ALLOWED].map(([tag, attrs]) => [tag, [...attrs].map((name) => find(htmlSchema, name).property)]),
  ),
  strip: [...DROPPED],
  allowComments: false,
  allowDoctypes: false,
  ancestors: {},
  clobber: [],
  clobberPrefix: "",
  protocols: {},
  required: {},
};

/** An element's attributes as name and string value, as written in HTML. */
function* attributesOf(el: Element): Generator<[string, string]> {
  for (const [property, value] of Object.entries(el.properties)) {
    if (value === undefined || value === null || value === false) continue;
    const info = find(htmlSchema, property);
    const text = value === true ? "" : Array.isArray(value) ? value.join(info.commaSeparated ? ", " : " ") : value;
    yield [info.attribute, String(text)];
  }
}

type Parse5Parent = DefaultTreeAdapterMap["parentNode"];
type Parse5Text = DefaultTreeAdapterMap["textNode"];
type Parse5Template = DefaultTreeAdapterMap["template"];

/**
 * Elements deeper than this are flattened into their text. parse5 builds any depth without recursing, but the
 * steps after it (hast conversion, sanitising, writing, markdown conversion) recurse, and a few thousand levels
 * overflow the stack; real content nests a dozen.
 */
const MAX_DEPTH = 100;

/** The text nodes under node, in order, without those of elements {@link DROPPED} with their content. */
function textNodes(node: Parse5Parent): Parse5Text[] {
  const texts: Parse5Text[] = [];
  const stack = [...node.childNodes].reverse();
  for (let next = stack.pop(); next; next = stack.pop()) {
    if (defaultTreeAdapter.isTextNode(next)) texts.push(next);
    else if (defaultTreeAdapter.isElementNode(next) && !DROPPED.has(next.tagName)) {
      for (const child of next.childNodes.toReversed()) stack.push(child);
    }
  }
  return texts;
}

/**
 * Flattens elements at {@link MAX_DEPTH} into their text, without recursion, and empties the elements
 * {@link DROPPED} with their content, a template's content included (parse5 keeps it apart from its children).
 */
function capDepth(fragment: Parse5Parent): void {
  const stack: [Parse5Parent, number][] = [[fragment, 0]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [node, depth] = next;
    for (const child of node.childNodes) {
      if (!defaultTreeAdapter.isElementNode(child)) continue;
      if (DROPPED.has(child.tagName)) {
        child.childNodes = [];
        if (child.tagName === "template") (child as Parse5Template).content.childNodes = [];
      } else if (depth + 1 < MAX_DEPTH) stack.push([child, depth + 1]);
      else child.childNodes = textNodes(child);
    }
  }
}

/**
 * Applies {@link cleanAttributes} to every element under root, removing those it refuses, and joins adjacent
 * text (left apart where comments or dropped elements were): the markdown conversion is quadratic in runs of
 * text nodes.
 */
function applyAttributeRules(root: Root): void {
  const stack: (Root | Element)[] = [root];
  for (let parent = stack.pop(); parent; parent = stack.pop()) {
    const children: RootContent[] = [];
    for (const child of parent.children) {
      const last = children.at(-1);
      if (child.type === "text" && last?.type === "text") last.value += child.value;
      else if (child.type !== "element") children.push(child);
      else {
        const attrs = cleanAttributes(child.tagName, attributesOf(child));
        if (!attrs) continue;
        child.properties = {};
        for (const [name, value] of Object.entries(attrs)) {
          child.properties[find(htmlSchema, name).property] = BOOLEAN_ATTRS.has(name) || value;
        }
        children.push(child);
        stack.push(child);
      }
    }
    parent.children = children as typeof parent.children;
  }
}

/** html read as a browser reads a fragment, cut down to the allow-list (see the file comment). */
export function sanitizedTree(html: string): Root {
  const fragment = parseFragment(html);
  capDepth(fragment);
  const tree = sanitize(fromParse5(fragment) as Root, SCHEMA) as Root;
  applyAttributeRules(tree);
  return tree;
}

/** Writes a sanitised tree canonically; recursion is bounded by {@link MAX_DEPTH}. */
function serialize(nodes: readonly RootContent[]): string {
  let out = "";
  for (const node of nodes) {
    if (node.type === "text") out += escapeText(node.value);
    else if (node.type === "element") {
      out += startTag(node.tagName, Object.fromEntries(attributesOf(node)));
      if (VOID.has(node.tagName)) continue;
      // A parser drops one newline right after <pre>: one is added, so that a leading one survives a re-read.
      const first = node.children[0];
      if (node.tagName === "pre" && first?.type === "text" && first.value.startsWith("\n")) out += "\n";
      out += `${serialize(node.children)}</${node.tagName}>`;
    }
  }
  return out;
}

/** The allow-list sanitiser of docs/content.md#validation (see the file comment). */
export function sanitizeHtml(html: string): string {
  return serialize(sanitizedTree(html).children);
}

/** The text of a tree, in document order. */
function textOf(tree: Root): string {
  let text = "";
  const stack: RootContent[] = [...tree.children].reverse();
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.type === "text") text += node.value;
    else if (node.type === "element") for (const child of node.children.toReversed()) stack.push(child);
  }
  return text;
}

/** The text of html with tags removed and entities decoded (docs/content.md#validation measures content by it). */
export function stripTags(html: string): string {
  return textOf(sanitizedTree(html));
}

/**
 * content_summary (docs/conventions.md#object-shapes): the first `length` characters of the tag-stripped text, counted
 * in code points as the reference counts multibyte text. Whitespace runs become one space: a summary is one line.
 */
export function contentSummary(html: string, length = 80): string {
  // Lists summarise every record, so only as much of the HTML is read as the summary needs: a prefix cut after
  // a tag, doubled until its text is longer than the summary (the text of such a prefix begins the full text).
  for (let prefix = 4 * length; ; prefix *= 2) {
    const cut = prefix >= html.length ? html.length : html.lastIndexOf(">", prefix) + 1;
    const text = Array.from(stripTags(html.slice(0, cut)).replace(/\s+/g, " ").trim());
    if (text.length > length || cut === html.length) return text.slice(0, length).join("");
  }
}

/** A start or end tag as the HTML tokenizer reads it, attribute values decoded. */
interface Tag {
  name: string;
  attrs: [string, string][];
  /** An end tag (`</name>`). */
  closing: boolean;
  selfClosing: boolean;
}

type TagToken = Token.TagToken;
type CharacterToken = Token.CharacterToken;
type TokenizerState = (typeof TokenizerMode)[keyof typeof TokenizerMode];

function tagOf(token: TagToken, closing: boolean): Tag {
  const attrs = token.attrs.map((attr): [string, string] => [attr.name, attr.value]);
  return { name: token.tagName, attrs, closing, selfClosing: token.selfClosing };
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

/** The tokenizer state a browser's tree builder reads the content of raw-text element `name` in. */
function rawTextMode(name: string): TokenizerState {
  if (name === "script") return TokenizerMode.SCRIPT_DATA;
  return name === "textarea" || name === "title" ? TokenizerMode.RCDATA : TokenizerMode.RAWTEXT;
}

/** An allowed tag as the tree writer writes it; null for any other tag, and for end tags of void elements. */
function writeTag(tag: Tag): string | null {
  if (!ALLOWED.has(tag.name)) return null;
  if (tag.closing) return VOID.has(tag.name) ? null : `</${tag.name}>`;
  const attrs = cleanAttributes(tag.name, tag.attrs);
  return attrs && startTag(tag.name, attrs);
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

  /**
   * One fragment, read by parse5's tokenizer as a browser reads it. Text is kept as written; a tag the input ends
   * inside, which browsers drop, is kept as text with its `<` escaped.
   */
  scrub(html: string): string {
    let out = "";
    let read = 0;
    let unclosed = false;
    const text = (token: CharacterToken) => {
      out += this.keep(html.slice(token.location?.startOffset ?? read, token.location?.endOffset ?? read));
      read = token.location?.endOffset ?? read;
    };
    const markup = (token: { location: Token.Location | null }) => {
      read = token.location?.endOffset ?? read;
    };
    const tokenizer = new Tokenizer(
      { sourceCodeLocationInfo: true },
      {
        onCharacter: text,
        onWhitespaceCharacter: text,
        onNullCharacter: text,
        onComment: markup,
        onDoctype: markup,
        onEof: () => {},
        onStartTag: (token) => {
          markup(token);
          out += this.tag(tagOf(token, false));
          // The content of a raw-text element is read the way a browser's tree builder has the tokenizer read it.
          if (this.dropping?.raw && this.dropping.depth === 1) tokenizer.state = rawTextMode(this.dropping.tag);
        },
        onEndTag: (token) => {
          markup(token);
          out += this.tag(tagOf(token, true));
        },
        onParseError: (error) => {
          if (error.code === ErrorCodes.eofInTag) unclosed = true;
        },
      },
    );
    // Raw text dropped from an earlier fragment goes on until its end tag.
    if (this.dropping?.raw) {
      tokenizer.state = rawTextMode(this.dropping.tag);
      tokenizer.lastStartTagName = this.dropping.tag;
    }
    tokenizer.write(html, true);
    // A renderer would let the unclosed tag swallow whatever it writes after the fragment.
    if (unclosed) out += this.keep(html.slice(read).replace(/</g, "&lt;"));
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

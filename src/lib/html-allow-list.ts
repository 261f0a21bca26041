/**
 * The HTML allow-list of docs/content.md#validation: the tags and attributes content may keep, the rules for
 * attribute values that a list cannot state (safe URLs, rel on external links, the task-list checkbox), and how an
 * allowed tag is written: lower-case names, double-quoted escaped attributes, void elements self-closed. The tree
 * sanitiser (sanitize.ts) and the tag-by-tag scrubber of raw HTML in markdown (markup-scrubber.ts) both apply it,
 * so that both write an allowed tag the same way.
 */
import { isExternal, safeUrl } from "./safe-url";

const TABLE_PART = ["align", "valign"];
const COLUMN = ["align", "valign", "span", "width"];
const CELL = ["width", "rowspan", "colspan", "align", "valign"];
const PLAIN =
  "address b big br caption center cite code dd del div dl dt em h1 h2 h3 h4 h5 h6 hr i ins li ol p pre s small span " +
  "sub sup strong tt u ul figure figcaption audio video mark";

/** Each allowed tag with its allowed attributes. */
export const ALLOWED = new Map<string, ReadonlySet<string>>([
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

export const VOID = new Set(["br", "hr", "img", "col", "input"]);
const URL_ATTRS = new Set(["href", "src", "cite"]);
export const BOOLEAN_ATTRS = new Set(["checked", "disabled"]);

/** Elements whose content is raw text up to their end tag: dropped with it. */
export const RAW_TEXT = new Set([
  "script",
  "style",
  "iframe",
  "noembed",
  "noframes",
  "noscript",
  "textarea",
  "title",
  "xmp",
]);
/** Elements whose content is markup that must not leak out as text or tags: dropped up to the matching end tag. */
export const DROP_SUBTREE = new Set(["svg", "math", "template", "object"]);
/** Every element dropped with its content; other elements off the list are unwrapped (their text is kept). */
export const DROPPED = new Set([...RAW_TEXT, ...DROP_SUBTREE]);

/** Text as HTML writes it: quotes need no escape outside attributes. */
export function escapeText(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function escapeAttribute(value: string): string {
  return escapeText(value).replace(/"/g, "&quot;");
}

/**
 * The rules of the allow-list for one element's attributes (values decoded), in input order. Null when the
 * element itself must go: an input that is not a checkbox.
 */
export function cleanAttributes(tag: string, decoded: Iterable<[string, string]>): Record<string, string> | null {
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
  // External links get rel="nofollow noopener", whatever rel the input had (docs/content.md#urls-and-links).
  if (tag === "a" && attrs.href !== undefined && isExternal(attrs.href)) attrs.rel = "nofollow noopener";
  return attrs;
}

/** An allowed start tag with its checked attributes, as the output writes it. */
export function startTag(tag: string, attrs: Record<string, string>): string {
  let out = `<${tag}`;
  for (const [name, value] of Object.entries(attrs)) out += ` ${name}="${escapeAttribute(value)}"`;
  return out + (VOID.has(tag) ? " />" : ">");
}

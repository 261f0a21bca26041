/**
 * The HTML sanitiser of docs/content.md#validation. HTML is read by parse5, a spec-compliant parser (Workers have no
 * DOM), into a hast tree that hast-util-sanitize cuts down to the allow-list (html-allow-list.ts); the rules the
 * schema cannot state (safe URLs, rel on external links, the task-list checkbox) are then applied by
 * {@link cleanAttributes}, and the tree is written out canonically: lower-case names, double-quoted escaped
 * attributes, escaped text, every element closed. A browser parsing the output sees only allowed tags, checked
 * attributes and text, and reading the output again yields the same tree (so sanitizeHtml is idempotent). The raw
 * HTML inside markdown source gets the same allow-list and writer tag by tag instead (markup-scrubber.ts).
 */
import type { Element, Root, RootContent } from "hast";
import { fromParse5 } from "hast-util-from-parse5";
import { type Schema, sanitize } from "hast-util-sanitize";
import { type DefaultTreeAdapterMap, defaultTreeAdapter, parseFragment } from "parse5";
import { find, html as htmlSchema } from "property-information";
import { ALLOWED, BOOLEAN_ATTRS, cleanAttributes, DROPPED, escapeText, startTag, VOID } from "./html-allow-list";

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

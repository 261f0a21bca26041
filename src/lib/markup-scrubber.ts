/**
 * The allow-list of docs/content.md#validation (html-allow-list.ts) applied to the raw HTML inside markdown source, tag
 * by tag as parse5's tokenizer reads them, without a tree: see {@link MarkupScrubber}.
 */
import { ErrorCodes, type Token, Tokenizer, TokenizerMode } from "parse5";
import { ALLOWED, cleanAttributes, DROP_SUBTREE, RAW_TEXT, startTag, VOID } from "./html-allow-list";

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
 * around each tag keeps its meaning: an allowed tag is rewritten as sanitizeHtml (sanitize.ts) writes it, any other
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

/**
 * Text as the search index holds it, queries as FTS5 reads them, and snippets as clients get them
 * (docs/search.md). The index's tokenizer, `unicode61 remove_diacritics 2`, folds case and diacritics, but reads a
 * run of CJK characters (which has no spaces) as one token: each CJK character is set apart here, in documents and in
 * queries alike, so a term of one or two characters is a phrase of that many tokens and is found inside any run.
 */
import { escapeText } from "./html-allow-list";
import { codePointLength } from "./text-length";

/** Scripts written without spaces between words: each of their characters is a token of its own. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}]/gu;

/**
 * What documents set CJK characters apart with: a control character, so the tokenizer reads it as a separator, and
 * one no stored text holds ({@link CONTROLS} become spaces), so it can be taken out of a snippet again.
 */
const SEPARATOR = "\u001f";
/** What FTS5's snippet() is asked to put around a match, for the same reason; they become `<mark>` and `</mark>`. */
export const MATCH_OPEN = "\u0002";
export const MATCH_CLOSE = "\u0003";
export const ELLIPSIS = "…";

/** Control characters; a document's line breaks and tabs become spaces too, which separate tokens all the same. */
const CONTROLS = /\p{Cc}/gu;

/** Text as a document of the index holds it: controls as spaces, each CJK character between separators. */
export function indexedText(text: string): string {
  return text.replace(CONTROLS, " ").replace(CJK, `${SEPARATOR}$&${SEPARATOR}`);
}

/** A document's text from several fields, one per line. */
export const joinedText = (fields: readonly string[]): string => fields.filter(Boolean).join("\n");

/** docs/search.md#limits: the bounds of the work one query may ask for. */
export const MAX_QUERY_LENGTH = 200;
export const MAX_QUERY_TERMS = 10;
/**
 * A prefix reads every word of the index it starts, so what it costs is set by its last token (the part FTS5 expands),
 * counted in letters and digits as the tokenizer reads them: `a.*` or `"x a"*` expand `a`. One shorter than this
 * would read most of the vocabulary: such a term is searched as a word.
 */
const MIN_PREFIX_LENGTH = 2;
/** Each prefix term is a scan of part of the vocabulary, run again for the total, the page and each include. */
export const MAX_PREFIX_TERMS = 3;

/** What the tokenizer keeps as part of a token: letters, digits and private-use characters. */
const TOKEN_CHARACTER = /[\p{L}\p{N}\p{Co}]/u;
/** A token's characters: a run of them, or a single CJK character (each is a token of its own here). */
const TOKEN = new RegExp(`${CJK.source}|(?:(?!${CJK.source})[\\p{L}\\p{N}\\p{Co}])+`, "gu");

/** The letters and digits of the last token of `text`, as FTS5 will read it: what a prefix on it expands. */
const lastTokenLength = (text: string): number => codePointLength(text.match(TOKEN)?.at(-1) ?? "");
/** Controls a query may not hold; tabs and line breaks are whitespace. */
const QUERY_CONTROLS = /(?![\t\n\r])\p{Cc}/u;
/** A term: a quoted phrase (its closing quote optional) or a run of anything but whitespace, either maybe `*`-ended. */
const TERM = /"([^"]*)"?(\*?)|([^\s"]+)/g;

export type ParsedQuery = { ok: true; match: string } | { ok: false; error: string };

/** One term as an FTS5 phrase: a quoted string (quotes doubled), so no character in it is FTS5 syntax. */
function phrase(text: string, prefix: boolean): string | null {
  if (!TOKEN_CHARACTER.test(text)) return null;
  const tokens = text.replace(CJK, " $& ").trim();
  const quoted = `"${tokens.replace(/"/g, '""')}"`;
  return prefix && lastTokenLength(text) >= MIN_PREFIX_LENGTH ? `${quoted}*` : quoted;
}

/**
 * A reader's query as an FTS5 expression every term of which must match: words, `"quoted phrases"` and `prefix*`
 * terms. Everything else is text: FTS5's operators (`AND`, `OR`, `NOT`, `NEAR`), parentheses, column filters and
 * stray quotes are searched as words or dropped as separators, never read as syntax. Refused: an empty query, one
 * longer than {@link MAX_QUERY_LENGTH} characters or with more than {@link MAX_QUERY_TERMS} terms or
 * {@link MAX_PREFIX_TERMS} prefixes, one holding control characters, and one with no letter or digit to search for.
 */
export function parseSearchQuery(raw: string): ParsedQuery {
  const query = raw.trim();
  if (!query) return { ok: false, error: "required" };
  if (codePointLength(query) > MAX_QUERY_LENGTH) return { ok: false, error: `at most ${MAX_QUERY_LENGTH} characters` };
  if (QUERY_CONTROLS.test(query)) return { ok: false, error: "must not contain control characters" };
  const phrases: string[] = [];
  for (const [, quoted, quotedPrefix, word] of query.matchAll(TERM)) {
    const bare = word?.endsWith("*") ? word.replace(/\*+$/, "") : word;
    const found =
      bare === undefined ? phrase(quoted ?? "", quotedPrefix === "*") : phrase(bare, bare !== word && bare !== "");
    if (found) phrases.push(found);
  }
  if (phrases.length === 0) return { ok: false, error: "must contain a letter or a digit" };
  if (phrases.length > MAX_QUERY_TERMS) return { ok: false, error: `at most ${MAX_QUERY_TERMS} terms` };
  if (phrases.filter((found) => found.endsWith("*")).length > MAX_PREFIX_TERMS) {
    return { ok: false, error: `at most ${MAX_PREFIX_TERMS} prefix* terms` };
  }
  return { ok: true, match: phrases.join(" ") };
}

/**
 * An FTS5 snippet as HTML: the text escaped, the match markers as `<mark>` elements, the CJK separators taken out
 * and marks that touch joined, so the only markup a client gets is `<mark>`.
 */
export function highlightHtml(snippet: string): string {
  return escapeText(snippet)
    .replaceAll(SEPARATOR, "")
    .replaceAll(MATCH_OPEN, "<mark>")
    .replaceAll(MATCH_CLOSE, "</mark>")
    .replaceAll("</mark><mark>", "")
    .replace(CONTROLS, " ");
}

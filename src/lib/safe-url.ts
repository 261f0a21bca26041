/**
 * Which URLs content may carry, and which of them lead off the site (docs/content.md#validation). The allow-list
 * (html-allow-list.ts) applies these to `href`, `src` and `cite`; the markdown renderer to links and images.
 */

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

/**
 * A URL a browser may follow: http, https, mailto, or relative (including `//host` and `#fragment`).
 * Browsers drop tabs and newlines anywhere and trim controls and spaces at the ends, so the value is cleaned
 * the same way. The scheme test then ignores every control, space and invisible character, and counts any
 * colon before the first `/?#` as a scheme: `java\0script:` is refused although a browser would not run it.
 */
export function safeUrl(value: string): string | null {
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

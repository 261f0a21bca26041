/**
 * The XSS corpus and the checkers that judge output safe, shared by the unit tests of the content pipeline
 * (test/sanitize.test.ts) and the HTTP test that sends every payload through every content field
 * (test/xss-http.test.ts).
 */
import { micromark, parse, postprocess, preprocess } from "micromark";
import { gfm } from "micromark-extension-gfm";
import { expect } from "vitest";
/** docs/content.md#validation, copied here on purpose: the checker must not trust the sanitiser's own table. */
export const ALLOWED: Record<string, string[]> = {
  a: ["href", "target", "title", "rel"],
  abbr: ["title"],
  blockquote: ["cite"],
  col: ["align", "valign", "span", "width"],
  colgroup: ["align", "valign", "span", "width"],
  font: ["color", "size", "face"],
  img: ["src", "alt", "title", "width", "height"],
  table: ["width", "border", "align", "valign"],
  tbody: ["align", "valign"],
  tfoot: ["align", "valign"],
  thead: ["align", "valign"],
  tr: ["align", "valign"],
  td: ["width", "rowspan", "colspan", "align", "valign"],
  th: ["width", "rowspan", "colspan", "align", "valign"],
  input: ["type", "checked", "disabled"],
  ...Object.fromEntries(
    (
      "address b big br caption center cite code dd del div dl dt em h1 h2 h3 h4 h5 h6 hr i ins li ol p pre s small " +
      "span sub sup strong tt u ul figure figcaption audio video mark"
    )
      .split(" ")
      .map((tag) => [tag, []]),
  ),
};

/** Decodes the references a browser would in an attribute value, then drops what URL parsers ignore. */
export function urlIsSafe(raw: string): boolean {
  const decoded = raw
    .replace(/&#x([0-9a-f]+);?/gi, (_m, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);?/g, (_m, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(
      /&(amp|lt|gt|quot|colon|tab|newline);/gi,
      (_m, name: string) =>
        ({ amp: "&", lt: "<", gt: ">", quot: '"', colon: ":", tab: "\t", newline: "\n" })[name.toLowerCase()] ?? "",
    )
    .replace(/[\0- \x7f-\x9f]/g, "");
  if (/^(?:javascript|vbscript|data)/i.test(decoded)) return false;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(decoded)?.[1];
  return scheme === undefined || ["http", "https", "mailto"].includes(scheme.toLowerCase());
}

/**
 * Asserts that html is safe, two ways: its tags must have the sanitiser's canonical shape (checked by regular
 * expressions), and workerd's HTMLRewriter (a spec HTML tokenizer) must find only allowed elements and
 * attributes, only safe URLs and no comments.
 */
export async function expectSafe(html: string): Promise<void> {
  expect(html).not.toMatch(/<script/i);
  for (const [tag] of html.matchAll(/<[^>]*>?/g)) {
    expect(tag).toMatch(/^<\/?[a-z][a-z0-9]*(?: [a-z]+="[^"<>]*")*(?: \/)?>$/);
    expect(tag).not.toMatch(/&(?!amp;|lt;|gt;|quot;)/);
  }
  const found: { tag: string; attrs: string[][] }[] = [];
  let comments = 0;
  await new HTMLRewriter()
    .on("*", { element: (e) => void found.push({ tag: e.tagName, attrs: [...e.attributes] }) })
    .onDocument({ comments: () => void comments++, doctype: () => void comments++ })
    .transform(new Response(html))
    .text();
  expect(comments).toBe(0);
  for (const { tag, attrs } of found) {
    expect(Object.hasOwn(ALLOWED, tag), `<${tag}> is not allowed`).toBe(true);
    for (const [name = "", value = ""] of attrs) {
      expect(name).not.toMatch(/^on/i);
      expect(ALLOWED[tag], `${tag}[${name}]`).toContain(name);
      if (["href", "src", "cite"].includes(name)) expect(urlIsSafe(value), `${name}="${value}"`).toBe(true);
      if (tag === "input" && name === "type") expect(value).toBe("checkbox");
    }
  }
}

/**
 * Asserts that stored markdown is safe for a client that renders it with raw HTML on, two ways. Read as
 * micromark reads it, with code and autolinks blanked out: no `<script`; every tag (a `<` no backslash escapes, before
 * a letter or `/`) has an allowed name and only allowed attributes, so no handler, and no unsafe URL; every link
 * destination and autolink has a safe URL. And rendered by micromark with raw HTML and every protocol allowed,
 * HTMLRewriter finds only allowed elements, no handler, no unsafe URL and no comment.
 */
export async function expectSafeMarkdown(markdown: string): Promise<void> {
  const events = postprocess(
    parse({ extensions: [gfm()] })
      .document()
      .write(preprocess()(markdown, undefined, true)),
  );
  let text = markdown;
  for (const [kind, token] of events) {
    const [start, end] = [token.start.offset, token.end.offset];
    if (kind !== "enter") continue;
    // Code, and autolinks (their URLs are checked below), are not tags.
    if (["codeFenced", "codeIndented", "codeText", "autolink"].includes(token.type)) {
      text = text.slice(0, start) + " ".repeat(end - start) + text.slice(end);
    }
    if (["resourceDestinationString", "definitionDestinationString", "autolinkProtocol"].includes(token.type)) {
      expect(urlIsSafe(markdown.slice(start, end)), markdown.slice(start, end)).toBe(true);
    }
  }
  expect(text).not.toMatch(/(?<!\\)<script/i);
  for (const [tag, slash = "", name = ""] of text.matchAll(/(?<!\\)<(\/?)([a-zA-Z][^\s/>]*)[^>]*>?/g)) {
    expect(Object.hasOwn(ALLOWED, name.toLowerCase()), tag).toBe(true);
    const attributes = tag
      .slice(1 + slash.length + name.length)
      .matchAll(/([^\s"'>/=]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g);
    for (const [, attribute = "", value = ""] of attributes) {
      expect(attribute, tag).not.toMatch(/^on/i);
      expect(ALLOWED[name.toLowerCase()], tag).toContain(attribute.toLowerCase());
      if (["href", "src", "cite"].includes(attribute.toLowerCase())) {
        expect(urlIsSafe(value.replace(/^["']|["']$/g, "")), tag).toBe(true);
      }
    }
  }
  let comments = 0;
  await new HTMLRewriter()
    .on("*", {
      element: (e) => {
        expect(Object.hasOwn(ALLOWED, e.tagName), `<${e.tagName}> is not allowed`).toBe(true);
        for (const [name = "", value = ""] of e.attributes) {
          expect(name).not.toMatch(/^on/i);
          if (["href", "src", "cite"].includes(name)) expect(urlIsSafe(value), `${name}="${value}"`).toBe(true);
        }
      },
    })
    .onDocument({ comments: () => void comments++, doctype: () => void comments++ })
    .transform(new Response(micromark(markdown, { allowDangerousHtml: true, allowDangerousProtocol: true })))
    .text();
  expect(comments).toBe(0);
}

export const XSS = [
  // script tags
  "<script>alert(1)</script>",
  "<SCRIPT>alert(1)</SCRIPT>",
  '<ScRiPt src="https://evil.example/x.js"></ScRiPt>',
  '<script type="text/javascript">alert(1)</script >',
  "<script/src=data:,alert(1)></script>",
  "<script>alert(1)",
  "<scr<script>ipt>alert(1)</scr</script>ipt>",
  "<<script>script>alert(1)<</script>/script>",
  '"><script>alert(1)</script>',
  "<div <script>alert(1)</script>>",
  '<a href="https://x.example"<script>alert(1)</script>',
  // event handlers, on allowed and disallowed tags
  "<img src=x onerror=alert(1)>",
  '<IMG SRC="x" ONERROR="alert(1)">',
  "<img src=\"x\" onerror = 'alert(1)' >",
  "<img src=x:alert(1) onerror=eval(src)>",
  '<img/src="x"/onerror="alert(1)">',
  '<img """><script>alert(1)</script>">',
  '<p onclick="alert(1)">click</p>',
  '<div onmouseover=alert(1) style="background:url(javascript:alert(1))">x</div>',
  '<a href="https://ok.example" onclick="alert(1)">ok</a>',
  '<a href="x" title="a" onfocus=alert(1) autofocus>x</a>',
  '<a href="https://x.example" title="x"onmouseover="alert(1)">x</a>',
  '<input type="text" onfocus=alert(1) autofocus>',
  '<input type="checkbox" onclick="alert(1)" checked>',
  "<details open ontoggle=alert(1)>x</details>",
  "<video><source onerror=alert(1)></video>",
  "<audio src=x onerror=alert(1)>",
  "<body onload=alert(1)>",
  '<table background="javascript:alert(1)"><tr><td onclick=alert(1)>x</td></tr></table>',
  // attribute-breaking quotes
  "<a title='\"><script>alert(1)</script>'>x</a>",
  '<img alt="x" title=\'" onerror="alert(1)\'>',
  // javascript:, vbscript:, data: URLs in every spelling
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  "<a href=javascript:alert(1)>x</a>",
  '<a href="  javascript:alert(1)">x</a>',
  '<a href="java\tscript:alert(1)">x</a>',
  '<a href="java\nscript:alert(1)">x</a>',
  '<a href="\x01javascript:alert(1)">x</a>',
  '<a href="java&#x09;script:alert(1)">x</a>',
  '<a href="jav&#x61;script:alert(1)">x</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>',
  '<a href="&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A;alert(1)">x</a>',
  '<a href="&#0000106avascript:alert(1)">x</a>',
  '<a href="javascript&colon;alert(1)">x</a>',
  '<a href="java&NewLine;script&colon;alert(1)">x</a>',
  '<a href="jav&Tab;ascript:alert(1)">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<a href="DATA:text/html,<script>alert(1)</script>">x</a>',
  '<img src="javascript:alert(1)">',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<img src=" &#14;  javascript:alert(1)">',
  '<blockquote cite="javascript:alert(1)">q</blockquote>',
  // SVG and MathML
  "<svg onload=alert(1)>",
  "<svg><script>alert(1)</script></svg>",
  '<svg><a xlink:href="javascript:alert(1)"><text x="20" y="20">XSS</text></a></svg>',
  "<svg><animate onbegin=alert(1) attributeName=x dur=1s>",
  "<svg><style></svg><img src=x onerror=alert(1)></style>",
  "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
  '<math href="javascript:alert(1)">CLICKME</math>',
  // other dangerous elements
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<form action="javascript:alert(1)"><input type=submit></form>',
  "<style>@import 'https://evil.example/x.css';</style>",
  '<div style="width: expression(alert(1))">x</div>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<link rel=stylesheet href="javascript:alert(1)">',
  "<template><script>alert(1)</script></template>",
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  "<textarea><script>alert(1)</script></textarea>",
  "<title><script>alert(1)</script></title>",
  "<xmp><script>alert(1)</script></xmp>",
  "<plaintext><script>alert(1)</script>",
  // comments, CDATA, doctype, processing instructions hiding tags
  "<!--<script>alert(1)</script>-->",
  "<!--[if IE]><script>alert(1)</script><![endif]-->",
  "<!--><img src=x onerror=alert(1)>-->",
  "<![CDATA[<script>alert(1)</script>]]>",
  '<?xml version="1.0"?><script>alert(1)</script>',
  "<!DOCTYPE html><body onload=alert(1)>",
  // malformed and unclosed
  '<img src="x',
  '<a href="javascript:alert(1)',
  "<a href=javascript:alert(1)",
  "</a onclick=alert(1)><b>x",
  // markdown forms
  "[x](javascript:alert(1))",
  "[x](JAVASCRIPT:alert(1))",
  "[x](<javascript:alert(1)>)",
  "[x](jav&#x61;script:alert(1))",
  "[x](javascript&colon;alert(1))",
  '[x]( javascript:alert(1) "t")',
  "[x](vbscript:msgbox(1))",
  "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
  "![x](javascript:alert(1))",
  "![x](data:image/svg+xml,<svg onload=alert(1)>)",
  "<javascript:alert(1)>",
  "<vbscript:msgbox(1)>",
  "[x][r]\n\n[r]: javascript:alert(1)",
  "[r]\n\n[r]: data:text/html,<script>alert(1)</script>",
  '<a href="javascript:alert(1)">raw html in markdown</a>',
  "~~~html\n<script>alert(1)</script>\n~~~",
  "| a |\n|---|\n| <img src=x onerror=alert(1)> |",
  "- [ ] <script>alert(1)</script>",
];

/**
 * HTML shaped to make a parser, sanitiser or HTML → markdown converter do unbounded work, each at most
 * MAX_RENDERED_BYTES long (the most the HTML path accepts), shared by test/html-bounds.test.ts and
 * bench/html.ts.
 */
import { MAX_RENDERED_BYTES } from "../../src/lib/content-limits";
import { MAX_TAGS } from "../../src/lib/html-to-markdown";

/** head + as many units as fit in the limit (and at most `most`) + tail. */
function fill(head: string, unit: string, tail = "", most = Number.POSITIVE_INFINITY): string {
  const count = Math.min(most, Math.floor((MAX_RENDERED_BYTES - head.length - tail.length) / unit.length));
  return head + unit.repeat(count) + tail;
}

/** The most tags the HTML path accepts. */
export const TAG_LIMIT = MAX_TAGS;

/** n levels of open, some text, and the closes. */
const nested = (open: string, close: string, n: number) => `${open.repeat(n)}x${close.repeat(n)}`;

export const HOSTILE_HTML: Record<string, string> = {
  "10 000 nested <div>": nested("<div>", "</div>", 10_000),
  "10 000 nested <ul><li>": nested("<ul><li>", "</li></ul>", 10_000),
  "10 000 nested <blockquote>": nested("<blockquote>", "</blockquote>", 10_000),
  "10 000 nested <b><i>": nested("<b><i>", "</i></b>", 10_000),
  "nested <table><tr><td>, unclosed": fill("", "<table><tr><td>x"),
  "unclosed <b>, to the limit": fill("", "<b>"),
  "unclosed <p>, to the limit": fill("", "<p>"),
  "<br> to the limit": fill("<p>", "<br>"),
  "100 000 tiny elements": fill("", "<i></i>"),
  "flat <li> to the limit": fill("<ul>", "<li>x"),
  "many attributes": fill("<p ", 'a="b" ', ">x</p>"),
  "many allowed attributes, duplicated": fill("<a ", 'href="/x" title="t" ', ">x</a>"),
  "one huge attribute value": fill('<a href="/x" title="', "t", '">x</a>'),
  "one huge href": fill('<a href="https://e.example/', "a", '">x</a>'),
  "markdown-special text": fill("<p>", "*_[]`#<>|\\~"),
  entities: fill("<p>", "&amp;&lt;&#60;&eacute;"),
  "50 nested lists, then paragraphs": fill("<ul><li>".repeat(50), "<p>x</p>"),
  "50 nested quotes, then a long <pre>": fill(`${"<blockquote>".repeat(50)}<pre>`, "\n"),
  "table: 64 columns, empty rows to the limit": fill(
    `<table><tr>${"<td>x</td>".repeat(64)}</tr>`,
    "<tr></tr>",
    "</table>",
  ),
  "table: one row to the limit": fill("<table><tr>", "<td></td>", "</tr></table>"),
  "table: huge colspan and rowspan": `<table><tr><td colspan="1000000000" rowspan="65534">x</td></tr>${"<tr></tr>".repeat(TAG_LIMIT - 3)}</table>`,
  "tables: many small ones": fill("", "<table><tr><td>a</td><td>b</td></tr></table>"),
  "tables: one long cell per column, then empty rows": `<table><tr>${`<td>${"w".repeat(2000)}</td>`.repeat(64)}</tr>${"<tr></tr>".repeat(200)}</table>`,
  "links nested in links": fill("", '<a href="/a">x'),
  "svg and script to be dropped": fill("", "<svg><script>x</script></svg><template><b>t</b></template>"),
  comments: fill("", "<!-- c -->a"),
  // The same shapes at the most tags accepted.
  "at the tag limit: unclosed <p>": "<p>x".repeat(TAG_LIMIT),
  "at the tag limit: <br>": `<p>${"<br>".repeat(TAG_LIMIT - 1)}`,
  "at the tag limit: flat <li>": `<ul>${"<li>x".repeat(TAG_LIMIT - 1)}`,
  "at the tag limit: nested <b><i>": nested("<b><i>", "</i></b>", TAG_LIMIT / 2),
  "at the tag limit: nested <ul><li>": nested("<ul><li>", "</li></ul>", TAG_LIMIT / 2),
  "at the tag limit: 100 nested lists, then paragraphs": fill("<ul><li>".repeat(50), "<p>x</p>", "", TAG_LIMIT - 100),
  "at the tag limit: links nested in links": '<a href="/a">x'.repeat(TAG_LIMIT),
  "at the tag limit: table rows": `<table><tr>${"<td>x</td>".repeat(10)}</tr>${"<tr></tr>".repeat(TAG_LIMIT - 12)}</table>`,
  "at the tag and punctuation limits: formatting around markdown-special text": `<p>${`<b>${"*a_ [b] ".repeat(13)}</b> `.repeat(
    TAG_LIMIT / 2 - 1,
  )}`,
  "at the tag limit: formatting with long text": fill(
    "<p>",
    "<b>bold *text*</b> and [more] _text_ ",
    "",
    TAG_LIMIT - 1,
  ),
};

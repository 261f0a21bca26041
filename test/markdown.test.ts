import { describe, expect, it } from "vitest";
import { htmlToMarkdown } from "../src/lib/html-to-markdown";
import { CONTENT_MAX_LENGTH, processContent, renderMarkdown } from "../src/lib/markdown";
import { sanitizeHtml } from "../src/lib/sanitize";

/** micromark puts a newline between blocks; hand-written HTML usually does not. */
const compact = (html: string) => html.replace(/>\n+/g, ">").replace(/\n+</g, "<");

describe("renderMarkdown", () => {
  it("renders GFM tables with their alignment", () => {
    expect(compact(renderMarkdown("| a | b | c |\n|:--|:-:|--:|\n| 1 | 2 | 3 |"))).toBe(
      '<table><thead><tr><th align="left">a</th><th align="center">b</th><th align="right">c</th></tr></thead>' +
        '<tbody><tr><td align="left">1</td><td align="center">2</td><td align="right">3</td></tr></tbody></table>',
    );
  });

  it("renders strikethrough between double tildes; a single tilde is text (docs/content.md#markdown-rendering)", () => {
    expect(renderMarkdown("~~gone~~ and ~kept~")).toBe("<p><del>gone</del> and ~kept~</p>");
  });

  it("renders autolinks, literal ones included, with rel on external links only", () => {
    expect(renderMarkdown("<https://a.example> www.example.com https://c.example/x?y=1&z=2 me@example.com")).toBe(
      '<p><a href="https://a.example" rel="nofollow noopener">https://a.example</a> ' +
        '<a href="http://www.example.com" rel="nofollow noopener">www.example.com</a> ' +
        '<a href="https://c.example/x?y=1&amp;z=2" rel="nofollow noopener">https://c.example/x?y=1&amp;z=2</a> ' +
        '<a href="mailto:me@example.com">me@example.com</a></p>',
    );
  });

  it("links a bare address only when it starts with www., as GFM does", () => {
    expect(renderMarkdown("see file.py, node.js and example.com")).toBe("<p>see file.py, node.js and example.com</p>");
  });

  it("renders task lists", () => {
    expect(compact(renderMarkdown("- [x] done\n- [ ] todo"))).toBe(
      '<ul><li><input type="checkbox" disabled="" checked="" /> done</li><li><input type="checkbox" disabled="" /> todo</li></ul>',
    );
  });

  it("renders links, images and code", () => {
    expect(renderMarkdown('[in](/questions/1) [out](https://e.example "T") ![alt](/i.png "t") `a<b`')).toBe(
      '<p><a href="/questions/1">in</a> <a href="https://e.example" title="T" rel="nofollow noopener">out</a> ' +
        '<img src="/i.png" alt="alt" title="t" /> <code>a&lt;b</code></p>',
    );
  });

  it("escapes raw HTML instead of passing it", () => {
    expect(renderMarkdown("<b>x</b> and <i>y</i>")).toBe("<p>&lt;b&gt;x&lt;/b&gt; and &lt;i&gt;y&lt;/i&gt;</p>");
    expect(renderMarkdown("<div onclick=x>\nblock\n</div>")).toBe("&lt;div onclick=x&gt;\nblock\n&lt;/div&gt;");
  });

  it("drops what micromark writes beyond the allow-list (code language class, footnote ids)", () => {
    expect(renderMarkdown("```js\nlet a = 1;\n```")).toBe("<pre><code>let a = 1;\n</code></pre>");
    const footnote = renderMarkdown("a[^1]\n\n[^1]: note");
    expect(footnote).toContain('<sup><a href="#user-content-fn-1">1</a></sup>');
    expect(footnote).not.toMatch(/ (?:id|class|data-[a-z-]+|aria-[a-z-]+)=/);
  });
});

describe("htmlToMarkdown", () => {
  it.each([
    ["<p>Hello <strong>world</strong></p><p>Second <em>one</em></p>", "Hello **world**\n\nSecond *one*"],
    ["<h1>One</h1><h3>Three #</h3>", "# One\n\n### Three \\#"],
    [
      '<p><a href="/q/1" title="A &quot;q&quot;">link</a> <img src="/i.png" alt="pic" /></p>',
      '[link](/q/1 "A \\"q\\"") ![pic](/i.png)',
    ],
    ["<ul><li>a<ul><li>b</li></ul></li><li>c</li></ul>", "- a\n  - b\n- c"],
    ["<ol><li><p>a</p><p>more</p></li><li><p>b</p></li></ol>", "1. a\n\n   more\n\n2. b"],
    ["<ul><li>a</li></ul><ul><li>b</li></ul><ol><li>c</li></ol><ol><li>d</li></ol>", "- a\n\n+ b\n\n1. c\n\n1) d"],
    ["<p><code>a`b</code> <code>x</code></p>", "``a`b`` `x`"],
    ["<pre><code>if (a &lt; b) {}\n</code></pre>", "```\nif (a < b) {}\n```"],
    ["<blockquote><p>a</p><blockquote><p>b</p></blockquote></blockquote>", "> a\n>\n> > b"],
    ["<p>a<br />b</p><hr />", "a\\\nb\n\n***"],
    ["<p><del>x</del> <b> y </b></p>", "~~x~~ **y**"],
    [
      '<table><tr><th align="right">h|1</th><th>h2</th></tr><tr><td>1</td></tr></table>',
      "| h\\|1 | h2 |\n| -: | - |\n| 1 | |",
    ],
    ["<div><span>x</span><font>y</font><u>z</u></div><custom>w</custom>", "xy*z*\n\nw"],
    ["<p>1. no list</p><p># no heading</p><p>- no item</p>", "1\\. no list\n\n\\# no heading\n\n\\- no item"],
    ["<p>*a* [b](c) a_b _c_ &lt;d&gt; \\ ~e~</p>", "\\*a\\* \\[b]\\(c) a_b \\_c\\_ \\<d> \\ \\~e\\~"],
    ["<p>AT&amp;T &amp;amp; &eacute;</p>", "AT\\&T \\&amp; é"],
    ["<p>x</p><script>alert(1)</script><p onclick=y>z</p>", "x\n\nz"],
  ])("converts %j", (html, markdown) => {
    expect(htmlToMarkdown(html)).toBe(markdown);
  });

  it.each([
    "<p>Hello <strong>world</strong> &amp; <em>friends</em> &lt;3</p>",
    '<h2>Title</h2><p>Text with <a href="/x">a link</a> and <code>code</code>.</p>',
    "<ul><li>one<ul><li>two<ul><li>three</li></ul></li></ul></li><li>four</li></ul>",
    "<ol><li>first</li><li>second</li></ol>",
    "<ul><li>a</li></ul><ul><li>b</li></ul><ul><li>c</li></ul>",
    "<blockquote><p>quoted <del>old</del></p></blockquote>",
    "<pre><code>a\n  b ``` c\n</code></pre>",
    "<p>a<br />\nb</p><hr />",
    '<table><thead><tr><th>a</th><th align="center">b</th></tr></thead><tbody><tr><td>1</td><td align="center"><code>x|y</code></td></tr></tbody></table>',
    '<ul><li><input type="checkbox" disabled="" checked="" /> done</li><li><input type="checkbox" disabled="" /> todo</li></ul>',
    '<p><img src="/a.png" alt="a [b]" title="t" /> <a href="https://e.example/(x)?a=b&amp;c=d" rel="nofollow noopener">e</a></p>',
    "<p>1) *stars* and_under_scores ___ |pipes| `ticks` ~tilde~ \\back</p>",
  ])("round-trips %j", (html) => {
    expect(compact(renderMarkdown(htmlToMarkdown(html)))).toBe(compact(sanitizeHtml(html)));
  });

  it.each([
    "# Title\n\nSome *em*, **strong**, ~~del~~ and `code`.\n\n> quote\n> > nested",
    "- a\n- b\n  1. c\n  2. d\n\n***\n\n```\ncode <here>\n```",
    "| a | b |\n|:-|-:|\n| [l](/x) | ![i](/i.png) |",
    "Line one\\\nline two\n\n1. x\n\n   para\n2. y",
    "- [x] done\n- [ ] todo",
    "Text & <stuff> &amp; &copy; \\*literal\\* snake_case",
  ])("renders %j the same after markdown → HTML → markdown", (markdown) => {
    const html = renderMarkdown(markdown);
    expect(renderMarkdown(htmlToMarkdown(html))).toBe(html);
  });
});

describe("processContent", () => {
  it("lets non-blank markdown win and renders from it", () => {
    const result = processContent({ content_markdown: "**a**\n", content_rendered: "<p>ignored</p>" });
    expect(result).toEqual({
      ok: true,
      content: { content_markdown: "**a**\n", content_rendered: "<p><strong>a</strong></p>\n" },
    });
  });

  it("sanitises HTML-only input and stores it as markdown", () => {
    const html = "<p><b>x</b><script>y</script> <a href=javascript:z>l</a></p>";
    for (const markdown of [undefined, null, "", "  \n"]) {
      expect(processContent({ content_markdown: markdown, content_rendered: html })).toEqual({
        ok: true,
        content: { content_markdown: "**x** l", content_rendered: "<p><strong>x</strong> l</p>" },
      });
    }
  });

  it("fails on both fields when both are empty or missing", () => {
    for (const input of [
      {},
      { content_markdown: "", content_rendered: "" },
      { content_markdown: null, content_rendered: " \n" },
    ]) {
      const result = processContent(input);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(Object.keys(result.errors).sort()).toEqual(["content_markdown", "content_rendered"]);
    }
  });

  it("fails on both fields when the content renders to nothing", () => {
    for (const input of [
      { content_rendered: "<script>x</script><!-- y -->" },
      { content_markdown: "[a]: /only-a-definition" },
    ]) {
      const result = processContent(input);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(Object.keys(result.errors).sort()).toEqual(["content_markdown", "content_rendered"]);
    }
  });

  it("limits the tag-stripped text to 100000 code points", () => {
    // Markup does not count, and an emoji is one character although it is two UTF-16 units (and four bytes, so
    // half the text is emoji: all of it would be over the rendered-size bound first).
    const half = CONTENT_MAX_LENGTH / 2;
    expect(processContent({ content_markdown: `**${"a".repeat(CONTENT_MAX_LENGTH)}**` }).ok).toBe(true);
    expect(processContent({ content_markdown: "😀".repeat(half) + "a".repeat(half) }).ok).toBe(true);
    for (const input of [
      { content_markdown: "a".repeat(CONTENT_MAX_LENGTH + 1) },
      { content_markdown: "😀".repeat(half) + "a".repeat(half + 1) },
      { content_rendered: `<p>${"b".repeat(CONTENT_MAX_LENGTH)}&amp;</p>` },
    ]) {
      const result = processContent(input);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(Object.keys(result.errors).sort()).toEqual(["content_markdown", "content_rendered"]);
    }
  });
});

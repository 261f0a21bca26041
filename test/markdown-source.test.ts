import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { htmlToMarkdown } from "../src/lib/html-to-markdown";
import { processContent, renderMarkdown, scrubMarkdownSource as scrub } from "../src/lib/markdown";
import { expectSafeMarkdown } from "./helpers/xss";

/** Every input scrubbed below, for the idempotence test at the end. */
const seen: string[] = [];

function expectScrub(markdown: string, expected: string): void {
  seen.push(markdown);
  expect(scrub(markdown)).toBe(expected);
}

describe("scrubMarkdownSource", () => {
  it.each([
    "```html\n<script>alert(1)</script>\n<img src=x onerror=alert(1)>\n```",
    "~~~\n<!-- c --> <iframe src=javascript:x>\n~~~",
    "````\n```\n<script>\n```\n````",
    "```\nan unclosed fence runs to the end <script>",
    "    <script>alert(1)</script>\n    [x](javascript:y) <javascript:z>",
    "Inline `<script>`, ``a ` <b onclick=x>``, ```<img src=x onerror=y>``` and `[x](javascript:y)`.",
    "> ```\n> <style>x</style>\n> ```\n\n- item\n\n      <textarea>indented code in a list item",
    "| code |\n|---|\n| `<script>` |",
  ])("keeps code byte for byte: %j", (markdown) => {
    expectScrub(markdown, markdown);
  });

  it("keeps ordinary markdown as written", () => {
    const markdown = [
      "# Title",
      "Setext heading\n---",
      "Some *em*, **strong**, ~~gone~~, `code`, a < b > c, 1 <= 2, <3, <- and -> arrows, a <> b, x < y && y > z.",
      "> quote\n> > nested quote\n> with **markdown**",
      "- a\n- [x] done\n  1. nested\n\n***",
      "| left | center | right |\n|:--|:-:|--:|\n| 1 | 2 | 3 |",
      '[in](/questions/1) [out](https://e.example "T") ![img](/i.png) [ref][r] [frag](#top) [mail](mailto:a@b.example)',
      "[r]: https://e.example/r 'title'",
      "<https://e.example> <mailto:a@b.example> <a@b.example> www.e.example https://e.example/x?y=1&z=2",
      "Entities &amp; &copy; &lt;b&gt;, escapes \\<div> \\*not em\\* and a hard\\\nbreak.",
      "Footnote[^1].\n\n[^1]: The note.",
    ].join("\n\n");
    expectScrub(markdown, markdown);
  });

  it.each([
    ["<b>x</b> and <i>y</i>", "<b>x</b> and <i>y</i>"],
    ['<a href="/local" title="t">l</a>', '<a href="/local" title="t">l</a>'],
    // As the sanitiser writes it: external links get rel (docs/decisions.md#content), names lower case, values quoted.
    ['<a href="https://e.example">y</a>', '<a href="https://e.example" rel="nofollow noopener">y</a>'],
    ['<IMG SRC="/a.png" ALT=a>', '<img src="/a.png" alt="a" />'],
    ["a<br>b", "a<br />b"],
    ["<div align=center>\n\n**markdown inside**\n\n</div>", "<div>\n\n**markdown inside**\n\n</div>"],
    ["> <div onclick=x>\n> quoted\n\n- <span style=x>item</span>", "> <div>\n> quoted\n\n- <span>item</span>"],
  ])("keeps allowed HTML, written as the sanitiser writes it: %j", (markdown, expected) => {
    expectScrub(markdown, expected);
  });

  it.each([
    ["<kbd>Ctrl</kbd>+<kbd>C</kbd>", "Ctrl+C"],
    ["<details><summary>s</summary>x</details>", "sx"],
    ["<p onclick=x class=y>p</p>", "<p>p</p>"],
    ["a <embed src=x> b", "a  b"],
    ["a <!-- note --> b", "a  b"],
    ["<!-- block\ncomment -->\n\ntext", "\n\ntext"],
    ["x <?php echo 1; ?> y <![CDATA[z]]>", "x  y "],
    ["<!DOCTYPE html>\n\ntext", "\n\ntext"],
  ])("removes other tags, comments and the like: %j", (markdown, expected) => {
    expectScrub(markdown, expected);
  });

  it.each([
    ["before <script>alert(1)</script> after", "before  after"],
    ["<style>\np { color: red }\n</style>\n\ntext", "\n\ntext"],
    ["a <svg><svg/><circle/></svg> b <math><mi>x</mi></math> c", "a  b  c"],
    ["a <textarea>x</textarea> b <title>t</title>", "a  b "],
    // Unclosed, the content runs to the end; and code inside dropped content goes with it.
    ["text\n\n<script>\nalert(1)", "text\n\n"],
    ["Use <script> here:\n\n```\ncode\n```\n\nand </script> more", "Use  more"],
  ])("removes dangerous containers with their content: %j", (markdown, expected) => {
    expectScrub(markdown, expected);
  });

  it.each([
    ["[x](javascript:alert(1))", "[x](#)"],
    ['[x](<javascript:alert(1)> "t")', '[x](# "t")'],
    ["[x](javascript\\:alert(1)) [y](jav&#x61;script:z)", "[x](#) [y](#)"],
    ["![x](data:image/png;base64,AAAA)", "![x](#)"],
    ["[x][r]\n\n[r]: vbscript:x 'title'", "[x][r]\n\n[r]: # 'title'"],
    ["<javascript:alert(1)>", "\\<javascript:alert(1)>"],
  ])("neutralises unsafe link destinations and autolinks: %j", (markdown, expected) => {
    expectScrub(markdown, expected);
  });

  it.each([
    // Text to micromark, markup to a browser or a laxer renderer; `&lt;` renders the same.
    ["a<b", "a&lt;b"],
    ['<img/src="x"/onerror="y">', '&lt;img/src="x"/onerror="y">'],
    ['<a href="javascript:alert(1)', '&lt;a href="javascript:alert(1)'],
    [
      "\\<div> is escaped, \\\\<b>x</b> is a backslash and a tag",
      "\\<div> is escaped, \\\\<b>x</b> is a backslash and a tag",
    ],
    // In an HTML block a tag left open would swallow what the renderer writes after the block.
    ["<div>\n<img src=x onerror=alert(1)//\n\npara", "<div>\n&lt;img src=x onerror=alert(1)//\n\npara"],
  ])("escapes a `<` that would start markup but is not a tag: %j", (markdown, expected) => {
    expectScrub(markdown, expected);
  });

  it("scrubs again where a removal changes how the rest parses", () => {
    // Removing the end tag leaves `<a`, which the next pass escapes.
    expectScrub("<</script>a", "&lt;a");
  });

  it("scrubs indented code that follows a line of text as text: CommonMark reads it as the paragraph's", () => {
    // markdown-it ends the paragraph or definition before indented code; CommonMark continues the paragraph.
    expectScrub("<!-- c --> text\n    <img src=x onerror=alert(1)>", " text\n    &lt;img src=x onerror=alert(1)>");
    expectScrub("[a]: /u\n    <script>alert(1)</script>", "[a]: /u\n    &lt;script>alert(1)&lt;/script>");
    expectScrub("para\n\n    <script>kept</script>", "para\n\n    <script>kept</script>");
  });

  it("stores text that does not settle within three passes as one code block", () => {
    // Each removal of an end tag rebuilds another from the text around it, a pass later each time.
    const stored = "```\n&lt;a\n```";
    expectScrub("<<</script>/script>a", stored);
    expect(renderMarkdown(stored)).toBe("<pre><code>&amp;lt;a\n</code></pre>");
  });

  it("leaves any mix of containers, code and raw HTML safe for another CommonMark parser, in one settled form", async () => {
    const pieces = [
      ...["a", " ", "  ", "\t", "\n", "\n\n", "> ", "- ", "1. ", "    ", "# ", "|", "-|-", "`", "```\n", "\\", "*"],
      ...["<b>", "</b>", "<img src=x onerror=y>", "<i\nonclick=x>", "<!-- c -->", "<div>\n", "<script>", "<", ">"],
      ...["[a](", ")", "javascript:x", "<javascript:x>", "[a]: ", "[a]", "![i](", "&#106;avascript:x", "<img/src=x>"],
    ];
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...pieces), { maxLength: 30 }), async (chosen) => {
        const once = scrub(chosen.join(""));
        expect(scrub(once)).toBe(once);
        await expectSafeMarkdown(once);
      }),
      { numRuns: 300 },
    );
  });

  it("is idempotent", () => {
    const more = ["<i<!---->mg src=x onerror=y>", "<scr<script>ipt>alert(1)</scr</script>ipt>", "``` `` ` <b>"];
    for (const markdown of [...seen, ...more]) {
      const once = scrub(markdown);
      expect(scrub(once), JSON.stringify(markdown)).toBe(once);
    }
  });
});

describe("processContent", () => {
  it("stores the scrubbed markdown and renders content_rendered from it", () => {
    const result = processContent({ content_markdown: "<b onclick=x>a</b> [x](javascript:y) `<script>`" });
    const content_markdown = "<b>a</b> [x](#) `<script>`";
    const content_rendered = renderMarkdown(content_markdown);
    expect(result).toEqual({ ok: true, content: { content_markdown, content_rendered } });
  });

  it("leaves the markdown converted from HTML as it is: it holds no raw HTML", () => {
    const html =
      '<p>a &lt;b&gt; <code>&lt;i&gt;</code> <a href="https://e.example">e</a></p><pre><code>&lt;script&gt;\n</code></pre>';
    const result = processContent({ content_rendered: html });
    expect(result.ok && result.content.content_markdown).toBe(htmlToMarkdown(html));
  });
});

describe("hostile input", () => {
  // Each is parsed, scrubbed and parsed again until it settles, then rendered; the timeout is part of the
  // assertion. micromark's own cost dominates: a dense 100 000 characters take it a few hundred milliseconds.
  it("is scrubbed in linear time", () => {
    const n = 100_000;
    const inputs = [
      "<a".repeat(n / 2),
      "<img src=x onerror=y>".repeat(n / 21),
      "<!--".repeat(n / 4),
      `<script>${"a".repeat(n)}`,
      "<svg>".repeat(n / 5),
      '<a title="'.repeat(n / 10),
      "<div onclick=x>\n".repeat(n / 16),
      "[x](javascript:y)".repeat(n / 17),
      "<javascript:x> ".repeat(n / 15),
      "<i<!---->mg src=x onerror=y>".repeat(n / 27),
      `${"\\".repeat(n)}<b>`,
    ];
    for (const markdown of inputs) processContent({ content_markdown: markdown });
  }, 30_000);
});

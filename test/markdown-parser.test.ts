/**
 * The parser's source spans (src/lib/markdown-parser.ts): the scrub rewrites the source at these offsets, so each
 * must cover exactly the construct markdown-it found, inside every container, and never be missing.
 */
import fc from "fast-check";
import MarkdownIt from "markdown-it";
import { describe, expect, it } from "vitest";
import { normaliseSource, parseMarkdown, type SourceSpan } from "../src/lib/markdown-parser";

const { parseLinkDestination } = new MarkdownIt().helpers;

const spansOf = (markdown: string) => {
  const parsed = parseMarkdown(normaliseSource(markdown));
  return parsed.spans.map((span) => ({ kind: span.kind, text: parsed.source.slice(span.start, span.end) }));
};

/** What each kind of span must hold, read from its own text. */
function expectSpanHolds(source: string, span: SourceSpan): void {
  const text = source.slice(span.start, span.end);
  if (span.kind === "html") expect(text.startsWith("<"), text).toBe(true);
  if (span.kind === "autolink") expect(text).toBe(`<${span.url}>`);
  if (span.kind === "destination") {
    expect(parseLinkDestination(text, 0, text.length)).toEqual({ ok: true, pos: text.length, str: span.url });
  }
  // Code, block or inline, is only kept, so any text is right for it; the cases above place inline code.
  if (span.kind === "code") expect(text.length).toBeGreaterThan(0);
}

describe("parseMarkdown spans", () => {
  it.each([
    ["in a quote", "> a <b onclick=x>b</b>", { kind: "html", text: "<b onclick=x>" }],
    [
      "after an ideographic space, which markdown-it trims",
      "\u3000<b onclick=x> a",
      { kind: "html", text: "<b onclick=x>" },
    ],
    ["in a heading after a no-break space", "#\u00a0x <b onclick=x>", { kind: "html", text: "<b onclick=x>" }],
    ["in a quote, over two lines", "> a <b\n> onclick=x>", { kind: "html", text: "<b\n> onclick=x>" }],
    ["in a lazy quote line", "> a\nb <i x>", { kind: "html", text: "<i x>" }],
    ["in a list item", "- item `co de` x", { kind: "code", text: "`co de`" }],
    ["in a nested list, indented by a tab", "- a\n\t- b <u y>", { kind: "html", text: "<u y>" }],
    ["in a table cell after an escaped pipe", "| a | b |\n|-|-|\n| x\\|y <s z> | c |", { kind: "html", text: "<s z>" }],
    ["in a table cell, code holding a pipe", "| a |\n|-|\n| `x\\|y` |", { kind: "code", text: "`x\\|y`" }],
    ["in an ATX heading with closing hashes", "## #x <i q> ##", { kind: "html", text: "<i q>" }],
    ["in a setext heading", "a <i q>\n===", { kind: "html", text: "<i q>" }],
    ["in a footnote", "x[^1]\n\n[^1]: note <b y>", { kind: "html", text: "<b y>" }],
    ["a link's destination", "[a](javascript:x 't')", { kind: "destination", text: "javascript:x" }],
    ["an angle destination", "[a](<java script:x>)", { kind: "destination", text: "<java script:x>" }],
    ["an image's destination in a link", "[![i](/i.png)](javascript:x)", { kind: "destination", text: "javascript:x" }],
    [
      "a definition's destination on the next line",
      "[a]:\n  javascript:x\n\n[a]",
      {
        kind: "destination",
        text: "javascript:x",
      },
    ],
    ["a definition in a quote", "> [a]: javascript:x\n>\n> [a]", { kind: "destination", text: "javascript:x" }],
    ["an autolink", "a <javascript:x> b", { kind: "autolink", text: "<javascript:x>" }],
    ["an html block", "<div onclick=x>\nb\n</div>", { kind: "html", text: "<div onclick=x>\nb\n</div>" }],
    ["a fence in a list", "- x\n  ```\n  <b>\n  ```", { kind: "code", text: "```\n  <b>\n  ```" }],
  ])("places %s", (_name, markdown, expected) => {
    expect(spansOf(markdown)).toContainEqual(expected);
  });

  it("leaves out a destination the link did not use", () => {
    // `[a](x` is no link; `[a]` is, to the definition, so `x` is text.
    expect(spansOf("[a](javascript:x\n\n[a]: /ok").filter((span) => span.kind === "destination")).toEqual([
      { kind: "destination", text: "/ok" },
    ]);
  });

  it("reads line endings as markdown-it does, so offsets are those of the stored text", () => {
    expect(normaliseSource("a\r\nb\rc\0")).toBe("a\nb\nc\uFFFD");
    expect(spansOf("a\r\n<b x>")).toEqual([{ kind: "html", text: "<b x>" }]);
  });

  it("places every span of any mix of containers and constructs", () => {
    const pieces = [
      ...["a", "b c", " ", "  ", "\t", "\n", "\n\n", "> ", ">", "- ", "* ", "1. ", "    ", "# ", "===\n", "---\n"],
      ...["\u3000", "\u00a0", "\u2028"],
      ...["|", "\\|", "-|-", "| --- |", "`", "``", "```\n", "~~~\n", "\\", "*", "_", "~~", "&amp;", "&#106;"],
      ...["<b>", "</b>", "<img src=x onerror=y>", "<i\nx>", "<!-- c -->", "<div>\n", "<script>\n", "<", ">"],
      ...["[a](", "](", ")", "(", "[", "]", "![i](", "javascript:x", '"t"', "<j:x>", "<http://a.example>"],
      ...["[a]: /u\n", "[a]:\n", "[a]", "[^1]", "[^1]: n\n", "www.a.com", "- [ ] ", "\\<"],
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (chosen) => {
        const parsed = parseMarkdown(chosen.join(""));
        expect(parsed.placed).toBe(true);
        for (const span of parsed.spans) expectSpanHolds(parsed.source, span);
      }),
      { numRuns: 1_000 },
    );
  });
});

import { describe, expect, it } from "vitest";
import { processContent } from "../src/lib/markdown";
import {
  IMAGE_BRACKET,
  MAX_BRACKETS,
  MAX_CONTAINER_WORK,
  MAX_CONTAINERS,
  MAX_HTML_TAGS,
  MAX_INLINE_WORK,
  MAX_NESTING,
  MAX_SOURCE_LENGTH,
  markdownWorkRefusal,
} from "../src/lib/markdown-bounds";
import { REAL_DOCUMENTS } from "./helpers/content-corpus";

/** Wall time of one call: a guard that lets pathological input through would take tens of seconds here. */
function timed(run: () => unknown): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}

describe("processContent refuses content that would cost the parser too much CPU", () => {
  it.each([
    ["containers opened on one line", "- - - - x\n".repeat(10_000)],
    ["quotes inside list items on one line", "- > - > x\n".repeat(5_000)],
    ["emphasis delimiter runs", "*a".repeat(50_000)],
    ["underscore runs", "_a".repeat(50_000)],
    ["strikethrough closers", "a~ ".repeat(60_000)],
    ["list markers on one line", `${"- ".repeat(10_000)}x`],
    ["quote markers without spaces", `${">".repeat(10_000)}x`],
    ["setext underlines", "a\n=\n".repeat(5_000)],
    ["link definitions", "[a]: b\n\n".repeat(5_000)],
    ["sources over the source limit", "a".repeat(200_001)],
  ])("refuses %s on both fields, fast", (_name, markdown) => {
    let result: ReturnType<typeof processContent> | undefined;
    expect(timed(() => (result = processContent({ content_markdown: markdown })))).toBeLessThan(1000);
    expect(result).toMatchObject({
      ok: false,
      errors: { content_markdown: expect.any(String), content_rendered: expect.any(String) },
    });
  });

  it("refuses nesting one level past the limit, by indentation too", () => {
    const nested = (depth: number) => Array.from({ length: depth }, (_, i) => `${"  ".repeat(i)}- x`).join("\n");
    expect(processContent({ content_markdown: nested(MAX_NESTING) }).ok).toBe(true);
    expect(processContent({ content_markdown: nested(MAX_NESTING + 1) })).toMatchObject({
      ok: false,
      errors: { content_markdown: `Content nests lists or quotes more than ${MAX_NESTING} deep` },
    });
  });

  it("counts opening brackets, an image's as three: markdown-it tries a link at each", () => {
    const message = `Content may have at most ${MAX_BRACKETS} link brackets ("[", "![" counting ${IMAGE_BRACKET})`;
    const refused = { ok: false, errors: { content_markdown: message, content_rendered: message } };
    expect(processContent({ content_markdown: "[a".repeat(MAX_BRACKETS) }).ok).toBe(true);
    expect(processContent({ content_markdown: "[a".repeat(MAX_BRACKETS + 1) })).toEqual(refused);
    const images = Math.floor(MAX_BRACKETS / IMAGE_BRACKET);
    expect(processContent({ content_markdown: "![a".repeat(images) }).ok).toBe(true);
    expect(processContent({ content_markdown: "![a".repeat(images + 1) })).toEqual(refused);
    // Closed links count the same: 2 000 links in paragraphs of 40.
    expect(processContent({ content_markdown: `${"[a](/b) ".repeat(40)}\n\n`.repeat(MAX_BRACKETS / 40) }).ok).toBe(
      true,
    );
  });

  it("counts the tags of raw HTML, which the scrub reads one by one", () => {
    const message = `Content may have at most ${MAX_HTML_TAGS} HTML tags`;
    expect(processContent({ content_markdown: "<b>a</b> ".repeat(MAX_HTML_TAGS / 2) }).ok).toBe(true);
    expect(processContent({ content_markdown: `${"<b>a</b> ".repeat(MAX_HTML_TAGS / 2)}<i>` })).toEqual({
      ok: false,
      errors: { content_markdown: message, content_rendered: message },
    });
    // A `<` that starts no tag is not one.
    expect(processContent({ content_markdown: "a < b ".repeat(MAX_HTML_TAGS + 1) }).ok).toBe(true);
  });

  it("counts containers kept open by lazy lines", () => {
    const lazy = `${"> ".repeat(20)}x\n${"a\n".repeat(MAX_CONTAINER_WORK / 20)}`;
    expect(processContent({ content_markdown: lazy })).toMatchObject({
      ok: false,
      errors: { content_markdown: "Content nests lists or quotes too much" },
    });
  });

  it("counts the list items and quotes opened in all", () => {
    expect(processContent({ content_markdown: "> q\n\n".repeat(MAX_CONTAINERS) }).ok).toBe(true);
    expect(processContent({ content_markdown: "> q\n\n".repeat(MAX_CONTAINERS + 1) })).toMatchObject({
      ok: false,
      errors: { content_markdown: `Content may open at most ${MAX_CONTAINERS} list items and quotes` },
    });
  });

  it("bounds the scrub's later parses too: escaping every `<` as `&lt;` may take the source over a bound", () => {
    const source = "<a ".repeat(MAX_HTML_TAGS) + "x".repeat(MAX_SOURCE_LENGTH - 3 * MAX_HTML_TAGS);
    expect(markdownWorkRefusal(source)).toBeNull();
    expect(processContent({ content_markdown: source })).toMatchObject({
      ok: false,
      errors: { content_markdown: `Content must be at most ${MAX_SOURCE_LENGTH} characters of markdown` },
    });
  });

  it("bounds delimiters by paragraph: the same markers split by blank lines pass", () => {
    const markers = Math.ceil(Math.sqrt(MAX_INLINE_WORK)) + 1;
    expect(processContent({ content_markdown: "a~ ".repeat(markers) }).ok).toBe(false);
    expect(processContent({ content_markdown: "a~ a~ a~ a~\n\n".repeat(markers / 4) }).ok).toBe(true);
  });

  it.each(Object.entries(REAL_DOCUMENTS))("accepts a real document: %s", (_name, markdown) => {
    expect(processContent({ content_markdown: markdown })).toMatchObject({ ok: true });
  });

  it("still accepts what real documents do: indented nesting, a few same-line nestings, emphasis", () => {
    const nested = Array.from({ length: 400 }, (_, i) => `${"  ".repeat(i % 6)}- item ${i}`).join("\n");
    const sameLine = "- > quoted in a list\n".repeat(150);
    const emphasis = `${"some *emphasis* and __strong__ text. ".repeat(20)}\n\n`.repeat(50);
    for (const markdown of [nested, sameLine, emphasis]) {
      expect(processContent({ content_markdown: markdown }).ok).toBe(true);
    }
  });
});

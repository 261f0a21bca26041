/**
 * The HTML path (content_rendered without content_markdown) does bounded work whatever its input
 * (docs/content.md#html-input), through HTTP: HTML over a bound is a 200001 naming both content fields, decided before
 * the conversion, and stores nothing; hostile shapes within the bounds are converted with bounded output.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MAX_RENDERED_BYTES, MAX_TABLE_CELLS, MAX_TABLE_COLUMNS } from "../src/lib/content-limits";
import { MAX_PUNCTUATION } from "../src/lib/markdown-bounds";
import { type ApiResponse, post } from "./helpers/api";
import { createTopic } from "./helpers/content";
import { createAdmin, type TestUser } from "./helpers/factories";
import { TAG_LIMIT } from "./helpers/hostile-html";

const questionCount = async () =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM questions").first<{ n: number }>())!.n;

/** A question whose content is html only, by an administrator (whom the write rate limits do not count). */
async function ask(author: TestUser, topic: number, html: string): Promise<ApiResponse> {
  const body = { title: "HTML only", content_rendered: html, topic_ids: [topic] };
  return post("/api/questions", { token: author.token, body });
}

/** Refused with 200001 on both content fields, with a message containing `says`, and nothing stored. */
async function expectRefused(html: string, says: string): Promise<void> {
  const author = await createAdmin();
  const topic = await createTopic();
  const before = await questionCount();
  const res = await ask(author, topic, html);
  expect(res.status).toBe(400);
  expect(res.body.code).toBe(200001);
  const message = expect.stringContaining(says);
  expect(res.body.errors).toEqual({ content_markdown: message, content_rendered: message });
  expect(await questionCount()).toBe(before);
}

async function accepted(html: string): Promise<{ content_markdown: string; content_rendered: string }> {
  const res = await ask(await createAdmin(), await createTopic(), html);
  expect(res.status).toBe(200);
  expect(res.body.code).toBe(0);
  return res.body.data;
}

const table = (columns: number, emptyRows: number) =>
  `<table><tr>${"<td>c</td>".repeat(columns)}</tr>${"<tr></tr>".repeat(emptyRows)}</table>`;

describe("HTML input over a bound is refused before conversion", () => {
  it(`refuses a table wider than ${MAX_TABLE_COLUMNS} columns`, async () => {
    await expectRefused(table(MAX_TABLE_COLUMNS + 1, 0), `${MAX_TABLE_COLUMNS} columns`);
  });

  it("refuses the issue's table: a wide first row, then empty rows the conversion would pad", async () => {
    // 64 x 200 padded cells from 2 KB of empty rows.
    await expectRefused(table(MAX_TABLE_COLUMNS, 200), `${MAX_TABLE_CELLS} cells`);
  });

  it(`refuses more than ${TAG_LIMIT} tags, whatever their nesting`, async () => {
    await expectRefused("<p>x".repeat(TAG_LIMIT + 1), `${TAG_LIMIT} HTML tags`);
    await expectRefused("<!-- c -->x".repeat(TAG_LIMIT + 1), `${TAG_LIMIT} HTML tags`);
    for (const [open, close] of [
      ["<div>", "</div>"],
      ["<ul><li>", ""],
      ["<blockquote>", ""],
      ["<b><i>", ""],
    ]) {
      await expectRefused(`${open!.repeat(10_000)}x${close!.repeat(10_000)}`, `${TAG_LIMIT} HTML tags`);
    }
  });

  it("refuses text with more punctuation than markdown may have (counted before the conversion)", async () => {
    // Each `*` and `_` would be escaped, and escaping is the dear part of the conversion.
    await expectRefused(`<p>${"*a_ ".repeat(MAX_PUNCTUATION / 2 + 1)}</p>`, `${MAX_PUNCTUATION} punctuation`);
  });

  it("refuses HTML over the rendered-HTML bound, before parsing it", async () => {
    await expectRefused(`<p>${"a".repeat(MAX_RENDERED_BYTES)}</p>`, `${MAX_RENDERED_BYTES / 1024} KiB`);
  });
});

describe("HTML input within the bounds converts with bounded output", () => {
  it("keeps the text of deep nesting, flattened, without overflowing the stack", async () => {
    const html = `${"<div>".repeat(TAG_LIMIT)}deep${"</div>".repeat(TAG_LIMIT)}`;
    const { content_markdown, content_rendered } = await accepted(html);
    expect(content_markdown).toBe("deep");
    expect(content_rendered).toBe("<p>deep</p>");
    // Lists and quotes that deep convert to markdown nested deeper than the markdown path takes.
    for (const [open, close] of [
      ["<ul><li>", "</li></ul>"],
      ["<blockquote>", "</blockquote>"],
    ]) {
      await expectRefused(`${open!.repeat(TAG_LIMIT / 2)}deep${close!.repeat(TAG_LIMIT / 2)}`, "nests");
    }
  });

  it("keeps at most 8 levels of nested formatting", async () => {
    const html = `${"<b><i>".repeat(TAG_LIMIT / 2)}x${"</i></b>".repeat(TAG_LIMIT / 2)}`;
    const { content_markdown, content_rendered } = await accepted(html);
    expect(content_markdown.match(/\*/g)?.length ?? 0).toBeLessThanOrEqual(2 * 3 * 4);
    expect(content_rendered).toContain("x");
  });

  it("ignores colspan and rowspan, which the conversion would pad the table out to", async () => {
    const html = `<table><tr><td colspan="1000000000" rowspan="65534">x</td><td>y</td></tr><tr><td>1</td></tr></table>`;
    const { content_markdown, content_rendered } = await accepted(html);
    // A table without <th> gets an empty header row: GFM tables must have one.
    expect(content_markdown).toBe("| | |\n| - | - |\n| x | y |\n| 1 | |");
    expect(content_rendered.match(/<td/g)).toHaveLength(4);
  });

  it("takes many attributes and huge attribute values", async () => {
    const many = await accepted(`<p ${'a="b" '.repeat(20_000)}>text</p>`);
    expect(many.content_markdown).toBe("text");
    const huge = await accepted(`<a href="/q" title="${"t".repeat(100_000)}">link</a>`);
    expect(huge.content_markdown).toBe(`[link](/q "${"t".repeat(100_000)}")`);
  });

  it("joins text split by comments instead of converting each piece", async () => {
    const { content_markdown } = await accepted("<!-- c -->a".repeat(TAG_LIMIT));
    expect(content_markdown).toBe("a".repeat(TAG_LIMIT));
  });
});

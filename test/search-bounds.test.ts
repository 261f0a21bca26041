/**
 * Search work is bounded by what the index must read, not by the characters typed (docs/search.md#limits): a prefix
 * counts the letters and digits of its last token, as FTS5 expands it, and a query holds few prefixes. Against a
 * seeded index, the rows a search reads (D1's own count, in `Server-Timing`) are held to what the index must read.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { documentOf, searchKey } from "../src/behaviours/searchable";
import { MAX_PREFIX_TERMS, parseSearchQuery } from "../src/lib/search-text";
import { get } from "./helpers/api";
import { createUser } from "./helpers/factories";

const match = (q: string) => parseSearchQuery(q);

describe("a prefix term", () => {
  it.each([
    ["a.*", '"a."'],
    ["a-*", '"a-"'],
    ['"x a"*', '"x a"'],
    ["é.*", '"é."'],
    ["中文*", '"中  文"'],
  ])("%s expands a one-letter last token: searched as a phrase, not a prefix", (q, expected) => {
    expect(match(q)).toEqual({ ok: true, match: expected });
  });

  it.each([
    ["ab*", '"ab"*'],
    ["a.bc*", '"a.bc"*'],
    ['"x ab"*', '"x ab"*'],
    ["crè*", '"crè"*'],
  ])("%s has a last token of two or more letters: a prefix", (q, expected) => {
    expect(match(q)).toEqual({ ok: true, match: expected });
  });

  it(`is allowed ${MAX_PREFIX_TERMS} times in a query, and refused beyond with the field named`, async () => {
    const allowed = Array.from({ length: MAX_PREFIX_TERMS }, (_, i) => `w${i}x*`).join(" ");
    expect(match(allowed).ok).toBe(true);
    const res = await get("/api/search", { query: { q: `${allowed} more*` } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 200001, errors: { q: `at most ${MAX_PREFIX_TERMS} prefix* terms` } });
    expect(res.roundTrips).toBe(0);
    // Words beside the prefixes are not prefixes: ten terms are still allowed.
    expect(match(`${allowed} ${"word ".repeat(10 - MAX_PREFIX_TERMS)}`).ok).toBe(true);
  });
});

/** Questions whose documents hold many distinct words starting with `a`, written as the app writes them. */
async function seed(count: number): Promise<void> {
  const author = await createUser();
  const statements: D1PreparedStatement[] = [];
  for (let id = 1; id <= count; id++) {
    const title = `a${id.toString(36)} about${id % 7} and alpha`;
    const html = `<p>a${(id * 7).toString(36)}x notes ${id % 3 === 0 ? "rare" : "common"} words</p>`;
    const doc = documentOf.question({ title, content_rendered: html });
    statements.push(
      env.DB.prepare(
        `INSERT INTO questions (question_id, user_id, title, content_markdown, content_rendered, create_time,
         update_time) VALUES (?, ?, ?, '', ?, 0, 0)`,
      ).bind(id, author.user_id, title, html),
      env.DB.prepare("INSERT INTO search_index (rowid, title, body) VALUES (?, ?, ?)").bind(
        searchKey("question", id),
        doc.title,
        doc.body,
      ),
    );
  }
  await env.DB.batch(statements);
}

const rowsRead = (res: { headers: Headers }) =>
  Number(/d1-rows;desc="(\d+) rows read"/.exec(res.headers.get("server-timing") ?? "")?.[1]);

describe("the rows a search reads, on a seeded index", () => {
  it("are those of the word alone for a one-letter prefix hidden behind punctuation", async () => {
    await seed(400);
    const search = (q: string) => get("/api/search", { query: { q, per_page: 20 } });
    const word = await search("a");
    const disguised = [await search("a.*"), await search("a-*"), await search('"and a"*')];
    for (const res of disguised) expect(res.status).toBe(200);
    // `a` alone is no word of these documents: nothing is found, and the index reads almost nothing.
    expect(word.body.pagination.total).toBe(0);
    for (const res of disguised) expect(rowsRead(res)).toBeLessThanOrEqual(rowsRead(word) + 10);
  });

  it("stay within a fixed bound for the costliest query allowed, three two-letter prefixes", async () => {
    await seed(400);
    const res = await get("/api/search", { query: { q: "ab* al* an*", per_page: 20, include: "user" } });
    expect(res.status).toBe(200);
    // Every document matches `al*` and `an*`, and a few `ab*` (`about…`): the rows read follow the matches, at most
    // about 8 per document for the total, the page and the include (docs/search.md#cost), not the vocabulary.
    expect(res.body.pagination.total).toBe(400);
    expect(rowsRead(res)).toBeLessThan(400 * 12);
  });
});

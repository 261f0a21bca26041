/**
 * Content work is bounded whatever the input (docs/security.md#content-work-is-bounded): the hostile corpus of
 * test/helpers/content-corpus.ts, each shape at the most characters the pipeline takes, sent through HTTP to the
 * content writes. Every answer is a 200 with bounded HTML or a 200001 naming both content fields, and a refused
 * write stores nothing. The full corpus goes through POST /api/questions; every other write gets a sample.
 * The many writes are an administrator's, whom the write rate limits do not count.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MAX_RENDERED_BYTES } from "../src/lib/content-limits";
import { type ApiResponse, patch, post } from "./helpers/api";
import { createComment, createQuestion, createTopic } from "./helpers/content";
import { MARKDOWN_CORPUS, REAL_DOCUMENTS, wideTable } from "./helpers/content-corpus";
import { createAdmin, createUser } from "./helpers/factories";

const TABLES = ["questions", "answers", "articles", "comments"];

async function rowCounts(): Promise<number[]> {
  const counts: number[] = [];
  for (const table of TABLES) {
    counts.push((await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table}`).first<{ n: number }>())!.n);
  }
  return counts;
}

/** A 200 whose HTML is within the bound, or a 200001 on both content fields; never anything else. */
function expectBounded(res: ApiResponse): void {
  expect(res.status).toBeLessThan(500);
  if (res.body.code === 0) {
    expect(res.status).toBe(200);
    expect(new TextEncoder().encode(res.body.data.content_rendered).length).toBeLessThanOrEqual(MAX_RENDERED_BYTES);
    return;
  }
  expect(res.status).toBe(400);
  expect(res.body.code).toBe(200001);
  expect(res.body.errors).toEqual({ content_markdown: expect.any(String), content_rendered: expect.any(String) });
}

/** The write's verdict, with the check that a refused one wrote nothing. */
async function write(send: () => Promise<ApiResponse>): Promise<ApiResponse> {
  const before = await rowCounts();
  const res = await send();
  expectBounded(res);
  if (res.body.code !== 0) expect(await rowCounts()).toEqual(before);
  return res;
}

/** A question with this content. */
const postQuestion = (token: string, topic: number, content: Record<string, string>) =>
  post("/api/questions", { token, body: { title: "A title", ...content, topic_ids: [topic] } });

/** The table through content_rendered: n cells in the first row, then m empty rows. */
const htmlTable = (n: number, m: number) => `<table><tr>${"<td></td>".repeat(n)}</tr>${"<tr></tr>".repeat(m)}</table>`;

const SAMPLE = [
  "issue: table 250 x 250 (2 KB)",
  "issue: a~ x 60,000",
  "issue: '- ' x 10,000 + x",
  "close brackets",
  "setext headings",
  "nesting by indentation",
] as const;

describe("content writes do bounded work whatever their input", () => {
  it("answers the issue's three shapes on POST /api/questions with a 200001, and stores nothing", async () => {
    const author = await createUser();
    const topic = await createTopic();
    for (const markdown of [wideTable(250), wideTable(1000), "a~ ".repeat(60_000), `${"- ".repeat(10_000)}x`]) {
      const res = await write(() => postQuestion(author.token, topic, { content_markdown: markdown }));
      expect(res.body.code).toBe(200001);
    }
  });

  it("answers every shape of the corpus on POST /api/questions within the bounds", async () => {
    const author = await createAdmin();
    const topic = await createTopic();
    for (const [name, markdown] of Object.entries(MARKDOWN_CORPUS)) {
      const res = await write(() => postQuestion(author.token, topic, { content_markdown: markdown }));
      expect(res.body.code === 0 || res.body.code === 200001, name).toBe(true);
    }
  }, 60_000);

  it("applies the same bounds to answers, articles, and the edits of all three", async () => {
    const author = await createAdmin();
    const topic = await createTopic();
    const questionId = await createQuestion(author.user_id);
    const article = await post("/api/articles", {
      token: author.token,
      body: { title: "A title", content_markdown: "body", topic_ids: [topic] },
    });
    const articleId = article.body.data.article_id;
    const answers = `/api/questions/${questionId}/answers`;
    const answer = await post(answers, { token: author.token, body: { content_markdown: "ok" } });
    const answerId = answer.body.data.answer_id;
    for (const name of SAMPLE) {
      const body = { content_markdown: MARKDOWN_CORPUS[name] };
      for (const send of [
        () => post(answers, { token: author.token, body }),
        () => post("/api/articles", { token: author.token, body: { ...body, title: "A title", topic_ids: [topic] } }),
        () => patch(`/api/questions/${questionId}`, { token: author.token, body }),
        () => patch(`/api/answers/${answerId}`, { token: author.token, body }),
        () => patch(`/api/articles/${articleId}`, { token: author.token, body }),
      ]) {
        expect((await write(send)).body.code, name).toBe(200001);
      }
    }
  }, 60_000);

  it("leaves an edit refused by a bound without effect on the item", async () => {
    const author = await createUser();
    const admin = await createAdmin();
    const questionId = await createQuestion(author.user_id, { content_markdown: "before" });
    const body = { content_markdown: "a~ ".repeat(60_000) };
    const res = await patch(`/api/questions/${questionId}`, { token: admin.token, body });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(200001);
    const stored = await env.DB.prepare("SELECT content_markdown FROM questions WHERE question_id = ?")
      .bind(questionId)
      .first<{ content_markdown: string }>();
    expect(stored!.content_markdown).toBe("before");
  });

  it("bounds the HTML path: the issue's table as content_rendered, and its markdown sent as HTML", async () => {
    const author = await createAdmin();
    const topic = await createTopic();
    const questionId = await createQuestion(author.user_id);
    const shapes = [htmlTable(250, 250), htmlTable(1000, 1000), htmlTable(64, 5_000), `<p>${"a~ ".repeat(60_000)}</p>`];
    for (const html of shapes) {
      await write(() => postQuestion(author.token, topic, { content_rendered: html }));
      const answers = `/api/questions/${questionId}/answers`;
      await write(() => post(answers, { token: author.token, body: { content_rendered: html } }));
    }
  }, 60_000);

  it("accepts real long documents", async () => {
    const author = await createAdmin();
    const topic = await createTopic();
    for (const [name, markdown] of Object.entries(REAL_DOCUMENTS)) {
      const res = await write(() => postQuestion(author.token, topic, { content_markdown: markdown }));
      expect(res.body.code, name).toBe(0);
    }
  }, 60_000);

  it("bounds comments and replies by their length: plain text, never parsed", async () => {
    const author = await createUser();
    const questionId = await createQuestion(author.user_id);
    const commentId = await createComment(author.user_id, "question", questionId);
    const hostile = "a~ [*".repeat(200);
    for (const path of [`/api/questions/${questionId}/comments`, `/api/comments/${commentId}/replies`]) {
      const accepted = await post(path, { token: author.token, body: { content: hostile } });
      expect(accepted.status).toBe(200);
      expect(accepted.body.data.content).toBe(hostile);
      const before = await rowCounts();
      const refused = await post(path, { token: author.token, body: { content: `${hostile}x` } });
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe(200001);
      expect(refused.body.errors).toEqual({ content: expect.any(String) });
      expect(await rowCounts()).toEqual(before);
    }
  });
});

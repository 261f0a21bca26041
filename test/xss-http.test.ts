/**
 * Every XSS payload of the corpus, sent through every content field of the API (questions, answers and
 * articles; markdown only, HTML only, both; on create and on edit), must come back neutralised: the HTML
 * field safe by an independent parser, the markdown source safe for clients that render it with raw HTML on.
 * Plain-text fields (titles, comments) are returned exactly as written, as JSON strings
 * (docs/decisions.md#text-is-returned-as-written).
 */
import { describe, expect, it } from "vitest";
import { type ApiResponse, get, patch, post } from "./helpers/api";
import { createTopic } from "./helpers/content";
import { createAdmin, createUser } from "./helpers/factories";
import { expectSafe, expectSafeMarkdown, XSS } from "./helpers/xss";

async function expectNeutralised(res: ApiResponse): Promise<void> {
  // A payload may also be refused outright (empty once cleaned, or too complex): refused is safe too.
  if (res.body.code === 200001) return;
  expect(res.status).toBe(200);
  const records = Array.isArray(res.body.data) ? res.body.data : [res.body.data];
  for (const record of records) {
    await expectSafe(record.content_rendered);
    await expectSafeMarkdown(record.content_markdown);
  }
}

describe("XSS payloads through every content field over HTTP", () => {
  it.each(XSS)("neutralises %j", async (payload) => {
    const author = await createUser();
    const admin = await createAdmin();
    const topic = await createTopic();
    const title = "A title";

    const question = await post("/api/questions", {
      token: author.token,
      body: { title, content_markdown: payload, topic_ids: [topic] },
    });
    await expectNeutralised(question);
    const article = await post("/api/articles", {
      token: author.token,
      body: { title, content_markdown: payload, content_rendered: payload, topic_ids: [topic] },
    });
    await expectNeutralised(article);

    // HTML-only input, and edits, through records that exist whatever the payload did to the first two.
    const host = await post("/api/questions", {
      token: author.token,
      body: { title, content_markdown: "host", topic_ids: [topic] },
    });
    const questionId = host.body.data.question_id;
    await expectNeutralised(
      await post(`/api/questions/${questionId}/answers`, { token: author.token, body: { content_rendered: payload } }),
    );
    const answer = await post(`/api/questions/${questionId}/answers`, {
      token: author.token,
      body: { content_markdown: "ok" },
    });
    await expectNeutralised(
      await patch(`/api/answers/${answer.body.data.answer_id}`, {
        token: admin.token,
        body: { content_markdown: payload },
      }),
    );
    await expectNeutralised(
      await patch(`/api/questions/${questionId}`, { token: admin.token, body: { content_rendered: payload } }),
    );

    // What readers get back later, in lists and single reads.
    await expectNeutralised(await get(`/api/questions/${questionId}/answers`, { query: { per_page: 100 } }));
    await expectNeutralised(await get(`/api/questions/${questionId}`));
  });

  it("returns plain-text fields exactly as written, as JSON strings", async () => {
    const author = await createUser();
    const topic = await createTopic();
    const text = '<script>alert("x")</script> & <b>';
    const question = await post("/api/questions", {
      token: author.token,
      body: { title: text, content_markdown: "body", topic_ids: [topic] },
    });
    expect(question.body.data.title).toBe(text);
    const comment = await post(`/api/questions/${question.body.data.question_id}/comments`, {
      token: author.token,
      body: { content: text },
    });
    expect(comment.status).toBe(200);
    expect(comment.body.data.content).toBe(text);
  });
});

describe("external links over HTTP", () => {
  // Each of these leaves the site in a browser although it does not start with `http://` or `//`.
  const EXTERNAL = ["http:evil.com", "\\\\evil.com", "/\\evil.com", "//evil.com"];

  it('gives rel="nofollow noopener" to raw-HTML links in the stored markdown that leave the site', async () => {
    const author = await createUser();
    const topic = await createTopic();
    const links = EXTERNAL.map((href) => `<a href="${href}" rel="author">x</a>`).join(" ");
    const body = { title: "Links", content_markdown: links, topic_ids: [topic] };
    const res = await post("/api/questions", { token: author.token, body });
    expect(res.status).toBe(200);
    const stored = EXTERNAL.map((href) => `<a href="${href}" rel="nofollow noopener">x</a>`).join(" ");
    expect(res.body.data.content_markdown).toBe(stored);
    expect((await get(`/api/questions/${res.body.data.question_id}`)).body.data.content_markdown).toBe(stored);
  });

  it("gives it to a markdown link to http:host, and not to a link within the site", async () => {
    const author = await createUser();
    const topic = await createTopic();
    const markdown = "[out](http:evil.com) [in](/questions/1) [mail](mailto:a@b.example)";
    const body = { title: "Links", content_markdown: markdown, topic_ids: [topic] };
    const res = await post("/api/questions", { token: author.token, body });
    expect(res.status).toBe(200);
    expect(res.body.data.content_rendered).toBe(
      '<p><a href="http:evil.com" rel="nofollow noopener">out</a> <a href="/questions/1">in</a> ' +
        '<a href="mailto:a@b.example">mail</a></p>',
    );
  });
});

import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { imageKeysIn } from "../src/behaviours/image-linking";
import { picture } from "./fixtures/pictures";
import { call, get, patch, post } from "./helpers/api";
import { createTopic } from "./helpers/content";
import { createUser, type TestUser } from "./helpers/factories";

async function uploadImage(user: TestUser): Promise<{ key: string; release: string }> {
  const form = new FormData();
  form.append("image", new File([picture("png", 40, 30)], "shot.png", { type: "image/png" }));
  const res = await post("/api/images", { token: user.token, rawBody: form });
  expect(res.status).toBe(200);
  return { key: res.body.data.key.replace(/_(\w+)$/, ".$1"), release: res.body.data.urls.release };
}

async function linkOf(key: string) {
  return env.DB.prepare("SELECT item_type, item_id FROM images WHERE key = ?")
    .bind(key)
    .first<{ item_type: string | null; item_id: number }>();
}

describe("images referenced from content", () => {
  it("finds keys in any size's URL, in every extension spelling", () => {
    const hex = "0123456789abcdef0123456789abcdef";
    expect(
      imageKeysIn(`![a](https://x/upload/image/2026-11/22/01/${hex}_release.png) and /${hex.toUpperCase()}.JPEG`),
    ).toEqual([`${hex}.png`, `${hex}.jpg`]);
    expect(imageKeysIn("no images here")).toEqual([]);
  });

  it("links the author's own images to a new question, answer and article, and on edit", async () => {
    const author = await createUser();
    const topic = await createTopic();
    const [a, b, c, d] = [
      await uploadImage(author),
      await uploadImage(author),
      await uploadImage(author),
      await uploadImage(author),
    ];

    const question = await post("/api/questions", {
      token: author.token,
      body: { title: "With a picture", content_markdown: `![x](${a.release})`, topic_ids: [topic] },
    });
    const questionId = question.body.data.question_id;
    expect(await linkOf(a.key)).toEqual({ item_type: "question", item_id: questionId });

    const answer = await post(`/api/questions/${questionId}/answers`, {
      token: author.token,
      body: { content_markdown: `![y](${b.release})` },
    });
    expect(await linkOf(b.key)).toEqual({ item_type: "answer", item_id: answer.body.data.answer_id });

    const article = await post("/api/articles", {
      token: author.token,
      body: { title: "Article", content_markdown: `![z](${c.release})`, topic_ids: [topic] },
    });
    expect(await linkOf(c.key)).toEqual({ item_type: "article", item_id: article.body.data.article_id });

    await patch(`/api/articles/${article.body.data.article_id}`, {
      token: (await createUser({ role: "admin" })).token,
      body: { content_markdown: `![w](${d.release})` },
    });
    expect(await linkOf(d.key)).toEqual({ item_type: "article", item_id: article.body.data.article_id });

    const image = await get(`/api/images/${a.key}`, { query: { include: "question" } });
    expect(image.body.data.relationships.question.question_id).toBe(questionId);
  });

  it("never links someone else's image, nor one already linked", async () => {
    const owner = await createUser();
    const other = await createUser();
    const topic = await createTopic();
    const image = await uploadImage(owner);
    const first = await post("/api/questions", {
      token: owner.token,
      body: { title: "Mine", content_markdown: `![x](${image.release})`, topic_ids: [topic] },
    });
    await post("/api/questions", {
      token: other.token,
      body: { title: "Theirs", content_markdown: `![x](${image.release})`, topic_ids: [topic] },
    });
    await post("/api/questions", {
      token: owner.token,
      body: { title: "Mine again", content_markdown: `![x](${image.release})`, topic_ids: [topic] },
    });
    expect(await linkOf(image.key)).toEqual({ item_type: "question", item_id: first.body.data.question_id });

    const stranger = await uploadImage(other);
    await post("/api/questions", {
      token: owner.token,
      body: { title: "Borrowed", content_markdown: `![x](${stranger.release})`, topic_ids: [topic] },
    });
    expect(await linkOf(stranger.key)).toEqual({ item_type: null, item_id: 0 });
  });

  it("deletes a hard-deleted question's images, its answers' too, rows and files", async () => {
    const author = await createUser();
    const admin = await createUser({ role: "admin" });
    const topic = await createTopic();
    const [own, ofAnswer, unrelated] = [
      await uploadImage(author),
      await uploadImage(author),
      await uploadImage(author),
    ];
    const question = await post("/api/questions", {
      token: author.token,
      body: { title: "Pictured", content_markdown: `![x](${own.release})`, topic_ids: [topic] },
    });
    const questionId = question.body.data.question_id;
    await post(`/api/questions/${questionId}/answers`, {
      token: author.token,
      body: { content_markdown: `![y](${ofAnswer.release})` },
    });
    const filesOf = (release: string) =>
      [release, release.replace("_release", ""), release.replace("_release", "_thumb")].map((url) =>
        url.slice(url.indexOf("/upload/") + 8),
      );
    for (const path of filesOf(own.release)) expect(await env.BUCKET.head(path)).not.toBeNull();

    const res = await call("DELETE", `/api/questions/${questionId}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    expect(await linkOf(own.key)).toBeNull();
    expect(await linkOf(ofAnswer.key)).toBeNull();
    for (const path of [...filesOf(own.release), ...filesOf(ofAnswer.release)])
      expect(await env.BUCKET.head(path)).toBeNull();
    expect(await linkOf(unrelated.key)).toEqual({ item_type: null, item_id: 0 });
    for (const path of filesOf(unrelated.release)) expect(await env.BUCKET.head(path)).not.toBeNull();
  });
});

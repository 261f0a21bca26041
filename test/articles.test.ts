/**
 * Articles (docs/operations.md#articles, docs/operations.md#user-content-lists, docs/counters.md,
 * docs/permissions.md#author-edit-and-delete-rules, docs/permissions.md#restricted-fields, docs/content.md#validation;
 * spec operation 8): create, edit, read and list over HTTP for every kind of caller, exact counters, the author rule's
 * codes, trashed articles, the followers family on articles, and the D1 round-trip budget.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { now } from "../src/lib/time";
import { type ApiResponse, get, patch, post } from "./helpers/api";
import { createArticle, createComment, createTopic, recountCounters, row } from "./helpers/content";
import { createAdmin, createUser, setOptions, type TestUser } from "./helpers/factories";

const ALL = "user,topics,is_following,voting";
const T = now() - 100_000;

const imageUrls = {
  original: expect.any(String),
  small: expect.any(String),
  middle: expect.any(String),
  large: expect.any(String),
};
const userSummary = (user: TestUser) => ({
  user_id: user.user_id,
  username: user.username,
  headline: "",
  avatar: imageUrls,
});
const topicSummary = async (topicId: number) => ({
  topic_id: topicId,
  name: (await row<{ name: string }>("topics", "topic_id", topicId)).name,
  cover: imageUrls,
});

const idsOf = (res: ApiResponse) => (res.body.data as { article_id: number }[]).map((a) => a.article_id);

async function setArticle(id: number, fields: Record<string, number>): Promise<void> {
  const names = Object.keys(fields);
  await env.DB.prepare(`UPDATE articles SET ${names.map((n) => `${n} = ?`).join(", ")} WHERE article_id = ?`)
    .bind(...Object.values(fields), id)
    .run();
}

async function trashArticle(id: number): Promise<void> {
  await setArticle(id, { delete_time: now() });
  await recountCounters("article", [id]);
}

async function disableInDb(user: TestUser): Promise<void> {
  await env.DB.prepare("UPDATE users SET disable_time = ? WHERE user_id = ?").bind(now(), user.user_id).run();
}

async function vote(user: TestUser, articleId: number, type: "up" | "down"): Promise<void> {
  await env.DB.prepare(
    "INSERT INTO votes (user_id, votable_id, votable_type, type, create_time) VALUES (?, ?, 'article', ?, ?)",
  )
    .bind(user.user_id, articleId, type, now())
    .run();
}

async function followAt(user: TestUser, articleId: number, time: number): Promise<void> {
  await env.DB.prepare(
    "INSERT INTO follows (user_id, followable_id, followable_type, create_time) VALUES (?, ?, 'article', ?)",
  )
    .bind(user.user_id, articleId, time)
    .run();
}

const count = async (sql: string) => (await env.DB.prepare(sql).first<number>("n")) ?? 0;
const articleCount = (user: TestUser) =>
  row<{ article_count: number }>("users", "user_id", user.user_id).then((r) => r.article_count);
const topicArticleCount = (topicId: number) =>
  row<{ article_count: number }>("topics", "topic_id", topicId).then((r) => r.article_count);

describe("POST /api/articles", () => {
  const body = (topicIds: number[]) => ({
    title: "An article title",
    content_markdown: "Some **bold** text",
    topic_ids: topicIds,
  });

  it("refuses an anonymous caller with 201001, before looking at the body", async () => {
    const res = await post("/api/articles", { body: {} });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(201001);
  });

  it("refuses a disabled user's token with 201001", async () => {
    const user = await createUser();
    const topic = await createTopic();
    await disableInDb(user);
    const res = await post("/api/articles", { token: user.token, body: body([topic]) });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(201001);
    expect(await count("SELECT count(*) AS n FROM articles")).toBe(0);
  });

  it("publishes an article with its topics and moves every counter once, within the write budget", async () => {
    const user = await createUser();
    const [first, second] = [await createTopic(), await createTopic()];
    const res = await post("/api/articles", {
      token: user.token,
      query: { include: ALL },
      body: { ...body([second, first, second]), title: "  Padded title  " },
    });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    const data = res.body.data;
    expect(data).toEqual({
      article_id: expect.any(Number),
      user_id: user.user_id,
      title: "Padded title",
      content_markdown: "Some **bold** text",
      content_rendered: "<p>Some <strong>bold</strong> text</p>",
      comment_count: 0,
      follower_count: 0,
      vote_count: 0,
      vote_up_count: 0,
      vote_down_count: 0,
      create_time: expect.any(Number),
      update_time: data.create_time,
      // Topics in the order sent, repeats ignored; no auto-follow (docs/operations.md#articles).
      relationships: {
        user: userSummary(user),
        topics: [await topicSummary(second), await topicSummary(first)],
        is_following: false,
        voting: "",
      },
    });
    expect(Math.abs(data.create_time - now())).toBeLessThanOrEqual(2);
    expect(await articleCount(user)).toBe(1);
    expect(await topicArticleCount(first)).toBe(1);
    expect(await topicArticleCount(second)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM topicables")).toBe(2);
    expect(await count("SELECT count(*) AS n FROM follows")).toBe(0);
  });

  it("answers without relationships when nothing is included, and shows delete_time to administrators only", async () => {
    const user = await createUser();
    const admin = await createAdmin();
    const topic = await createTopic();
    const mine = await post("/api/articles", { token: user.token, query: { include: "unknown" }, body: body([topic]) });
    expect(mine.status).toBe(200);
    expect(mine.body.data).not.toHaveProperty("relationships");
    expect(mine.body.data).not.toHaveProperty("delete_time");
    const theirs = await post("/api/articles", { token: admin.token, body: body([topic]) });
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.delete_time).toBe(0);
    expect(await topicArticleCount(topic)).toBe(2);
  });

  it("takes HTML content when no Markdown is sent", async () => {
    const user = await createUser();
    const topic = await createTopic();
    const res = await post("/api/articles", {
      token: user.token,
      body: {
        title: "HTML article",
        content_rendered: "<p>Hello <em>there</em></p><script>alert(1)</script>",
        topic_ids: [topic],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.content_markdown).toContain("Hello");
    expect(res.body.data.content_rendered).toContain("<em>there</em>");
    expect(res.body.data.content_rendered).not.toContain("<script");
  });

  it.each([
    ["missing", {}, "required"],
    ["a single character", { title: " a " }, "2 to 80 characters"],
    ["81 characters", { title: "x".repeat(81) }, "2 to 80 characters"],
    ["not a string", { title: 12 }, "must be a string"],
  ])("refuses a title that is %s with 200001 on title", async (_, fields, message) => {
    const user = await createUser();
    const topic = await createTopic();
    const res = await post("/api/articles", {
      token: user.token,
      body: { content_markdown: "text", topic_ids: [topic], ...fields },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(200001);
    expect(res.body.errors).toEqual({ title: message });
    expect(await count("SELECT count(*) AS n FROM articles")).toBe(0);
  });

  it("counts the title in characters, not UTF-16 units", async () => {
    const user = await createUser();
    const topic = await createTopic();
    const title = "话".repeat(40) + "😀".repeat(40);
    const res = await post("/api/articles", {
      token: user.token,
      body: { title, content_markdown: "text", topic_ids: [topic] },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.title).toBe(title);
  });

  it.each([
    ["missing", {}],
    ["blank", { content_markdown: "   ", content_rendered: "" }],
    ["markup without text", { content_rendered: "<p></p>" }],
  ])("refuses content that is %s with 200001 on both content fields", async (_, fields) => {
    const user = await createUser();
    const topic = await createTopic();
    const res = await post("/api/articles", {
      token: user.token,
      body: { title: "A title", topic_ids: [topic], ...fields },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(200001);
    expect(Object.keys(res.body.errors).sort()).toEqual(["content_markdown", "content_rendered"]);
    expect(await articleCount(user)).toBe(0);
  });

  it.each([
    ["missing", undefined],
    ["empty", []],
    ["11 topics", "eleven"],
    ["not an array", 5],
    ["strings", ["1"]],
    ["zero", [0]],
    ["fractions", [1.5]],
  ])("refuses topic_ids that are %s with 200001 on topic_ids", async (_, value) => {
    const user = await createUser();
    const topics = await Promise.all(Array.from({ length: 11 }, () => createTopic()));
    const topic_ids = value === "eleven" ? topics : value;
    const res = await post("/api/articles", {
      token: user.token,
      body: { title: "A title", content_markdown: "text", topic_ids },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(200001);
    expect(Object.keys(res.body.errors)).toEqual(["topic_ids"]);
  });

  it("accepts ten topics after repeats are removed", async () => {
    const user = await createUser();
    const topics = await Promise.all(Array.from({ length: 10 }, () => createTopic()));
    const res = await post("/api/articles", {
      token: user.token,
      query: { include: "topics" },
      body: body([...topics, ...topics]),
    });
    expect(res.status).toBe(200);
    expect(res.body.data.relationships.topics.map((t: { topic_id: number }) => t.topic_id)).toEqual(topics);
  });

  it.each(["unknown", "trashed"])("refuses an %s topic with 200001 on topic_ids and writes nothing", async (kind) => {
    const user = await createUser();
    const live = await createTopic();
    const bad = kind === "unknown" ? 987654 : await createTopic({ delete_time: now() });
    const res = await post("/api/articles", { token: user.token, body: body([live, bad]) });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(200001);
    expect(Object.keys(res.body.errors)).toEqual(["topic_ids"]);
    expect(await count("SELECT count(*) AS n FROM articles")).toBe(0);
    expect(await topicArticleCount(live)).toBe(0);
    expect(await articleCount(user)).toBe(0);
  });

  it("reports bad content and a bad topic together", async () => {
    const user = await createUser();
    const res = await post("/api/articles", { token: user.token, body: { title: "A title", topic_ids: [987654] } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(200001);
    expect(Object.keys(res.body.errors).sort()).toEqual(["content_markdown", "content_rendered", "topic_ids"]);
  });
});

describe("GET /api/articles/{article_id}", () => {
  it("shows an article to anonymous callers with every include", async () => {
    const author = await createUser();
    const topic = await createTopic();
    const id = await createArticle(author.user_id, { topic_ids: [topic], create_time: T });
    const res = await get(`/api/articles/${id}`, { query: { include: ALL } });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body.data).toEqual({
      article_id: id,
      user_id: author.user_id,
      title: "An article title",
      content_markdown: "article body",
      content_rendered: "<p>article body</p>",
      comment_count: 0,
      follower_count: 0,
      vote_count: 0,
      vote_up_count: 0,
      vote_down_count: 0,
      create_time: T,
      update_time: T,
      relationships: {
        user: userSummary(author),
        topics: [await topicSummary(topic)],
        is_following: false,
        voting: "",
      },
    });
  });

  it("shows the caller's follow and vote, within the read budget", async () => {
    const author = await createUser();
    const reader = await createUser();
    const id = await createArticle(author.user_id);
    await followAt(reader, id, T);
    await vote(reader, id, "down");
    const res = await get(`/api/articles/${id}`, { token: reader.token, query: { include: ALL } });
    expect(res.status).toBe(200);
    expect(res.roundTrips).toBeLessThanOrEqual(1);
    expect(res.body.data.relationships).toMatchObject({ is_following: true, voting: "down" });
    const other = await get(`/api/articles/${id}`, { token: author.token, query: { include: "is_following,voting" } });
    expect(other.body.data.relationships).toEqual({ is_following: false, voting: "" });
    // A disabled user's token no longer works: they read as an anonymous caller.
    await disableInDb(reader);
    const disabled = await get(`/api/articles/${id}`, {
      token: reader.token,
      query: { include: "is_following,voting" },
    });
    expect(disabled.status).toBe(200);
    expect(disabled.body.data.relationships).toEqual({ is_following: false, voting: "" });
  });

  it("hides a trashed article with 206001 from everyone but administrators, who see delete_time", async () => {
    const author = await createUser();
    const admin = await createAdmin();
    const id = await createArticle(author.user_id);
    const live = await get(`/api/articles/${id}`, { token: admin.token });
    expect(live.body.data.delete_time).toBe(0);
    await trashArticle(id);
    for (const token of [undefined, author.token]) {
      const res = await get(`/api/articles/${id}`, { token });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(206001);
    }
    const res = await get(`/api/articles/${id}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.data.delete_time).toBeGreaterThan(0);
  });

  it("answers 206001 for a missing article and 200001 for an id that is not one", async () => {
    const missing = await get("/api/articles/987654");
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe(206001);
    for (const bad of ["abc", "0", "1.5", "-3"]) {
      const res = await get(`/api/articles/${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(200001);
      expect(Object.keys(res.body.errors)).toEqual(["article_id"]);
    }
  });
});

describe("PATCH /api/articles/{article_id}", () => {
  const allowEdits = () => setOptions({ article_can_edit: true, article_can_edit_only_no_comment: false });

  it("refuses anonymous callers and disabled users' tokens with 201001", async () => {
    const author = await createUser();
    const id = await createArticle(author.user_id);
    const anonymous = await patch(`/api/articles/${id}`, { body: { title: "New title" } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe(201001);
    await disableInDb(author);
    const disabled = await patch(`/api/articles/${id}`, { token: author.token, body: { title: "New title" } });
    expect(disabled.status).toBe(401);
    expect(disabled.body.code).toBe(201001);
    expect((await row<{ title: string }>("articles", "article_id", id)).title).toBe("An article title");
  });

  it("answers 206001 for a missing or trashed article, for administrators too, before looking at the body", async () => {
    const admin = await createAdmin();
    const id = await createArticle(admin.user_id);
    await trashArticle(id);
    for (const path of ["/api/articles/987654", `/api/articles/${id}`]) {
      const res = await patch(path, { token: admin.token, body: { title: 5 } });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(206001);
    }
  });

  it("applies the author rule before the body: 206003 for someone else, even with a bad body", async () => {
    await allowEdits();
    const author = await createUser();
    const other = await createUser();
    const id = await createArticle(author.user_id);
    const res = await patch(`/api/articles/${id}`, { token: other.token, body: { title: 5, topic_ids: "x" } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(206003);
  });

  it("refuses the author with 206002 while article_can_edit is off (the default)", async () => {
    const author = await createUser();
    const id = await createArticle(author.user_id);
    const res = await patch(`/api/articles/${id}`, { token: author.token, body: { title: "New title" } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(206002);
  });

  it("refuses the author with 206004 after article_can_edit_before seconds", async () => {
    await setOptions({ article_can_edit: true, article_can_edit_before: 100, article_can_edit_only_no_comment: false });
    const author = await createUser();
    const late = await createArticle(author.user_id, { create_time: now() - 1000 });
    const res = await patch(`/api/articles/${late}`, { token: author.token, body: { title: "New title" } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(206004);
    const early = await createArticle(author.user_id, { create_time: now() - 10 });
    expect((await patch(`/api/articles/${early}`, { token: author.token, body: { title: "New title" } })).status).toBe(
      200,
    );
  });

  it("refuses the author with 206005 once the article has comments, while article_can_edit_only_no_comment is on", async () => {
    await setOptions({ article_can_edit: true, article_can_edit_only_no_comment: true });
    const author = await createUser();
    const id = await createArticle(author.user_id);
    await createComment(author.user_id, "article", id);
    const res = await patch(`/api/articles/${id}`, { token: author.token, body: { title: "New title" } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(206005);
  });

  it("lets the author edit the title and content, which moves update_time, within the write budget", async () => {
    await allowEdits();
    const author = await createUser();
    const id = await createArticle(author.user_id, { create_time: T });
    const res = await patch(`/api/articles/${id}`, {
      token: author.token,
      query: { include: "user" },
      body: { title: " Edited title ", content_markdown: "_new_ body" },
    });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    expect(res.body.data).toMatchObject({
      article_id: id,
      title: "Edited title",
      content_markdown: "_new_ body",
      content_rendered: "<p><em>new</em> body</p>",
      create_time: T,
      relationships: { user: userSummary(author) },
    });
    expect(res.body.data.update_time).toBeGreaterThan(T);
  });

  it("changes only the fields sent", async () => {
    await allowEdits();
    const author = await createUser();
    const topic = await createTopic();
    const id = await createArticle(author.user_id, { topic_ids: [topic], create_time: T });
    const res = await patch(`/api/articles/${id}`, {
      token: author.token,
      query: { include: "topics" },
      body: { content_rendered: "<p>HTML edit</p>" },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.title).toBe("An article title");
    expect(res.body.data.content_markdown).toBe("HTML edit");
    expect(res.body.data.relationships.topics).toEqual([await topicSummary(topic)]);
    const nothing = await patch(`/api/articles/${id}`, { token: author.token, body: {} });
    expect(nothing.status).toBe(200);
    expect(nothing.body.data).toEqual({ ...res.body.data, relationships: undefined });
  });

  it("replaces the topics, moving the counters, without moving update_time", async () => {
    await allowEdits();
    const author = await createUser();
    const [kept, removed, added] = [await createTopic(), await createTopic(), await createTopic()];
    const id = await createArticle(author.user_id, { topic_ids: [kept, removed], create_time: T });
    const res = await patch(`/api/articles/${id}`, {
      token: author.token,
      query: { include: "topics" },
      body: { topic_ids: [added, kept, added] },
    });
    expect(res.status).toBe(200);
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    expect(res.body.data.update_time).toBe(T);
    // A kept topic keeps its place; a new one comes after it.
    expect(res.body.data.relationships.topics).toEqual([await topicSummary(kept), await topicSummary(added)]);
    expect([await topicArticleCount(kept), await topicArticleCount(removed), await topicArticleCount(added)]).toEqual([
      1, 0, 1,
    ]);
    expect(await articleCount(author)).toBe(1);
  });

  it("never takes a topic's article_count below 0", async () => {
    await allowEdits();
    const author = await createUser();
    const [old, other] = [await createTopic(), await createTopic()];
    const id = await createArticle(author.user_id, { topic_ids: [old] });
    await env.DB.prepare("UPDATE topics SET article_count = 0 WHERE topic_id = ?").bind(old).run();
    const res = await patch(`/api/articles/${id}`, { token: author.token, body: { topic_ids: [other] } });
    expect(res.status).toBe(200);
    expect(await topicArticleCount(old)).toBe(0);
  });

  it("validates after the checks: a bad title, content or topic is 200001 and changes nothing", async () => {
    await allowEdits();
    const author = await createUser();
    const topic = await createTopic();
    const trashed = await createTopic({ delete_time: now() });
    const id = await createArticle(author.user_id, { topic_ids: [topic] });
    const cases: [Record<string, unknown>, string[]][] = [
      [{ title: "x" }, ["title"]],
      [{ content_markdown: "  " }, ["content_markdown", "content_rendered"]],
      [{ topic_ids: [] }, ["topic_ids"]],
      [{ topic_ids: [trashed] }, ["topic_ids"]],
      [{ title: "Fine title", topic_ids: [topic, 987654] }, ["topic_ids"]],
    ];
    for (const [body, fields] of cases) {
      const res = await patch(`/api/articles/${id}`, { token: author.token, body });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(200001);
      expect(Object.keys(res.body.errors).sort()).toEqual(fields);
    }
    expect((await row<{ title: string }>("articles", "article_id", id)).title).toBe("An article title");
    expect(await topicArticleCount(topic)).toBe(1);
  });

  it("refuses malformed JSON with 100006 after the checks", async () => {
    await allowEdits();
    const author = await createUser();
    const id = await createArticle(author.user_id);
    const res = await patch(`/api/articles/${id}`, {
      token: author.token,
      rawBody: "{oops",
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(100006);
  });

  it("lets an administrator edit anyone's article whatever the settings", async () => {
    const author = await createUser();
    const admin = await createAdmin();
    const id = await createArticle(author.user_id, { create_time: now() - 100_000 });
    await createComment(author.user_id, "article", id);
    const res = await patch(`/api/articles/${id}`, { token: admin.token, body: { title: "Moderated" } });
    expect(res.status).toBe(200);
    expect(res.body.data.title).toBe("Moderated");
    expect(res.body.data.delete_time).toBe(0);
  });

  it("answers 200001 naming article_id for an id that is not one", async () => {
    const user = await createUser();
    const res = await patch("/api/articles/abc", { token: user.token, body: { title: "New title" } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(200001);
    expect(Object.keys(res.body.errors)).toEqual(["article_id"]);
  });
});

describe("GET /api/articles", () => {
  it("lists live articles newest first, and only the trash for administrators asking trashed=true", async () => {
    const author = await createUser();
    const admin = await createAdmin();
    const older = await createArticle(author.user_id, { create_time: T });
    const newer = await createArticle(author.user_id, { create_time: T + 10 });
    const trashed = await createArticle(author.user_id, { create_time: T + 20 });
    await trashArticle(trashed);
    const anonymous = await get("/api/articles");
    expect(anonymous.status).toBe(200);
    expect(idsOf(anonymous)).toEqual([newer, older]);
    expect(anonymous.body.pagination).toEqual({
      page: 1,
      per_page: 15,
      previous: null,
      next: null,
      total: 2,
      pages: 1,
    });
    expect(anonymous.body.data[0]).not.toHaveProperty("delete_time");
    // trashed=true is for administrators only; others get the live list.
    expect(idsOf(await get("/api/articles", { token: author.token, query: { trashed: "true" } }))).toEqual([
      newer,
      older,
    ]);
    const trash = await get("/api/articles", { token: admin.token, query: { trashed: "true" } });
    expect(idsOf(trash)).toEqual([trashed]);
    expect(trash.body.data[0].delete_time).toBeGreaterThan(0);
  });

  it("filters by article_id, user_id and topic_id", async () => {
    const [alice, bob] = [await createUser(), await createUser()];
    const topic = await createTopic();
    const a1 = await createArticle(alice.user_id, { topic_ids: [topic], create_time: T });
    const a2 = await createArticle(alice.user_id, { create_time: T + 1 });
    const b1 = await createArticle(bob.user_id, { topic_ids: [topic], create_time: T + 2 });
    expect(idsOf(await get("/api/articles", { query: { user_id: alice.user_id } }))).toEqual([a2, a1]);
    expect(idsOf(await get("/api/articles", { query: { topic_id: topic } }))).toEqual([b1, a1]);
    expect(idsOf(await get("/api/articles", { query: { topic_id: topic, user_id: bob.user_id } }))).toEqual([b1]);
    expect(idsOf(await get("/api/articles", { query: { article_id: a2 } }))).toEqual([a2]);
    const bad = await get("/api/articles", { query: { topic_id: "x" } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(200001);
    expect(Object.keys(bad.body.errors)).toEqual(["topic_id"]);
  });

  it("orders by vote_count, update_time and, for administrators, delete_time", async () => {
    const author = await createUser();
    const admin = await createAdmin();
    const a = await createArticle(author.user_id, { create_time: T });
    const b = await createArticle(author.user_id, { create_time: T + 1 });
    await setArticle(a, { vote_count: 5, update_time: T + 50 });
    await setArticle(b, { vote_count: -1, update_time: T + 40 });
    expect(idsOf(await get("/api/articles", { query: { order: "-vote_count" } }))).toEqual([a, b]);
    expect(idsOf(await get("/api/articles", { query: { order: "update_time" } }))).toEqual([b, a]);
    await setArticle(a, { delete_time: T + 1 });
    await setArticle(b, { delete_time: T + 2 });
    expect(
      idsOf(await get("/api/articles", { token: admin.token, query: { trashed: "true", order: "delete_time" } })),
    ).toEqual([a, b]);
    expect(
      idsOf(await get("/api/articles", { token: admin.token, query: { trashed: "true", order: "-delete_time" } })),
    ).toEqual([b, a]);
  });
});

describe("GET /api/users/{user_id}/articles (spec operation 8)", () => {
  /** Three articles whose create_time, update_time, vote_count and id orders all differ (ids: b < c < a). */
  async function threeArticles(author: TestUser) {
    const b = await createArticle(author.user_id, { create_time: T + 200 });
    const c = await createArticle(author.user_id, { create_time: T + 300 });
    const a = await createArticle(author.user_id, { create_time: T + 100 });
    await setArticle(a, { update_time: T + 2000, vote_count: 1 });
    await setArticle(b, { update_time: T + 3000, vote_count: 3 });
    await setArticle(c, { update_time: T + 1000, vote_count: 2 });
    return { a, b, c };
  }

  it("answers every field and relationship for an anonymous caller", async () => {
    const author = await createUser();
    const topics = [await createTopic(), await createTopic()];
    const id = await createArticle(author.user_id, {
      topic_ids: topics,
      create_time: T,
      title: "Operation eight",
      content_markdown: "Body text",
    });
    await createComment(author.user_id, "article", id);
    const res = await get(`/api/users/${author.user_id}/articles`, { query: { include: ALL } });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body).toEqual({
      code: 0,
      data: [
        {
          article_id: id,
          user_id: author.user_id,
          title: "Operation eight",
          content_markdown: "Body text",
          content_rendered: "<p>Body text</p>",
          comment_count: 1,
          follower_count: 0,
          vote_count: 0,
          vote_up_count: 0,
          vote_down_count: 0,
          create_time: T,
          update_time: T,
          relationships: {
            user: userSummary(author),
            topics: [await topicSummary(topics[0]!), await topicSummary(topics[1]!)],
            is_following: false,
            voting: "",
          },
        },
      ],
      pagination: { page: 1, per_page: 15, previous: null, next: null, total: 1, pages: 1 },
    });
  });

  it("shows the caller's follows and votes, and delete_time to administrators only", async () => {
    const author = await createUser();
    const reader = await createUser();
    const admin = await createAdmin();
    const id = await createArticle(author.user_id);
    await followAt(reader, id, T);
    await vote(reader, id, "up");
    const res = await get(`/api/users/${author.user_id}/articles`, {
      token: reader.token,
      query: { include: "is_following,voting" },
    });
    expect(res.status).toBe(200);
    expect(res.body.data[0].relationships).toEqual({ is_following: true, voting: "up" });
    expect(res.body.data[0]).not.toHaveProperty("delete_time");
    const asAdmin = await get(`/api/users/${author.user_id}/articles`, {
      token: admin.token,
      query: { include: "is_following,voting" },
    });
    expect(asAdmin.body.data[0].relationships).toEqual({ is_following: false, voting: "" });
    expect(asAdmin.body.data[0].delete_time).toBe(0);
  });

  it("orders newest first by default", async () => {
    const author = await createUser();
    const { a, b, c } = await threeArticles(author);
    expect(idsOf(await get(`/api/users/${author.user_id}/articles`))).toEqual([c, b, a]);
  });

  it.each([
    ["create_time", ["a", "b", "c"]],
    ["-create_time", ["c", "b", "a"]],
    ["update_time", ["c", "a", "b"]],
    ["-update_time", ["b", "a", "c"]],
    ["vote_count", ["a", "c", "b"]],
    ["-vote_count", ["b", "c", "a"]],
    ["title", ["c", "b", "a"]],
  ] as const)("orders by %s for everyone (an unknown order is the default)", async (order, expected) => {
    const author = await createUser();
    const ids = await threeArticles(author);
    const res = await get(`/api/users/${author.user_id}/articles`, { token: author.token, query: { order } });
    expect(res.status).toBe(200);
    expect(idsOf(res)).toEqual(expected.map((key) => ids[key]));
  });

  it("orders by delete_time for administrators (ties by id), and ignores it for others", async () => {
    const author = await createUser();
    const admin = await createAdmin();
    const { a, b, c } = await threeArticles(author);
    const path = `/api/users/${author.user_id}/articles`;
    expect(idsOf(await get(path, { token: admin.token, query: { order: "delete_time" } }))).toEqual([b, c, a]);
    expect(idsOf(await get(path, { token: admin.token, query: { order: "-delete_time" } }))).toEqual([a, c, b]);
    for (const token of [undefined, author.token]) {
      expect(idsOf(await get(path, { token, query: { order: "delete_time" } }))).toEqual([c, b, a]);
      expect(idsOf(await get(path, { token, query: { order: "-delete_time" } }))).toEqual([c, b, a]);
    }
  });

  it("lists only that user's live articles, and pages them", async () => {
    const author = await createUser();
    const other = await createUser();
    const { a, b, c } = await threeArticles(author);
    await createArticle(other.user_id);
    const trashed = await createArticle(author.user_id);
    await trashArticle(trashed);
    const admin = await createAdmin();
    const first = await get(`/api/users/${author.user_id}/articles`, {
      token: admin.token,
      query: { per_page: 2, trashed: "true" },
    });
    expect(idsOf(first)).toEqual([c, b]);
    expect(first.body.pagination).toEqual({ page: 1, per_page: 2, previous: null, next: 2, total: 3, pages: 2 });
    const second = await get(`/api/users/${author.user_id}/articles`, { query: { per_page: 2, page: 2 } });
    expect(idsOf(second)).toEqual([a]);
    expect(second.body.pagination).toEqual({ page: 2, per_page: 2, previous: 1, next: null, total: 3, pages: 2 });
  });

  it("lists a disabled author's articles", async () => {
    const author = await createUser();
    const id = await createArticle(author.user_id);
    await disableInDb(author);
    expect(idsOf(await get(`/api/users/${author.user_id}/articles`))).toEqual([id]);
  });

  it("answers 201003 for a missing user and 200001 for an id that is not one", async () => {
    const missing = await get("/api/users/987654/articles");
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe(201003);
    const bad = await get("/api/users/me/articles");
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(200001);
    expect(Object.keys(bad.body.errors)).toEqual(["user_id"]);
  });

  it("holds the read budget for a full page with every include", async () => {
    const author = await createUser();
    const reader = await createUser();
    const topics = [await createTopic(), await createTopic()];
    const statements = [];
    for (let i = 0; i < 120; i += 1) {
      statements.push(
        env.DB.prepare(
          "INSERT INTO articles (user_id, title, content_markdown, content_rendered, create_time, update_time) VALUES (?, ?, 'b', '<p>b</p>', ?, ?)",
        ).bind(author.user_id, `Article ${i}`, T + i, T + i),
      );
    }
    await env.DB.batch(statements);
    const ids = await env.DB.prepare("SELECT article_id AS id FROM articles WHERE user_id = ?")
      .bind(author.user_id)
      .all<{ id: number }>();
    await recountCounters(
      "article",
      ids.results.map((row) => row.id),
    );
    const links = [];
    for (const { id } of ids.results) {
      for (const topic of topics) {
        links.push(
          env.DB.prepare(
            "INSERT INTO topicables (topic_id, topicable_id, topicable_type, create_time) VALUES (?, ?, 'article', ?)",
          ).bind(topic, id, T),
        );
      }
      links.push(
        env.DB.prepare(
          "INSERT INTO follows (user_id, followable_id, followable_type, create_time) VALUES (?, ?, 'article', ?)",
        ).bind(reader.user_id, id, T),
      );
      links.push(
        env.DB.prepare(
          "INSERT INTO votes (user_id, votable_id, votable_type, type, create_time) VALUES (?, ?, 'article', 'up', ?)",
        ).bind(reader.user_id, id, T),
      );
    }
    await env.DB.batch(links);
    const res = await get(`/api/users/${author.user_id}/articles`, {
      token: reader.token,
      query: { per_page: 100, include: ALL },
    });
    expect(res.status).toBe(200);
    expect(res.roundTrips).toBeLessThanOrEqual(1);
    expect(res.body.data).toHaveLength(100);
    expect(res.body.pagination.total).toBe(120);
    for (const article of res.body.data) {
      expect(article.relationships.topics).toHaveLength(2);
      expect(article.relationships).toMatchObject({ user: userSummary(author), is_following: true, voting: "up" });
    }
    const list = await get("/api/articles", { token: reader.token, query: { per_page: 100, include: ALL } });
    expect(list.roundTrips).toBeLessThanOrEqual(1);
    const followed = await get(`/api/users/${reader.user_id}/following_articles`, {
      token: reader.token,
      query: { per_page: 100, include: ALL },
    });
    expect(followed.roundTrips).toBeLessThanOrEqual(1);
    expect(followed.body.data).toHaveLength(100);
  });
});

describe("GET /api/user/articles", () => {
  it("refuses anonymous callers and disabled users' tokens with 201001", async () => {
    const user = await createUser();
    expect((await get("/api/user/articles")).body.code).toBe(201001);
    await disableInDb(user);
    const res = await get("/api/user/articles", { token: user.token });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(201001);
  });

  it("lists the caller's live articles with the same orders", async () => {
    const user = await createUser();
    const first = await createArticle(user.user_id, { create_time: T });
    const second = await createArticle(user.user_id, { create_time: T + 1 });
    await createArticle((await createUser()).user_id);
    const res = await get("/api/user/articles", { token: user.token, query: { include: "user" } });
    expect(res.status).toBe(200);
    expect(res.roundTrips).toBeLessThanOrEqual(1);
    expect(idsOf(res)).toEqual([second, first]);
    expect(res.body.data[0].relationships).toEqual({ user: userSummary(user) });
    expect(idsOf(await get("/api/user/articles", { token: user.token, query: { order: "create_time" } }))).toEqual([
      first,
      second,
    ]);
  });
});

describe("GET /api/users/{user_id}/following_articles and /api/user/following_articles", () => {
  it("lists the live articles a user follows, newest follow first", async () => {
    const author = await createUser();
    const reader = await createUser();
    const [a, b, c] = [
      await createArticle(author.user_id),
      await createArticle(author.user_id),
      await createArticle(author.user_id),
    ];
    await followAt(reader, b, T + 1);
    await followAt(reader, a, T + 2);
    await followAt(reader, c, T + 3);
    await followAt(author, a, T);
    await trashArticle(c);
    const res = await get(`/api/users/${reader.user_id}/following_articles`, { query: { include: "is_following" } });
    expect(res.status).toBe(200);
    expect(idsOf(res)).toEqual([a, b]);
    expect(res.body.pagination.total).toBe(2);
    // is_following is the caller's (anonymous here), not the listed user's.
    expect(res.body.data[0].relationships).toEqual({ is_following: false });
    const mine = await get("/api/user/following_articles", { token: reader.token, query: { include: "is_following" } });
    expect(mine.status).toBe(200);
    expect(idsOf(mine)).toEqual([a, b]);
    expect(mine.body.data[0].relationships).toEqual({ is_following: true });
  });

  it("answers 201003 for a missing user and 201001 for an anonymous /user call", async () => {
    const missing = await get("/api/users/987654/following_articles");
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe(201003);
    const anonymous = await get("/api/user/following_articles");
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe(201001);
  });
});

describe("/api/articles/{article_id}/followers", () => {
  it("follows an article, counts it on both sides, and lists the follower", async () => {
    const author = await createUser();
    const reader = await createUser();
    const id = await createArticle(author.user_id);
    const res = await post(`/api/articles/${id}/followers`, { token: reader.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ follower_count: 1 });
    expect(
      (await row<{ following_article_count: number }>("users", "user_id", reader.user_id)).following_article_count,
    ).toBe(1);
    const list = await get(`/api/articles/${id}/followers`);
    expect(list.body.data.map((u: { user_id: number }) => u.user_id)).toEqual([reader.user_id]);
    const article = await get(`/api/articles/${id}`, { token: reader.token, query: { include: "is_following" } });
    expect(article.body.data.follower_count).toBe(1);
    // A follow does not move update_time (docs/decisions.md#content).
    expect(article.body.data.update_time).toBe(article.body.data.create_time);
    expect(article.body.data.relationships).toEqual({ is_following: true });
  });

  it("answers 206001 for a trashed article and 201001 for anonymous callers", async () => {
    const author = await createUser();
    const id = await createArticle(author.user_id);
    expect((await post(`/api/articles/${id}/followers`)).body.code).toBe(201001);
    await trashArticle(id);
    const res = await post(`/api/articles/${id}/followers`, { token: author.token });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(206001);
  });
});

describe("the OpenAPI document", () => {
  it("lists the article routes", async () => {
    const res = await get("/api/openapi.json");
    const paths = res.body.paths as Record<string, Record<string, unknown>>;
    const routes = Object.entries(paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(routes).toEqual(
      expect.arrayContaining([
        "POST /api/articles",
        "GET /api/articles",
        "GET /api/articles/{article_id}",
        "PATCH /api/articles/{article_id}",
        "GET /api/articles/{article_id}/followers",
        "POST /api/articles/{article_id}/followers",
        "DELETE /api/articles/{article_id}/followers",
        "GET /api/users/{user_id}/articles",
        "GET /api/user/articles",
        "GET /api/users/{user_id}/following_articles",
        "GET /api/user/following_articles",
      ]),
    );
    expect(res.body.components.schemas.Article.properties).toHaveProperty("relationships");
  });
});

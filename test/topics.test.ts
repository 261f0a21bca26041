/**
 * Topics (docs/operations.md#topics, docs/operations.md#users, docs/counters.md): creation and edits by administrators,
 * records and lists with trashed topics hidden from everyone but administrators, a topic's articles, followers and the
 * topics a user follows, and the D1 round-trip budget.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { now } from "../src/lib/time";
import { del, get, patch, post } from "./helpers/api";
import { createArticle, createTopic, row } from "./helpers/content";
import { createAdmin, createUser, type TestUser, uniqueName } from "./helpers/factories";

const TOPIC_FIELDS = ["topic_id", "name", "cover", "description", "article_count", "question_count", "follower_count"];

async function disableInDb(user: TestUser): Promise<void> {
  await env.DB.prepare("UPDATE users SET disable_time = ? WHERE user_id = ?").bind(now(), user.user_id).run();
}

/** Trash routes belong to another module: trashed state is set straight in D1. */
async function trashTopic(id: number, time = now()): Promise<void> {
  await env.DB.prepare("UPDATE topics SET delete_time = ? WHERE topic_id = ?").bind(time, id).run();
}

async function setTopic(id: number, fields: Record<string, number>): Promise<void> {
  const sets = Object.keys(fields).map((name) => `${name} = ?`);
  await env.DB.prepare(`UPDATE topics SET ${sets.join(", ")} WHERE topic_id = ?`)
    .bind(...Object.values(fields), id)
    .run();
}

async function followAt(user: { user_id: number }, type: string, id: number, time: number): Promise<void> {
  await env.DB.prepare("INSERT INTO follows (user_id, followable_id, followable_type, create_time) VALUES (?, ?, ?, ?)")
    .bind(user.user_id, id, type, time)
    .run();
}

async function topicCount(): Promise<number> {
  return (await env.DB.prepare("SELECT count(*) AS n FROM topics").first<number>("n")) ?? 0;
}

/** Many topics in one D1 batch, for pages of 100. */
async function createManyTopics(count: number): Promise<number[]> {
  const prefix = uniqueName("m");
  const results = await env.DB.batch(
    Array.from({ length: count }, (_, i) =>
      env.DB.prepare("INSERT INTO topics (name, description) VALUES (?, 'd') RETURNING topic_id").bind(
        `${prefix}${i}`.slice(-20),
      ),
    ),
  );
  return results.map((r) => (r.results[0] as { topic_id: number }).topic_id);
}

const ids = (res: { body: { data: { topic_id: number }[] } }) => res.body.data.map((t) => t.topic_id);

function expectDefaultCover(cover: Record<string, string>) {
  expect(Object.keys(cover).sort()).toEqual(["large", "middle", "original", "small"]);
  expect(cover.original).toMatch(/\/default\/topic_cover\.jpg$/);
  expect(cover.small).toMatch(/\/default\/topic_cover_small\.jpg$/);
  expect(cover.middle).toMatch(/\/default\/topic_cover_middle\.jpg$/);
  expect(cover.large).toMatch(/\/default\/topic_cover_large\.jpg$/);
}

describe("POST /api/topics", () => {
  it("refuses an anonymous caller with 201001 before looking at the body", async () => {
    const res = await post("/api/topics", { body: { name: 5 } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(201001);
    expect(await topicCount()).toBe(0);
  });

  it("refuses a disabled administrator's token with 201001", async () => {
    const admin = await createAdmin();
    await disableInDb(admin);
    const res = await post("/api/topics", { token: admin.token, body: { name: "Cats", description: "About cats" } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(201001);
  });

  it("refuses a user who is not an administrator with 201002 before looking at the body", async () => {
    const user = await createUser();
    const res = await post("/api/topics", { token: user.token, body: {} });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(201002);
    expect(await topicCount()).toBe(0);
  });

  it("creates a topic with trimmed text, zero counters and the default cover, within the write budget", async () => {
    const admin = await createAdmin();
    const res = await post("/api/topics", {
      token: admin.token,
      body: { name: "  Cats ", description: " About cats  " },
      query: { include: "is_following" },
    });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    const topic = res.body.data;
    expect(Object.keys(topic).sort()).toEqual([...TOPIC_FIELDS, "delete_time", "relationships"].sort());
    expect(topic).toMatchObject({
      name: "Cats",
      description: "About cats",
      article_count: 0,
      question_count: 0,
      follower_count: 0,
      delete_time: 0,
    });
    expect(topic.relationships).toEqual({ is_following: false });
    expectDefaultCover(topic.cover);
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    expect(await row("topics", "topic_id", topic.topic_id)).toMatchObject({
      name: "Cats",
      description: "About cats",
      delete_time: 0,
    });
  });

  it("counts the length of a name in characters, not UTF-16 units", async () => {
    const admin = await createAdmin();
    const name = "😀".repeat(20);
    const res = await post("/api/topics", { token: admin.token, body: { name, description: "emoji" } });
    expect(res.status).toBe(200);
    expect(res.body.data.name).toBe(name);
  });

  it.each([
    [{ description: "d" }, "name"],
    [{ name: "", description: "d" }, "name"],
    [{ name: "   ", description: "d" }, "name"],
    [{ name: "x".repeat(21), description: "d" }, "name"],
    [{ name: 5, description: "d" }, "name"],
    [{ name: "ok" }, "description"],
    [{ name: "ok", description: " " }, "description"],
    [{ name: "ok", description: "x".repeat(1001) }, "description"],
  ])("refuses %j with 200001 naming %s", async (body, field) => {
    const admin = await createAdmin();
    const res = await post("/api/topics", { token: admin.token, body });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(200001);
    expect(Object.keys(res.body.errors)).toEqual([field]);
    expect(await topicCount()).toBe(0);
  });

  it("refuses a name a live topic has, case-insensitively, with 409 and 200001 on name", async () => {
    const admin = await createAdmin();
    await createTopic({ name: "Cats" });
    const res = await post("/api/topics", { token: admin.token, body: { name: "cATS", description: "again" } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe(200001);
    expect(Object.keys(res.body.errors)).toEqual(["name"]);
    expect(await topicCount()).toBe(1);
  });

  it("allows the name of a trashed topic", async () => {
    const admin = await createAdmin();
    const old = await createTopic({ name: "Cats" });
    await trashTopic(old);
    const res = await post("/api/topics", { token: admin.token, body: { name: "Cats", description: "new" } });
    expect(res.status).toBe(200);
    expect(res.body.data.topic_id).not.toBe(old);
  });
});

describe.each(["post", "patch"] as const)("%s /api/topics/{topic_id}", (method) => {
  const send = method === "post" ? post : patch;

  it("refuses anonymous and disabled callers with 201001 and users with 201002", async () => {
    const id = await createTopic({ name: "Cats" });
    const user = await createUser();
    const disabled = await createAdmin();
    await disableInDb(disabled);
    const anonymous = await send(`/api/topics/${id}`, { body: { name: "x" } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe(201001);
    const off = await send(`/api/topics/${id}`, { token: disabled.token, body: { name: "x" } });
    expect(off.status).toBe(401);
    expect(off.body.code).toBe(201001);
    const normal = await send(`/api/topics/${id}`, { token: user.token, body: { name: 5 } });
    expect(normal.status).toBe(403);
    expect(normal.body.code).toBe(201002);
    expect((await row("topics", "topic_id", id)).name).toBe("Cats");
  });

  it("changes only the fields sent, trimmed, within the write budget", async () => {
    const admin = await createAdmin();
    const id = await createTopic({ name: "Cats", description: "About cats" });
    const res = await send(`/api/topics/${id}`, {
      token: admin.token,
      body: { name: " Felines " },
      query: { include: "is_following" },
    });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body.data).toMatchObject({
      topic_id: id,
      name: "Felines",
      description: "About cats",
      delete_time: 0,
      relationships: { is_following: false },
    });
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    const changed = await send(`/api/topics/${id}`, { token: admin.token, body: { description: "Now felines" } });
    expect(changed.body.data).toMatchObject({ name: "Felines", description: "Now felines" });
    expect(changed.body.data).not.toHaveProperty("relationships");
  });

  it("changes nothing for an empty body", async () => {
    const admin = await createAdmin();
    const id = await createTopic({ name: "Cats", description: "About cats" });
    const res = await send(`/api/topics/${id}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: "Cats", description: "About cats" });
  });

  it("refuses another live topic's name with 409, and allows a change of case of its own", async () => {
    const admin = await createAdmin();
    await createTopic({ name: "Dogs" });
    const id = await createTopic({ name: "Cats" });
    const taken = await send(`/api/topics/${id}`, {
      token: admin.token,
      body: { name: "DOGS", description: "changed?" },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe(200001);
    expect(Object.keys(taken.body.errors)).toEqual(["name"]);
    expect(await row("topics", "topic_id", id)).toMatchObject({ name: "Cats", description: "A topic" });
    const own = await send(`/api/topics/${id}`, { token: admin.token, body: { name: "CATS" } });
    expect(own.status).toBe(200);
    expect(own.body.data.name).toBe("CATS");
  });

  it("answers 205001 for a missing or trashed topic and 200001 for a bad id or field", async () => {
    const admin = await createAdmin();
    const trashed = await createTopic();
    await trashTopic(trashed);
    const missing = await send("/api/topics/999999", { token: admin.token, body: { name: "x" } });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe(205001);
    const inTrash = await send(`/api/topics/${trashed}`, { token: admin.token, body: { name: "x" } });
    expect(inTrash.status).toBe(404);
    expect(inTrash.body.code).toBe(205001);
    const badId = await send("/api/topics/abc", { token: admin.token, body: { name: "x" } });
    expect(badId.status).toBe(400);
    expect(badId.body.code).toBe(200001);
    expect(Object.keys(badId.body.errors)).toEqual(["topic_id"]);
    const id = await createTopic();
    const badField = await send(`/api/topics/${id}`, { token: admin.token, body: { name: "x".repeat(21) } });
    expect(badField.status).toBe(400);
    expect(badField.body.errors).toHaveProperty("name");
  });
});

describe("GET /api/topics/{topic_id}", () => {
  it("answers the topic without delete_time to anyone but administrators", async () => {
    const id = await createTopic({ name: "Cats", description: "About cats" });
    const user = await createUser();
    for (const token of [undefined, user.token]) {
      const res = await get(`/api/topics/${id}`, { token });
      expect(res.status).toBe(200);
      expect(res.body.code).toBe(0);
      expect(Object.keys(res.body.data).sort()).toEqual([...TOPIC_FIELDS].sort());
      expect(res.body.data).toMatchObject({ topic_id: id, name: "Cats", description: "About cats" });
      expectDefaultCover(res.body.data.cover);
    }
    const admin = await createAdmin();
    const seen = await get(`/api/topics/${id}`, { token: admin.token });
    expect(seen.body.data.delete_time).toBe(0);
  });

  it("answers is_following for the caller, false for anonymous and disabled callers, within the read budget", async () => {
    const id = await createTopic();
    const user = await createUser();
    const disabled = await createUser();
    expect((await post(`/api/topics/${id}/followers`, { token: user.token })).status).toBe(200);
    expect((await post(`/api/topics/${id}/followers`, { token: disabled.token })).status).toBe(200);
    await disableInDb(disabled);
    const mine = await get(`/api/topics/${id}`, { token: user.token, query: { include: "is_following,unknown" } });
    expect(mine.status).toBe(200);
    expect(mine.body.data.relationships).toEqual({ is_following: true });
    expect(mine.body.data.follower_count).toBe(2);
    expect(mine.roundTrips).toBeLessThanOrEqual(1);
    const anonymous = await get(`/api/topics/${id}`, { query: { include: "is_following" } });
    expect(anonymous.body.data.relationships).toEqual({ is_following: false });
    const off = await get(`/api/topics/${id}`, { token: disabled.token, query: { include: "is_following" } });
    expect(off.status).toBe(200);
    expect(off.body.data.relationships).toEqual({ is_following: false });
  });

  it("answers 205001 for a trashed topic except to administrators, who see delete_time", async () => {
    const time = now() - 50;
    const id = await createTopic();
    await trashTopic(id, time);
    const user = await createUser();
    for (const token of [undefined, user.token]) {
      const res = await get(`/api/topics/${id}`, { token });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(205001);
    }
    const admin = await createAdmin();
    const res = await get(`/api/topics/${id}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.data.delete_time).toBe(time);
  });

  it("answers 205001 for a missing topic and 200001 for an id that is not one", async () => {
    const missing = await get("/api/topics/424242");
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe(205001);
    for (const bad of ["x", "0", "1.5", "-1"]) {
      const res = await get(`/api/topics/${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(200001);
      expect(Object.keys(res.body.errors)).toEqual(["topic_id"]);
    }
  });
});

describe("GET /api/topics", () => {
  it("lists live topics by topic_id ascending by default, for anyone", async () => {
    const a = await createTopic();
    const b = await createTopic();
    const c = await createTopic();
    const trashed = await createTopic();
    await trashTopic(trashed);
    const disabled = await createUser();
    await disableInDb(disabled);
    for (const token of [undefined, (await createUser()).token, disabled.token]) {
      const res = await get("/api/topics", { token });
      expect(res.status).toBe(200);
      expect(res.body.code).toBe(0);
      expect(ids(res)).toEqual([a, b, c]);
      expect(res.body.data[0]).not.toHaveProperty("delete_time");
      expect(res.body.data[0]).not.toHaveProperty("relationships");
      expect(res.body.pagination).toEqual({ page: 1, per_page: 15, previous: null, next: null, total: 3, pages: 1 });
    }
  });

  it("orders by topic_id and follower_count both ways, ties broken by id", async () => {
    const a = await createTopic();
    const b = await createTopic();
    const c = await createTopic();
    await setTopic(a, { follower_count: 5 });
    await setTopic(b, { follower_count: 9 });
    await setTopic(c, { follower_count: 5 });
    expect(ids(await get("/api/topics", { query: { order: "-topic_id" } }))).toEqual([c, b, a]);
    expect(ids(await get("/api/topics", { query: { order: "follower_count" } }))).toEqual([a, c, b]);
    expect(ids(await get("/api/topics", { query: { order: "-follower_count" } }))).toEqual([b, c, a]);
    expect(ids(await get("/api/topics", { query: { order: "nonsense" } }))).toEqual([a, b, c]);
  });

  it("filters by topic_id and by exact name, case-insensitively", async () => {
    const cats = await createTopic({ name: "Cats" });
    await createTopic({ name: "Cats and dogs" });
    const byName = await get("/api/topics", { query: { name: "cats" } });
    expect(ids(byName)).toEqual([cats]);
    const byId = await get("/api/topics", { query: { topic_id: cats } });
    expect(ids(byId)).toEqual([cats]);
    const bad = await get("/api/topics", { query: { topic_id: "abc" } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(200001);
    expect(Object.keys(bad.body.errors)).toEqual(["topic_id"]);
  });

  it("lists only trashed topics for an administrator asking trashed=true, and ignores it for others", async () => {
    const live = await createTopic();
    const first = await createTopic();
    const second = await createTopic();
    await trashTopic(first, now() - 10);
    await trashTopic(second, now() - 100);
    const user = await createUser();
    const ignored = await get("/api/topics", { token: user.token, query: { trashed: "true", order: "delete_time" } });
    expect(ids(ignored)).toEqual([live]);
    const admin = await createAdmin();
    const trashed = await get("/api/topics", { token: admin.token, query: { trashed: "true" } });
    expect(ids(trashed)).toEqual([first, second]);
    expect(trashed.body.data[0].delete_time).toBeGreaterThan(0);
    const byTime = await get("/api/topics", { token: admin.token, query: { trashed: "true", order: "delete_time" } });
    expect(ids(byTime)).toEqual([second, first]);
    const liveOnly = await get("/api/topics", { token: admin.token });
    expect(ids(liveOnly)).toEqual([live]);
    expect(liveOnly.body.data[0].delete_time).toBe(0);
  });

  it("holds the read budget for a page of 100 with every include", async () => {
    const created = await createManyTopics(101);
    const user = await createUser();
    await followAt(user, "topic", created[3]!, now());
    const res = await get("/api/topics", { token: user.token, query: { per_page: 100, include: "is_following" } });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(100);
    expect(res.body.pagination).toMatchObject({ total: 101, pages: 2, next: 2 });
    expect(
      res.body.data.filter((t: { relationships: { is_following: boolean } }) => t.relationships.is_following),
    ).toHaveLength(1);
    expect(res.roundTrips).toBeLessThanOrEqual(1);
  });
});

describe("GET /api/topics/{topic_id}/articles", () => {
  it("lists the topic's live articles, newest first by default", async () => {
    const author = await createUser();
    const topic = await createTopic();
    const other = await createTopic();
    const time = now();
    const older = await createArticle(author.user_id, { topic_ids: [topic], create_time: time - 20 });
    const newer = await createArticle(author.user_id, { topic_ids: [topic, other], create_time: time - 10 });
    await createArticle(author.user_id, { topic_ids: [other] });
    await createArticle(author.user_id, { topic_ids: [topic], delete_time: time });
    const res = await get(`/api/topics/${topic}/articles`);
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body.data.map((a: { article_id: number }) => a.article_id)).toEqual([newer, older]);
    expect(res.body.data[0]).not.toHaveProperty("delete_time");
    expect(res.body.pagination.total).toBe(2);
    const ascending = await get(`/api/topics/${topic}/articles`, { query: { order: "create_time" } });
    expect(ascending.body.data.map((a: { article_id: number }) => a.article_id)).toEqual([older, newer]);
  });

  it("answers every include within the read budget for a page of 100", async () => {
    const author = await createUser();
    const viewer = await createUser();
    const topic = await createTopic();
    const statements = Array.from({ length: 100 }, (_, i) =>
      env.DB.prepare(
        "INSERT INTO articles (user_id, title, create_time, update_time) VALUES (?, ?, ?, ?) RETURNING article_id",
      ).bind(author.user_id, `a${i}`, i, i),
    );
    const created = (await env.DB.batch(statements)).map((r) => (r.results[0] as { article_id: number }).article_id);
    await env.DB.batch(
      created.map((id) =>
        env.DB.prepare("INSERT INTO topicables (topic_id, topicable_id, topicable_type) VALUES (?, ?, 'article')").bind(
          topic,
          id,
        ),
      ),
    );
    await env.DB.prepare("INSERT INTO votes (user_id, votable_id, votable_type, type) VALUES (?, ?, 'article', 'down')")
      .bind(viewer.user_id, created[0])
      .run();
    const res = await get(`/api/topics/${topic}/articles`, {
      token: viewer.token,
      query: { per_page: 100, include: "user,topics,is_following,voting" },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(100);
    const first = res.body.data.at(-1);
    expect(first.article_id).toBe(created[0]);
    expect(first.relationships).toMatchObject({
      user: { user_id: author.user_id },
      is_following: false,
      voting: "down",
    });
    expect(first.relationships.topics.map((t: { topic_id: number }) => t.topic_id)).toEqual([topic]);
    expect(res.roundTrips).toBeLessThanOrEqual(1);
  });

  it("treats a disabled user's token as anonymous, and shows administrators delete_time and its order", async () => {
    const author = await createUser();
    const topic = await createTopic();
    const a = await createArticle(author.user_id, { topic_ids: [topic], create_time: now() - 20 });
    const b = await createArticle(author.user_id, { topic_ids: [topic], create_time: now() - 10 });
    await env.DB.prepare("INSERT INTO votes (user_id, votable_id, votable_type, type) VALUES (?, ?, 'article', 'up')")
      .bind(author.user_id, a)
      .run();
    await disableInDb(author);
    const off = await get(`/api/topics/${topic}/articles`, {
      token: author.token,
      query: { include: "voting", order: "-delete_time" },
    });
    expect(off.status).toBe(200);
    expect(off.body.data.map((x: { article_id: number }) => x.article_id)).toEqual([b, a]);
    expect(off.body.data[1].relationships).toEqual({ voting: "" });
    const admin = await createAdmin();
    const res = await get(`/api/topics/${topic}/articles`, { token: admin.token, query: { order: "-delete_time" } });
    expect(res.body.data.map((x: { article_id: number }) => x.article_id)).toEqual([b, a]);
    expect(res.body.data[0].delete_time).toBe(0);
  });

  it("answers 205001 for a missing or trashed topic", async () => {
    const trashed = await createTopic();
    await trashTopic(trashed);
    for (const id of [trashed, 999999]) {
      const res = await get(`/api/topics/${id}/articles`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(205001);
    }
  });
});

describe("/api/topics/{topic_id}/followers", () => {
  it("follows and unfollows a topic, counting on both sides", async () => {
    const id = await createTopic();
    const user = await createUser();
    const anonymous = await post(`/api/topics/${id}/followers`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe(201001);
    const followed = await post(`/api/topics/${id}/followers`, { token: user.token });
    expect(followed.status).toBe(200);
    expect(followed.body.data).toEqual({ follower_count: 1 });
    expect((await row("users", "user_id", user.user_id)).following_topic_count).toBe(1);
    const list = await get(`/api/topics/${id}/followers`);
    expect(list.body.data.map((u: { user_id: number }) => u.user_id)).toEqual([user.user_id]);
    const unfollowed = await del(`/api/topics/${id}/followers`, { token: user.token });
    expect(unfollowed.body.data).toEqual({ follower_count: 0 });
    expect((await row("users", "user_id", user.user_id)).following_topic_count).toBe(0);
  });

  it("refuses a disabled user's token with 201001 and lets an administrator follow", async () => {
    const id = await createTopic();
    const disabled = await createUser();
    await disableInDb(disabled);
    const off = await post(`/api/topics/${id}/followers`, { token: disabled.token });
    expect(off.status).toBe(401);
    expect(off.body.code).toBe(201001);
    const admin = await createAdmin();
    const res = await post(`/api/topics/${id}/followers`, { token: admin.token });
    expect(res.body.data).toEqual({ follower_count: 1 });
  });

  it("answers 205001 for a trashed topic", async () => {
    const id = await createTopic();
    await trashTopic(id);
    const user = await createUser();
    const res = await post(`/api/topics/${id}/followers`, { token: user.token });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(205001);
  });
});

describe("GET /api/users/{user_id}/following_topics and /api/user/following_topics", () => {
  it("lists the live topics a user follows, newest follow first", async () => {
    const user = await createUser();
    const [a, b, c, trashed] = [await createTopic(), await createTopic(), await createTopic(), await createTopic()];
    const time = now();
    await followAt(user, "topic", b, time - 30);
    await followAt(user, "topic", a, time - 20);
    await followAt(user, "topic", c, time - 10);
    await followAt(user, "topic", trashed, time);
    await trashTopic(trashed);
    const viewer = await createUser();
    await followAt(viewer, "topic", a, time);
    const res = await get(`/api/users/${user.user_id}/following_topics`, {
      token: viewer.token,
      query: { include: "is_following" },
    });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(ids(res)).toEqual([c, a, b]);
    expect(
      res.body.data.map((t: { relationships: { is_following: boolean } }) => t.relationships.is_following),
    ).toEqual([false, true, false]);
    expect(res.body.pagination.total).toBe(3);
    const own = await get("/api/user/following_topics", { token: user.token, query: { include: "is_following" } });
    expect(own.status).toBe(200);
    expect(ids(own)).toEqual([c, a, b]);
    expect(own.body.data.every((t: { relationships: { is_following: boolean } }) => t.relationships.is_following)).toBe(
      true,
    );
  });

  it("answers anonymous callers too, and administrators with delete_time", async () => {
    const user = await createUser();
    const topic = await createTopic();
    await followAt(user, "topic", topic, now());
    const anonymous = await get(`/api/users/${user.user_id}/following_topics`, { query: { include: "is_following" } });
    expect(anonymous.status).toBe(200);
    expect(ids(anonymous)).toEqual([topic]);
    expect(anonymous.body.data[0].relationships).toEqual({ is_following: false });
    expect(anonymous.body.data[0]).not.toHaveProperty("delete_time");
    const admin = await createAdmin();
    const seen = await get(`/api/users/${user.user_id}/following_topics`, { token: admin.token });
    expect(seen.body.data[0].delete_time).toBe(0);
  });

  it("answers 201003 for a missing user and 200001 for a bad id", async () => {
    const missing = await get("/api/users/999999/following_topics");
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe(201003);
    const bad = await get("/api/users/me/following_topics");
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(["user_id"]);
  });

  it("refuses anonymous and disabled callers on /api/user/following_topics with 201001", async () => {
    const disabled = await createUser();
    await disableInDb(disabled);
    for (const token of [undefined, disabled.token]) {
      const res = await get("/api/user/following_topics", { token });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(201001);
    }
  });

  it("holds the read budget for a page of 100 with every include", async () => {
    const user = await createUser();
    const created = await createManyTopics(100);
    await env.DB.batch(
      created.map((id, i) =>
        env.DB.prepare(
          "INSERT INTO follows (user_id, followable_id, followable_type, create_time) VALUES (?, ?, 'topic', ?)",
        ).bind(user.user_id, id, i),
      ),
    );
    const res = await get(`/api/users/${user.user_id}/following_topics`, {
      token: user.token,
      query: { per_page: 100, include: "is_following" },
    });
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([...created].reverse());
    expect(res.roundTrips).toBeLessThanOrEqual(1);
  });
});

describe("GET /api/openapi.json", () => {
  it("documents the topics routes", async () => {
    const res = await get("/api/openapi.json");
    const paths = res.body.paths;
    expect(Object.keys(paths["/api/topics"]).sort()).toEqual(["get", "post"]);
    expect(Object.keys(paths["/api/topics/{topic_id}"])).toEqual(expect.arrayContaining(["get", "post", "patch"]));
    for (const path of [
      "/api/topics/{topic_id}/articles",
      "/api/users/{user_id}/following_topics",
      "/api/user/following_topics",
    ]) {
      expect(paths[path]).toHaveProperty("get");
    }
    expect(Object.keys(paths["/api/topics/{topic_id}/followers"]).sort()).toEqual(["delete", "get", "post"]);
    expect(res.body.components.schemas.Topic.properties).toHaveProperty("cover");
  });
});

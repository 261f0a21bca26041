/**
 * Rows read per request (docs/data-model.md#indexes): `Server-Timing` reports what D1 says it read, beside the
 * round trips; reading one record costs the same however large its table is; and a list whose total a counter
 * holds reads that counter instead of counting its rows.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type ApiResponse, del, get, patch, post } from "./helpers/api";
import {
  createAnswer,
  createArticle,
  createComment,
  createQuestion,
  createTopic,
  recountCounters,
} from "./helpers/content";
import { createAdmin, createUser } from "./helpers/factories";
import { type Recorded, recordingEnv } from "./helpers/faulty-db";

const rowsRead = (res: ApiResponse) =>
  Number(/d1-rows;desc="(\d+) rows read"/.exec(res.headers.get("server-timing") ?? "")?.[1] ?? Number.NaN);

/** Rows of a user's written straight into D1 at `time`, many at once, then counted as the routes count them. */
async function moreOf(table: "questions" | "articles", userId: number, n: number, time = 1): Promise<void> {
  const id = table === "questions" ? "question_id" : "article_id";
  const statement = env.DB.prepare(
    `INSERT INTO ${table} (user_id, title, content_markdown, content_rendered, create_time, update_time)
     VALUES (?, 'more', 'x', '<p>x</p>', ?, ?) RETURNING ${id} AS id`,
  );
  const rows = await env.DB.batch<{ id: number }>(Array.from({ length: n }, () => statement.bind(userId, time, time)));
  await recountCounters(
    table === "questions" ? "question" : "article",
    rows.map((result) => result.results[0]!.id),
  );
}

describe("Server-Timing reports the rows D1 read", () => {
  it("beside the round trips", async () => {
    const res = await get("/api/options");
    expect(rowsRead(res)).toBeGreaterThan(0);
  });

  it("reads one question in as many rows whether its table holds 1 or 301 questions", async () => {
    const user = await createUser();
    const question = await createQuestion(user.user_id, { topic_ids: [await createTopic()] });
    const path = `/api/questions/${question}`;
    const query = { include: "user,topics,is_following,voting" };
    // The first request also loads the site settings into KV; measure after it.
    await get(path, { token: user.token, query });
    const alone = await get(path, { token: user.token, query });
    expect(alone.status).toBe(200);
    expect(rowsRead(alone)).toBeGreaterThan(0);
    await moreOf("questions", user.user_id, 300);
    const among = await get(path, { token: user.token, query });
    expect(among.body.data.question_id).toBe(question);
    expect(rowsRead(among)).toBe(rowsRead(alone));
  });
});

describe("a list whose total a counter holds reads the counter, not every matching row", () => {
  it.each([
    ["a user's articles", (w: Ids) => `/api/users/${w.user}/articles`],
    ["a user's questions", (w: Ids) => `/api/users/${w.user}/questions`],
    ["a question's answers", (w: Ids) => `/api/questions/${w.question}/answers`],
    ["a topic's questions", (w: Ids) => `/api/topics/${w.topic}/questions`],
  ])("%s", async (_name, path) => {
    const user = await createUser();
    const topic = await createTopic();
    const question = await createQuestion(user.user_id, { topic_ids: [topic] });
    await createAnswer(user.user_id, question);
    await createArticle(user.user_id, { topic_ids: [topic] });
    const log: Recorded[] = [];
    const res = await get(path({ user: user.user_id, question, topic }), { env: recordingEnv(log) });
    expect(res.body.pagination.total).toBe(1);
    expect(log.filter((statement) => /\bcount\(\*\)/i.test(statement.sql))).toEqual([]);
  });

  it.each([
    ["questions", "/api/questions"],
    ["articles", "/api/articles"],
    ["answers", "/api/answers"],
    ["comments", "/api/comments"],
    ["topics", "/api/topics"],
    ["users", "/api/users"],
  ])("the site's %s, from the site's total, which triggers keep", async (_name, path) => {
    const admin = await createAdmin();
    const user = await createUser();
    const topic = await createTopic();
    const question = await createQuestion(user.user_id, { topic_ids: [topic] });
    await createAnswer(user.user_id, question);
    await createComment(user.user_id, "question", question);
    await createArticle(user.user_id, { topic_ids: [topic] });
    const log: Recorded[] = [];
    const res = await get(path, { token: admin.token, env: recordingEnv(log) });
    expect(res.body.pagination.total).toBe(res.body.data.length);
    expect(log.filter((statement) => /\bcount\(\*\)/i.test(statement.sql))).toEqual([]);
  });

  it("through trash, untrash, delete and disable, made through the API", async () => {
    const admin = await createAdmin();
    const user = await createUser();
    const questions = [await createQuestion(user.user_id), await createQuestion(user.user_id)];
    const total = async (path: string) => (await get(path, { token: admin.token })).body.pagination.total;
    expect(await total("/api/questions")).toBe(2);
    await post(`/api/questions/${questions[0]}/trash`, { token: admin.token });
    expect(await total("/api/questions")).toBe(1);
    await post(`/api/questions/${questions[0]}/untrash`, { token: admin.token });
    expect(await total("/api/questions")).toBe(2);
    await del(`/api/questions/${questions[1]}`, { token: admin.token });
    expect(await total("/api/questions")).toBe(1);
    expect(await total("/api/users")).toBe(2);
    await post(`/api/users/${user.user_id}/disable`, { token: admin.token });
    expect(await total("/api/users")).toBe(1);
  });

  it("while a list filtered some other way still counts (docs/data-model.md#indexes)", async () => {
    const admin = await createAdmin();
    await createQuestion(admin.user_id, { topic_ids: [await createTopic()] });
    const log: Recorded[] = [];
    await get("/api/questions", { token: admin.token, query: { trashed: "true" }, env: recordingEnv(log) });
    expect(log.some((statement) => /\bcount\(\*\)/i.test(statement.sql))).toBe(true);
  });
});

interface Ids {
  user: number;
  question: number;
  topic: number;
}

describe("a page of a list a counter totals reads about a page of rows, however long the list", () => {
  it.each(["questions", "articles"] as const)(
    "a user's %s, newest first, among newer ones of others",
    async (table) => {
      const user = await createUser();
      const other = await createUser();
      const path = `/api/users/${user.user_id}/${table}`;
      await moreOf(table, user.user_id, 20, 1);
      await moreOf(table, other.user_id, 300, 2);
      await get(path, { query: { per_page: 10 } });
      const short = await get(path, { query: { per_page: 10 } });
      await moreOf(table, user.user_id, 300, 1);
      const long = await get(path, { query: { per_page: 10 } });
      expect(long.body.pagination.total).toBe(320);
      expect(rowsRead(long)).toBe(rowsRead(short));
      // The page's 10 rows, its relations' and the caller's and settings' reads: nowhere near the 620 rows there are.
      expect(rowsRead(long)).toBeLessThan(60);
    },
  );
});

describe("a page of a topic's list reads about a page of rows, however large the topic", () => {
  /** `n` questions filed under `topic`, each newer than the last, as the app files them (with their links). */
  async function filed(topic: number, userId: number, n: number, time: number): Promise<number[]> {
    const rows = await env.DB.batch<{ id: number }>(
      Array.from({ length: n }, (_, i) =>
        env.DB.prepare(
          `INSERT INTO questions (user_id, title, content_markdown, content_rendered, create_time, update_time)
           VALUES (?, 'more', 'x', '<p>x</p>', ?, ?) RETURNING question_id AS id`,
        ).bind(userId, time + i, time + i),
      ),
    );
    const ids = rows.map((result) => result.results[0]!.id);
    await env.DB.batch(
      ids.map((id) =>
        env.DB.prepare(
          "INSERT INTO topicables (topic_id, topicable_id, topicable_type, create_time) VALUES (?, ?, 'question', 0)",
        ).bind(topic, id),
      ),
    );
    await recountCounters("question", ids);
    return ids;
  }

  it("in its default order, among 20 or 320 of the topic's questions and 300 of another's", async () => {
    const user = await createUser();
    const [topic, other] = [await createTopic(), await createTopic()];
    await filed(topic, user.user_id, 20, 1000);
    await filed(other, user.user_id, 300, 5000);
    const path = `/api/topics/${topic}/questions`;
    await get(path, { query: { per_page: 10 } });
    const small = await get(path, { query: { per_page: 10 } });
    const newest = await filed(topic, user.user_id, 300, 2000);
    const large = await get(path, { query: { per_page: 10 } });
    expect(large.body.pagination.total).toBe(320);
    expect(large.body.data.map((q: { question_id: number }) => q.question_id)).toEqual(newest.slice(-10).reverse());
    expect(rowsRead(large)).toBe(rowsRead(small));
    expect(rowsRead(large)).toBeLessThan(60);
  });

  it("asking in it reads as many rows whether it holds 20 or 320 questions (its count kept by triggers)", async () => {
    // Each ask by a new asker: a recount of the asker's own questions reads their rows, not what is measured here.
    const user = await createUser();
    const topic = await createTopic();
    await filed(topic, user.user_id, 20, 1000);
    const ask = async (title: string) =>
      post("/api/questions", {
        token: (await createUser()).token,
        body: { title, content_markdown: "Why?", topic_ids: [topic] },
      });
    // The first request also loads the site settings into KV; measure after it.
    await get("/api/options");
    const small = await ask("Asked among twenty");
    await filed(topic, user.user_id, 300, 2000);
    const large = await ask("Asked among three hundred");
    expect([small.status, large.status]).toEqual([200, 200]);
    expect(rowsRead(large)).toBe(rowsRead(small));
    const count = await env.DB.prepare("SELECT question_count AS n FROM topics WHERE topic_id = ?").bind(topic);
    expect((await count.first<{ n: number }>())?.n).toBe(322);
  });

  it("with the order and the trash of its items kept on its links by triggers, as the API changes them", async () => {
    const admin = await createAdmin();
    const voter = await createUser();
    const topic = await createTopic();
    const [first, second, third] = await filed(topic, admin.user_id, 3, 1000);
    const ids = async (order: string) =>
      (await get(`/api/topics/${topic}/questions`, { query: { order } })).body.data.map(
        (q: { question_id: number }) => q.question_id,
      );
    expect(await ids("-update_time")).toEqual([third, second, first]);
    await post(`/api/questions/${first}/voters`, { token: voter.token, body: { type: "up" } });
    expect(await ids("-vote_count")).toEqual([first, third, second]);
    await patch(`/api/questions/${first}`, { token: admin.token, body: { title: "Edited, so updated" } });
    expect(await ids("-update_time")).toEqual([first, third, second]);
    await post(`/api/questions/${third}/trash`, { token: admin.token });
    expect(await ids("-update_time")).toEqual([first, second]);
    await post(`/api/questions/${third}/untrash`, { token: admin.token });
    expect(await ids("create_time")).toEqual([first, second, third]);
  });
});

/**
 * Write limits (docs/security.md#write-limits): every write route belongs to a category with a per-user and a per-address
 * limit (wrangler.toml). A refused write is 429 with code 100002 and `Retry-After`, and changes nothing.
 *
 * The limiter counts in windows aligned to the clock, so a burst may straddle two windows: a burst of three
 * times the limit always has between one and two limits' worth accepted and the rest refused, and the tests
 * assert exactly that band, never a timing.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../src/app";
import { UPLOAD_ROUTES } from "../src/http/middleware/body";
import { CATEGORY_OF_ROUTE, LIMIT_PERIOD, limitCategory } from "../src/lib/rate-limit";
import { picture } from "./fixtures/pictures";
import { type ApiResponse, call, del, post } from "./helpers/api";
import { createArticle, createComment, createQuestion, createTopic } from "./helpers/content";
import { createAdmin, createUser, type TestUser } from "./helpers/factories";

/** A sanity bound for a burst of a few hundred requests on a loaded machine, not a timing being tested. */
const BURST_TIMEOUT = 60_000;

/** The defaults of wrangler.toml this file relies on. */
const LIMITS = {
  content: 10,
  contentPerAddress: 50,
  comments: 20,
  votes: 60,
  follows: 60,
  reports: 10,
  images: 20,
  captchas: 30,
  mails: 10,
  writes: 60,
};

async function count(table: string): Promise<number> {
  return (await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table}`).first<{ n: number }>())!.n;
}

/** Every answer is the write's success (any answer under 500 when not given) or the limit's refusal. */
function expectLimited(results: ApiResponse[], limit: number, success?: number): number {
  const refused = results.filter((res) => res.status === 429);
  for (const res of refused) {
    expect(res.body.code).toBe(100002);
    expect(res.headers.get("retry-after")).toBe(String(LIMIT_PERIOD));
  }
  const accepted = results.length - refused.length;
  const answered = results.filter((res) => (success === undefined ? res.status < 500 : res.status === success));
  expect(answered.filter((res) => res.status !== 429)).toHaveLength(accepted);
  expect(accepted).toBeGreaterThanOrEqual(limit);
  expect(accepted).toBeLessThanOrEqual(2 * limit);
  return accepted;
}

const times = <T>(n: number, make: (i: number) => Promise<T>): Promise<T[]> =>
  Promise.all(Array.from({ length: n }, (_, i) => make(i)));

/** POST /api/questions or /api/articles with a valid body. */
type Headers = Record<string, string>;
const titledPost =
  (kind: "questions" | "articles") => (user: TestUser, topic: number, title: string, headers?: Headers) =>
    post(`/api/${kind}`, { token: user.token, body: { title, content_markdown: "x", topic_ids: [topic] }, headers });
const ask = titledPost("questions");
const write = titledPost("articles");

async function sequence<T>(n: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < n; i++) results.push(await make(i));
  return results;
}

describe("the issue's burst", { timeout: BURST_TIMEOUT }, () => {
  it("refuses most of 60 comments sent at once by one user, and stores exactly the accepted ones", async () => {
    const user = await createUser();
    const question = await createQuestion(user.user_id);
    const comments = `/api/questions/${question}/comments`;
    const results = await times(60, (i) => post(comments, { token: user.token, body: { content: `c${i}` } }));
    const accepted = expectLimited(results, LIMITS.comments, 200);
    expect(results.filter((res) => res.status === 429).length).toBeGreaterThanOrEqual(20);
    expect(await count("comments")).toBe(accepted);
    const counted = env.DB.prepare("SELECT comment_count AS n FROM questions WHERE question_id = ?").bind(question);
    expect(await counted.first("n")).toBe(accepted);
  });
});

describe("each category, per user", { timeout: BURST_TIMEOUT }, () => {
  it("content: questions, answers and articles share one count", async () => {
    const user = await createUser();
    const topic = await createTopic();
    const question = await createQuestion(user.user_id);
    const results = await sequence(3 * LIMITS.content, (i) =>
      i % 3 === 0
        ? ask(user, topic, `q${i}`)
        : i % 3 === 1
          ? post(`/api/questions/${question}/answers`, { token: user.token, body: { content_markdown: `a${i}` } })
          : write(user, topic, `a${i}`),
    );
    const accepted = expectLimited(results, LIMITS.content, 200);
    expect((await count("questions")) - 1 + (await count("answers")) + (await count("articles"))).toBe(accepted);
  });

  it("comments: replies count with comments", async () => {
    const user = await createUser();
    const article = await createArticle(user.user_id);
    const comment = await createComment(user.user_id, "article", article);
    const replies = `/api/comments/${comment}/replies`;
    const results = await sequence(3 * LIMITS.comments, (i) =>
      post(replies, { token: user.token, body: { content: `r${i}` } }),
    );
    const accepted = expectLimited(results, LIMITS.comments, 200);
    expect(await count("comments")).toBe(accepted + 1);
  });

  it("votes: a vote and its withdrawal both count", async () => {
    const [author, voter] = [await createUser(), await createUser()];
    const question = await createQuestion(author.user_id);
    const path = `/api/questions/${question}/voters`;
    const results = await sequence(3 * LIMITS.votes, (i) =>
      i % 2 ? del(path, { token: voter.token }) : post(path, { token: voter.token, body: { type: "up" } }),
    );
    expectLimited(results, LIMITS.votes, 200);
  });

  it("follows", async () => {
    const [user, other] = [await createUser(), await createUser()];
    const path = `/api/users/${other.user_id}/followers`;
    const results = await sequence(3 * LIMITS.follows, (i) =>
      i % 2 ? del(path, { token: user.token }) : post(path, { token: user.token }),
    );
    expectLimited(results, LIMITS.follows, 200);
  });

  it("reports: refused reports are not stored", async () => {
    const [author, reporter] = [await createUser(), await createUser()];
    const questions = await sequence(3 * LIMITS.reports, () => createQuestion(author.user_id));
    const results = await sequence(questions.length, (i) =>
      post(`/api/reports/question:${questions[i]}`, { token: reporter.token, body: { reason: "spam" } }),
    );
    const accepted = expectLimited(results, LIMITS.reports, 200);
    expect(await count("reports")).toBe(accepted);
  });

  it("images: uploads, avatars and covers share one count; refused uploads store nothing", async () => {
    const user = await createUser();
    const png = picture("png", 32, 32);
    const results = await sequence(3 * LIMITS.images, (i) => {
      const field = ["image", "avatar", "cover"][i % 3]!;
      const form = new FormData();
      form.append(field, new File([png], "p.png", { type: "image/png" }));
      return post(field === "image" ? "/api/images" : `/api/user/${field}`, { token: user.token, rawBody: form });
    });
    expectLimited(results, LIMITS.images, 200);
    const uploads = results.filter((_, i) => i % 3 === 0);
    expect(await count("images")).toBe(uploads.filter((res) => res.status === 200).length);
  });

  it("every other write has the general limit", async () => {
    const user = await createUser();
    const results = await sequence(3 * LIMITS.writes, () => post("/api/notifications/read", { token: user.token }));
    expectLimited(results, LIMITS.writes, 200);
  });
});

describe("per address", { timeout: BURST_TIMEOUT }, () => {
  const from = (ip: string) => ({ "cf-connecting-ip": ip });

  it("captchas: counted by address only; IPv6 addresses of one /64 share the count", async () => {
    const results = await sequence(3 * LIMITS.captchas, (i) =>
      post("/api/captchas", { headers: from(i % 2 ? "2001:db8:1:2::a" : "2001:db8:1:2:ffff:0:0:b") }),
    );
    expectLimited(results, LIMITS.captchas, 200);
    expect((await post("/api/captchas", { headers: from("2001:db8:1:3::a") })).status).toBe(200);
  });

  it("mails: code mails are counted by address", async () => {
    const results = await sequence(3 * LIMITS.mails, (i) =>
      post("/api/user/password/email", { body: { email: `nobody${i}@example.test` }, headers: from("203.0.113.7") }),
    );
    expectLimited(results, LIMITS.mails);
  });

  it("counts one address across users, each within their own limit", async () => {
    const users: TestUser[] = await sequence(15, () => createUser());
    const topic = await createTopic();
    const results = await sequence(150, (i) => ask(users[Math.floor(i / 10)]!, topic, `q${i}`, from("198.51.100.9")));
    const accepted = expectLimited(results, LIMITS.contentPerAddress, 200);
    expect(await count("questions")).toBe(accepted);
    const elsewhere = await ask(await createUser(), topic, "elsewhere", from("198.51.100.10"));
    expect(elsewhere.status).toBe(200);
  });
});

describe("order and exemptions", { timeout: BURST_TIMEOUT }, () => {
  it("refuses a limited write before reading its body: a malformed or oversized body still gets 429", async () => {
    const user = await createUser();
    const question = await createQuestion(user.user_id);
    const comments = `/api/questions/${question}/comments`;
    await sequence(2 * LIMITS.comments + 1, (i) => post(comments, { token: user.token, body: { content: `c${i}` } }));
    const json = { "content-type": "application/json" };
    const malformed = await call("POST", comments, { token: user.token, rawBody: "{", headers: json });
    expect(malformed.status).toBe(429);
    expect(malformed.body.code).toBe(100002);
    const oversized = await call("POST", comments, { token: user.token, rawBody: "x".repeat(2 << 20), headers: json });
    expect(oversized.status).toBe(429);
  });

  it("does not count administrators", async () => {
    const admin = await createAdmin();
    const topic = await createTopic();
    const results = await sequence(3 * LIMITS.content, (i) => ask(admin, topic, `q${i}`));
    expect(results.every((res) => res.status === 200)).toBe(true);
  });

  it("does not count reads", async () => {
    const user = await createUser();
    const reads = await sequence(2 * LIMITS.writes + 1, () => call("GET", "/api/user", { token: user.token }));
    expect(reads.every((res) => res.status === 200)).toBe(true);
  });

  it("does not count paths no route serves", async () => {
    const user = await createUser();
    const unknown = await sequence(2 * LIMITS.writes + 1, () => post("/api/no-such-route", { token: user.token }));
    expect(unknown.every((res) => res.status === 404)).toBe(true);
  });
});

describe("the route table", () => {
  it("names only routes the app serves, so no write falls to the general limit by a typo", () => {
    const served = new Set(createApp().routes.map((route) => `${route.method} ${route.path}`));
    for (const route of [...CATEGORY_OF_ROUTE.keys(), ...UPLOAD_ROUTES]) expect(served, route).toContain(route);
  });

  it("puts each write in its category and any other write in the general one", () => {
    expect(limitCategory("POST /api/questions")).toBe("content");
    expect(limitCategory("PATCH /api/comments/:comment_id")).toBe("comments");
    expect(limitCategory("DELETE /api/answers/:answer_id/voters")).toBe("votes");
    expect(limitCategory("DELETE /api/topics/:topic_id/followers")).toBe("follows");
    expect(limitCategory("POST /api/reports/:target")).toBe("reports");
    expect(limitCategory("POST /api/user/cover")).toBe("images");
    expect(limitCategory("POST /api/captchas")).toBe("captchas");
    expect(limitCategory("POST /api/user/register/email")).toBe("mails");
    expect(limitCategory("POST /api/tokens")).toBe("writes");
  });
});

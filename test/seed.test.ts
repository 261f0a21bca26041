/**
 * `npm run seed` (seed/seed-community.ts) against the Worker itself: the demo community is made through the API
 * alone, from registration with a mailed code to votes and follows, and a second run writes nothing.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { users as demoUsers } from "../seed/demo-community";
import { type SeedOptions, seedCommunity } from "../seed/seed-community";
import worker from "../src/index";
import { BASE, get } from "./helpers/api";
import { setOptions } from "./helpers/factories";
import { codeFromMail } from "./helpers/mailbox";

async function fetchWorker(request: Request): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(request, env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

// The mailbox is the suite's SMTP server (test/global-setup.ts), which the seed points the site's mail at.
const options: SeedOptions = {
  fetch: fetchWorker,
  baseUrl: BASE,
  admin: { name: "root", password: "root-password" },
  mailbox: { smtp: { host: "127.0.0.1", port: Number(env.TEST_SMTP_PORT) }, codeFor: (email) => codeFromMail(email) },
};

const MAIL_SETTINGS = { smtp_host: "mail.example.test", smtp_port: 2525, smtp_secure: "tls", smtp_username: "mailer" };

async function loginAs(username: string, known?: string): Promise<string> {
  const password = known ?? demoUsers.find((user) => user.username === username)?.password;
  const res = await fetchWorker(
    new Request(`${BASE}/api/tokens`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: username, password }),
    }),
  );
  return ((await res.json()) as { data: { token: string } }).data.token;
}

describe("the demo community seed", () => {
  it("fills an empty site through the API, and a second run writes nothing", async () => {
    // The site's own mail settings, which would not reach the seed's mailbox: it points them there and back.
    await setOptions(MAIL_SETTINGS);
    const summary = await seedCommunity(options);
    expect(summary.seeded).toBe(true);
    expect(summary.counts).toEqual({
      users: 7,
      topics: 4,
      questions: 6,
      answers: 10,
      articles: 4,
      comments: 14,
      notifications: expect.any(Number),
    });
    expect(summary.counts.notifications).toBeGreaterThan(10);
    expect(summary.logins).toHaveLength(7);
    expect(summary.logins[0]).toEqual({ username: "root", password: "root-password", role: "admin" });

    const root = await loginAs("root", "root-password");
    const settings = (await get("/api/options", { token: root })).body.data;
    expect(Object.fromEntries(Object.keys(MAIL_SETTINGS).map((name) => [name, settings[name]]))).toEqual(MAIL_SETTINGS);

    // Every login printed works, and the administrator is the one ADMIN_USERNAME names.
    const alice = await loginAs("alicewong");
    const me = await get("/api/user", { token: alice });
    expect(me.body.data).toEqual(
      expect.objectContaining({ username: "alicewong", headline: "Backend engineer at the edge" }),
    );
    expect(me.body.data.follower_count).toBe(3);

    // Her question was answered and commented on, her article commented on: she was notified of each.
    const mine = await get("/api/notifications", { token: alice, query: { per_page: 50 } });
    const types = mine.body.data.map((n: { type: string }) => n.type).sort();
    expect(types).toEqual(["article_commented", "question_answered", "question_answered", "question_commented"]);
    const jing = await get("/api/notifications", { token: await loginAs("李静"), query: { type: "comment_replied" } });
    expect(jing.body.pagination.total).toBe(1);

    // Avatars, profile and topic covers were uploaded, and their files answer.
    const users = await get("/api/users", { query: { username: "alicewong" } });
    const avatar = await fetchWorker(new Request(users.body.data[0].avatar.large));
    expect([avatar.status, avatar.headers.get("content-type")]).toEqual([200, "image/png"]);
    expect(users.body.data[0].avatar.large).not.toContain("/static/default/");
    const topics = await get("/api/topics", { query: { per_page: 10 } });
    expect(topics.body.data.map((t: { name: string }) => t.name)).toEqual([
      "Cloudflare Workers",
      "前端开发",
      "Photography",
      "Cuisine",
    ]);
    const cover = await fetchWorker(new Request(topics.body.data[0].cover.large));
    expect(cover.status).toBe(200);
    expect((await cover.arrayBuffer()).byteLength).toBeGreaterThan(500);

    // The photo in an article is the author's upload, linked to the article.
    const osaka = await get("/api/articles", { query: { per_page: 10 } });
    const article = osaka.body.data.find((a: { title: string }) => a.title === "大阪で撮る夜景スナップ");
    expect(article.content_rendered).toMatch(/<img src="[^"]+\/upload\/image\/[^"]+" alt="雨上がりの道頓堀"/);
    const images = await get("/api/images", {
      token: root,
      query: { item_type: "article", item_id: article.article_id },
    });
    expect(images.body.pagination.total).toBe(1);

    // Votes counted on the first question: three up.
    const questions = await get("/api/questions", { query: { order: "-vote_count", per_page: 1 } });
    expect(questions.body.data[0]).toEqual(
      expect.objectContaining({ title: "How do I keep D1 reads to one round trip per request?", vote_count: 3 }),
    );

    const again = await seedCommunity(options);
    expect(again.seeded).toBe(false);
    expect(again.counts).toEqual(summary.counts);
    // About 150 requests, with uploads resized in the Worker: seconds, more on a busy machine.
  }, 60_000);
});

/**
 * Cross-site request forgery (docs/security.md#cross-site-requests): a write authenticated by the `token` cookie alone counts as
 * the user's only from the API's own origin, a trusted origin, or when the browser says `Sec-Fetch-Site:
 * same-origin`/`none`. Otherwise the cookie is ignored, so the write runs as an anonymous caller: a login-only
 * route answers 201001 and nothing is written. Header and Bearer tokens are unaffected.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { picture } from "./fixtures/pictures";
import { BASE, call, get, post } from "./helpers/api";
import { createQuestion, createTopic } from "./helpers/content";
import { createUser, type TestUser } from "./helpers/factories";

const EVIL = "https://evil.example";
const JSON_TYPE = "application/json";

const question = (topic: number, title = "csrf") => ({ title, content_markdown: "x", topic_ids: [topic] });

async function questionCount(): Promise<number> {
  return (await env.DB.prepare("SELECT COUNT(*) AS n FROM questions").first<{ n: number }>())!.n;
}

type Headers = Record<string, string>;

/** A write carrying only the cookie, with the headers a browser would add. */
function cookieWrite(method: string, path: string, user: TestUser, headers: Headers, rawBody?: string | FormData) {
  return call(method, path, { rawBody, headers: { cookie: `token=${user.token}`, ...headers } });
}

/** POST /api/questions with the cookie alone and a JSON body (unless `headers` says another type). */
function askWithCookie(user: TestUser, topic: number, headers: Headers, title?: string) {
  const typed = { "content-type": JSON_TYPE, ...headers };
  return cookieWrite("POST", "/api/questions", user, typed, JSON.stringify(question(topic, title)));
}

describe("cookie-authenticated writes from other sites", () => {
  it("refuses the issue's attack: cookie, evil Origin, text/plain JSON body; nothing is written", async () => {
    const user = await createUser();
    const topic = await createTopic();
    const res = await askWithCookie(user, topic, { origin: EVIL, "content-type": "text/plain" });
    // A form can send text/plain, and JSON is no longer read from it (body-limits.test.ts); the next test
    // shows the cookie itself is refused as well.
    expect(res.status).toBe(415);
    expect(res.body.code).toBe(200001);
    expect(res.body.errors.body).toEqual(expect.any(String));
    expect(await questionCount()).toBe(0);
  });

  it("refuses the attack with a JSON Content-Type too (the cookie is what is refused, not the type)", async () => {
    const user = await createUser();
    const topic = await createTopic();
    const res = await askWithCookie(user, topic, { origin: EVIL });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(201001);
    expect(await questionCount()).toBe(0);
  });

  it("refuses Sec-Fetch-Site cross-site and same-site without a trusted Origin", async () => {
    const user = await createUser();
    const topic = await createTopic();
    for (const site of ["cross-site", "same-site"]) {
      const res = await askWithCookie(user, topic, { "sec-fetch-site": site });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(201001);
    }
    expect(await questionCount()).toBe(0);
  });

  it("refuses `Origin: null` (sandboxed frames, cross-site redirects) and a write with neither header", async () => {
    const user = await createUser();
    const topic = await createTopic();
    for (const headers of [{ origin: "null" }, {}] as Headers[]) {
      const res = await askWithCookie(user, topic, headers);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(201001);
    }
    expect(await questionCount()).toBe(0);
  });

  it("checks a method override as the write it becomes: GET turned into DELETE withdraws no vote", async () => {
    const [author, voter] = [await createUser(), await createUser()];
    const voters = `/api/questions/${await createQuestion(author.user_id)}/voters`;
    expect((await post(voters, { token: voter.token, body: { type: "up" } })).status).toBe(200);
    const res = await cookieWrite("GET", voters, voter, { origin: EVIL, "x-http-method-override": "DELETE" });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(201001);
    expect((await get(voters)).body.pagination.total).toBe(1);
  });

  it("does not log the visitor out from another site", async () => {
    const user = await createUser();
    const res = await cookieWrite("DELETE", "/api/tokens/current", user, { origin: EVIL });
    expect(res.status).toBe(401);
    expect((await get("/api/user", { token: user.token })).status).toBe(200);
  });

  it("still reads with the cookie from anywhere (reads change nothing)", async () => {
    const user = await createUser();
    const headers = { cookie: `token=${user.token}`, origin: EVIL, "sec-fetch-site": "cross-site" };
    const res = await call("GET", "/api/user", { headers });
    expect(res.status).toBe(200);
    expect(res.body.data.user_id).toBe(user.user_id);
  });
});

describe("cookie-authenticated writes from trusted pages", () => {
  it("accepts the API's own origin", async () => {
    const user = await createUser();
    const topic = await createTopic();
    const res = await askWithCookie(user, topic, { origin: BASE });
    expect(res.status).toBe(200);
    expect(res.body.data.user_id).toBe(user.user_id);
    expect(await questionCount()).toBe(1);
  });

  it("accepts Sec-Fetch-Site same-origin and none, even with `Origin: null`", async () => {
    const user = await createUser();
    const topic = await createTopic();
    for (const [site, title] of [
      ["same-origin", "one"],
      ["none", "two"],
    ] as const) {
      const res = await askWithCookie(user, topic, { "sec-fetch-site": site, origin: "null" }, title);
      expect(res.status).toBe(200);
    }
    expect(await questionCount()).toBe(2);
  });

  it("accepts an origin listed in TRUSTED_ORIGINS, and only those", async () => {
    const user = await createUser();
    const topic = await createTopic();
    const trusted = { ...env, TRUSTED_ORIGINS: " https://www.mdclub.test/ , not a url,https://m.mdclub.test" };
    const send = async (origin: string) => {
      const request = new Request(`${BASE}/api/questions`, {
        method: "POST",
        headers: { cookie: `token=${user.token}`, origin, "sec-fetch-site": "same-site", "content-type": JSON_TYPE },
        body: JSON.stringify(question(topic, `from ${origin}`)),
      });
      const ctx = createExecutionContext();
      const res = await worker.fetch(request, trusted, ctx);
      await waitOnExecutionContext(ctx);
      return res;
    };
    expect((await send("https://www.mdclub.test")).status).toBe(200);
    expect((await send("https://m.mdclub.test")).status).toBe(200);
    expect((await send("https://evil.mdclub.test")).status).toBe(401);
    expect(await questionCount()).toBe(2);
  });

  it("uploads an image with the cookie alone from the same origin (MDClub's editor)", async () => {
    const user = await createUser();
    const form = new FormData();
    form.append("image", new File([picture("png", 40, 30)], "pasted.png", { type: "image/png" }));
    const res = await cookieWrite("POST", "/api/images", user, { origin: BASE, "sec-fetch-site": "same-origin" }, form);
    expect(res.status).toBe(200);
    expect(res.body.data.user_id).toBe(user.user_id);
  });

  it("refuses the same upload from another site, storing nothing", async () => {
    const user = await createUser();
    const form = new FormData();
    form.append("image", new File([picture("png", 40, 30)], "pasted.png", { type: "image/png" }));
    const res = await cookieWrite("POST", "/api/images", user, { origin: EVIL, "sec-fetch-site": "cross-site" }, form);
    expect(res.status).toBe(401);
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM images").first<{ n: number }>())!.n).toBe(0);
    expect((await env.BUCKET.list()).objects).toHaveLength(0);
  });
});

describe("tokens a browser never attaches on its own", () => {
  it("accepts the token header and a Bearer token whatever the Origin says", async () => {
    const user = await createUser();
    const topic = await createTopic();
    const headers = { origin: EVIL, "sec-fetch-site": "cross-site" };
    const byHeader = await post("/api/questions", { token: user.token, headers, body: question(topic, "header") });
    expect(byHeader.status).toBe(200);
    const byBearer = await post("/api/questions", { bearer: user.token, headers, body: question(topic, "bearer") });
    expect(byBearer.status).toBe(200);
    expect(await questionCount()).toBe(2);
  });

  it("answers a preflight with the CORS headers and no credentials", async () => {
    const headers = { origin: EVIL, "access-control-request-method": "POST" };
    const res = await call("OPTIONS", "/api/questions", { headers });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
  });
});

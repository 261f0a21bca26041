/**
 * The anonymous edge cache (docs/decisions.md#anonymous-reads-are-cached-at-the-edge). The suite runs with
 * EDGE_CACHE_SECONDS "0" (vitest.config.ts), since factories write straight into D1 where no purge sees them; these
 * tests turn the cache on for each call, writes included. `reset()` after every test (test/apply-migrations.ts)
 * empties the Cache API as well as D1, KV and R2, so each test starts with no copies.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { entryKey, openEdgeCache } from "../src/http/middleware/edge-cache";
import { type ApiResponse, BASE, call, type RequestOptions } from "./helpers/api";
import { createQuestion } from "./helpers/content";
import { createAdmin, createUser, DEFAULT_PASSWORD } from "./helpers/factories";

const ON = { ...env, EDGE_CACHE_SECONDS: "30" };

/** A call with the cache on (and whatever else `options.env` changes). */
const cached = (method: string, path: string, options: RequestOptions = {}) =>
  call(method, path, { ...options, env: { ...ON, ...options.env } });
const read = (path: string, options: RequestOptions = {}) => cached("GET", path, options);

/** The edge cache's Server-Timing entry: "hit", "miss", or undefined when it stood aside. */
const marker = (res: ApiResponse) => /edge-cache;desc="(\w+)"/.exec(res.headers.get("server-timing") ?? "")?.[1];

function expectHit(res: ApiResponse, from: ApiResponse) {
  expect(res.status).toBe(200);
  expect(marker(res)).toBe("hit");
  expect(res.roundTrips).toBe(0);
  expect(res.body).toEqual(from.body);
  expect(res.headers.get("etag")).toBe(from.headers.get("etag"));
  expect(res.headers.get("content-type")).toBe(from.headers.get("content-type"));
}

function expectFromD1(res: ApiResponse) {
  expect(marker(res)).not.toBe("hit");
  expect(res.roundTrips).toBeGreaterThan(0);
}

/** The copy the cache keeps for `path` now, as the middleware would look it up. */
async function storedCopy(path: string): Promise<Response | undefined> {
  const cache = await openEdgeCache();
  return cache.match(await entryKey(cache, new URL(path, BASE).href));
}

async function askedQuestion() {
  const author = await createUser();
  return { author, id: await createQuestion(author.user_id, { title: "Why is the sky blue?" }) };
}

describe("anonymous GETs", () => {
  it("answer a record and a list from the cache the second time, with no D1 round trip", async () => {
    const { id } = await askedQuestion();
    for (const path of [`/api/questions/${id}`, "/api/questions?include=user&per_page=5"]) {
      const first = await read(path);
      expect(first.status).toBe(200);
      expect(marker(first)).toBe("miss");
      expect(first.roundTrips).toBeGreaterThan(0);
      expectHit(await read(path), first);
    }
  });

  // Finding: any query parameter the route does not read missed the cache, so anyone could keep D1 busy.
  it("answer from one copy whatever parameters the route ignores, and in whatever order its own come", async () => {
    const { id } = await askedQuestion();
    const list = "/api/questions?page=1&per_page=5&order=-vote_count";
    const first = await read(list);
    expect(marker(first)).toBe("miss");
    for (const variant of [
      "/api/questions?per_page=5&order=-vote_count&page=1",
      "/api/questions?page=1&per_page=5&order=-vote_count&nocache=8271",
      "/api/questions?utm_source=x&page=1&per_page=5&order=-vote_count&_=1",
    ]) {
      expectHit(await read(variant), first);
    }
    // A parameter the route reads is part of the key: another page is another answer.
    expect(marker(await read("/api/questions?page=2&per_page=5&order=-vote_count"))).toBe("miss");
    const record = await read(`/api/questions/${id}?include=user`);
    expectHit(await read(`/api/questions/${id}?include=user&junk=1`), record);
    expect(marker(await read(`/api/questions/${id}?include=topics`))).toBe("miss");
  });

  it("touch neither D1 nor KV on a hit", async () => {
    const { id } = await askedQuestion();
    const first = await read(`/api/questions/${id}`);
    const unbound = { ...ON, DB: undefined, KV: undefined } as unknown as typeof env;
    expectHit(await read(`/api/questions/${id}`, { env: unbound }), first);
  });

  it("answer a HEAD from the same copy, without a body", async () => {
    const { id } = await askedQuestion();
    const first = await read(`/api/questions/${id}`);
    const head = await cached("HEAD", `/api/questions/${id}`);
    expect(head.status).toBe(200);
    expect(marker(head)).toBe("hit");
    expect(head.roundTrips).toBe(0);
    expect(head.body).toBeNull();
    expect(head.headers.get("etag")).toBe(first.headers.get("etag"));
  });

  it("answer If-None-Match on a hit with 304, the ETag and no body", async () => {
    const { id } = await askedQuestion();
    const first = await read(`/api/questions/${id}`);
    const tag = first.headers.get("etag") as string;
    const revalidated = await read(`/api/questions/${id}`, { headers: { "if-none-match": `"other", ${tag}` } });
    expect(revalidated.status).toBe(304);
    expect(marker(revalidated)).toBe("hit");
    expect(revalidated.roundTrips).toBe(0);
    expect(revalidated.body).toBeNull();
    expect(revalidated.headers.get("etag")).toBe(tag);
    expect(revalidated.headers.get("access-control-allow-origin")).toBe("*");
    expectHit(await read(`/api/questions/${id}`, { headers: { "if-none-match": '"other"' } }), first);
  });

  it("carry the CORS headers of their own request on a hit, not those of the request that filled the cache", async () => {
    const { id } = await askedQuestion();
    const path = `/api/questions/${id}`;
    const first = await read(path, { headers: { origin: "https://one.example" } });
    const hit = await read(path, { headers: { origin: "https://two.example" } });
    expectHit(hit, first);
    const uncached = await call("GET", path, { headers: { origin: "https://two.example" } });
    expect(marker(uncached)).toBeUndefined();
    for (const [name, value] of uncached.headers) {
      if (/^(access-control-|timing-allow-origin|vary)/.test(name)) expect(hit.headers.get(name), name).toBe(value);
    }
    expect(hit.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("keep their copy for EDGE_CACHE_SECONDS with only what every caller may get, and tell clients nothing", async () => {
    const { id } = await askedQuestion();
    const path = `/api/questions/${id}`;
    const first = await read(path, { env: { ...ON, EDGE_CACHE_SECONDS: "7" }, headers: { origin: "https://a.test" } });
    expect(first.headers.get("cache-control")).toBeNull();
    const stored = await storedCopy(path);
    expect(stored?.headers.get("cache-control")).toBe("max-age=7");
    expect(stored?.headers.get("etag")).toBe(first.headers.get("etag"));
    const addedByCache = ["age", "date", "cf-cache-status"];
    const names = [...(stored?.headers.keys() ?? [])].filter((name) => !addedByCache.includes(name));
    expect(names.sort()).toEqual(["cache-control", "content-length", "content-type", "etag"]);
    expect(await stored?.json()).toEqual(first.body);
    expect((await read(path)).headers.get("cache-control")).toBeNull();
  });

  it("are left to D1 when EDGE_CACHE_SECONDS is 0 or absent, whatever the cache holds", async () => {
    const { id } = await askedQuestion();
    const first = await read(`/api/questions/${id}`);
    expectHit(await read(`/api/questions/${id}`), first);
    for (const seconds of ["0", undefined]) {
      const res = await call("GET", `/api/questions/${id}`, { env: { ...env, EDGE_CACHE_SECONDS: seconds } });
      expect(res.status).toBe(200);
      expect(marker(res)).toBeUndefined();
      expect(res.roundTrips).toBeGreaterThan(0);
    }
  });
});

describe("answers that are not stored", () => {
  it("errors, whatever their status", async () => {
    const legacy = { ...ON, LEGACY_ERROR_STATUS: "true" };
    for (const [path, options] of [
      ["/api/questions/999999", {}],
      ["/api/user", {}],
      ["/api/questions/999999", { env: legacy }],
    ] as const) {
      const first = await read(path, options);
      expect(first.body.code).not.toBe(0);
      const again = await read(path, options);
      expect(again.status).toBe(first.status);
      expect(marker(again)).toBe("miss");
      expect(await storedCopy(path)).toBeUndefined();
    }
  });

  it("a logged-in caller's: they are never served from the cache, and never fill it", async () => {
    const { author, id } = await askedQuestion();
    const admin = await createAdmin();
    const path = `/api/users/${author.user_id}`;
    const personal = await read(path, { token: admin.token });
    expect(personal.body.data.email).toBe(author.email);
    expect(marker(personal)).toBeUndefined();
    const anonymous = await read(path);
    expect(marker(anonymous)).toBe("miss");
    expect(anonymous.body.data.email).toBeUndefined();
    expectHit(await read(path), anonymous);

    await read(`/api/questions/${id}`);
    const mine = await read(`/api/questions/${id}`, { token: author.token });
    expectFromD1(mine);
    expect(mine.headers.get("cache-control")).toBe("private, no-store");
  });

  it("a request with a token header, a Bearer token, a token cookie or a D1 bookmark: it bypasses the cache", async () => {
    const { author, id } = await askedQuestion();
    const path = `/api/questions/${id}`;
    const bookmark = (await call("GET", "/api/questions")).headers.get("x-d1-bookmark") as string;
    const bypassing: RequestOptions[] = [
      { token: author.token },
      { bearer: author.token },
      { headers: { cookie: `token=${author.token}` } },
      { headers: { "x-d1-bookmark": bookmark } },
    ];
    for (const options of bypassing) {
      expectFromD1(await read(path, options));
      expect(await storedCopy(path)).toBeUndefined();
    }
    const first = await read(path);
    expectHit(await read(path), first);
    for (const options of bypassing) {
      const res = await read(path, options);
      expectFromD1(res);
      expect(marker(res)).toBeUndefined();
    }
  });
});

describe("writes", () => {
  it("purge the answers they make stale, so the next anonymous GETs read D1", async () => {
    const { id } = await askedQuestion();
    const answerer = await createUser();
    const record = `/api/questions/${id}`;
    const list = `/api/questions/${id}/answers`;
    for (const path of [record, list]) {
      const first = await read(path);
      expectHit(await read(path), first);
    }
    const before = await read(record);

    const answered = await cached("POST", list, { token: answerer.token, body: { content_markdown: "Rayleigh." } });
    expect(answered.status).toBe(200);
    const after = await read(record);
    expect(marker(after)).toBe("miss");
    expect(after.body.data.answer_count).toBe(1);
    expect(after.headers.get("etag")).not.toBe(before.headers.get("etag"));
    const answers = await read(list);
    expect(marker(answers)).toBe("miss");
    expect(answers.body.data.map((answer: { answer_id: number }) => answer.answer_id)).toEqual([
      answered.body.data.answer_id,
    ]);

    expectHit(await read(record), after);
  });

  // Finding: any logged-in write, a vote included, purged every answer cached in its data centre.
  it("keep the copies where they change only counters or what their own caller reads", async () => {
    const { author, id } = await askedQuestion();
    const voter = await createUser();
    const record = `/api/questions/${id}`;
    const first = await read(record);
    const writes: [string, string, RequestOptions][] = [
      ["POST", `${record}/voters`, { token: voter.token, body: { type: "up" } }],
      ["POST", `${record}/followers`, { token: voter.token }],
      ["POST", `/api/reports/question:${id}`, { token: voter.token, body: { reason: "spam" } }],
      ["POST", "/api/tokens", { body: { name: author.username, password: DEFAULT_PASSWORD } }],
      ["POST", "/api/notifications/read", { token: author.token }],
      ["DELETE", "/api/tokens/current", { token: voter.token }],
    ];
    for (const [method, path, options] of writes) {
      const res = await cached(method, path, options);
      expect(res.status, `${method} ${path}`).toBe(200);
      expectHit(await read(record), first);
    }
    // The counters reach anonymous readers once the copy expires (here, with the cache off for the read).
    const fresh = await call("GET", record);
    expect([fresh.body.data.vote_count, fresh.body.data.follower_count]).toEqual([1, 1]);
  });

  it("purge nothing when refused or when only a captcha is made, and purge after a method override", async () => {
    const { author, id } = await askedQuestion();
    const path = `/api/questions/${id}`;
    const first = await read(path);
    const refused = await cached("POST", "/api/questions/999999/answers", {
      token: author.token,
      body: { content_markdown: "Lost." },
    });
    expect(refused.status).toBe(404);
    expect((await cached("POST", "/api/captchas")).status).toBe(200);
    expectHit(await read(path), first);

    const admin = await createAdmin();
    const override = { "x-http-method-override": "PATCH" };
    const edited = await cached("POST", path, { token: admin.token, headers: override, body: { title: "Why red?" } });
    expect(edited.status).toBe(200);
    const after = await read(path);
    expect(marker(after)).toBe("miss");
    expect(after.body.data.title).toBe("Why red?");
  });
});

/**
 * D1 read replication through the Sessions API (docs/performance.md#read-replicas-and-bookmarks): where each
 * request's session starts, the bookmark every answer carries, and how a client that never echoes it (the MDClub
 * SDK) still reads its own writes. Locally there is one database and D1 accepts any bookmark, so these tests watch
 * where the Worker asks each session to start (test/helpers/faulty-db.ts records it).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, del, get, post } from "./helpers/api";
import { createQuestion } from "./helpers/content";
import { countingKv } from "./helpers/counting-kv";
import { createAdmin, createUser, DEFAULT_PASSWORD } from "./helpers/factories";
import { FaultyD1 } from "./helpers/faulty-db";

/** A call whose D1 sessions are recorded, on `db` (a new binding, answered by the primary, unless given). */
async function watched(
  method: string,
  path: string,
  options: Parameters<typeof call>[2] = {},
  db: FaultyD1 = new FaultyD1(env.DB),
) {
  const first = db.sessions.length;
  const res = await call(method, path, { ...options, env: { ...env, DB: db as unknown as D1Database } });
  return { res, sessions: db.sessions.slice(first) };
}

/** A binding whose reads a replica answers (test/helpers/faulty-db.ts). */
const replicated = () => Object.assign(new FaultyD1(env.DB), { replica: true });

/** A bookmark as answers carry it: D1's own, then a MAC of it (http/middleware/d1-session.ts). */
const BOOKMARK = /^([0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32})\.[0-9a-f]{32}$/;
/** D1's bookmark inside a signed one: where a session starts. */
const d1Bookmark = (signed: string | null) => BOOKMARK.exec(signed ?? "")?.[1];

describe("every request runs in a D1 session", () => {
  it("a read at the nearest replica, a write at the primary, each answering its bookmark", async () => {
    const user = await createUser();
    const question = await createQuestion(user.user_id);
    const read = await watched("GET", `/api/questions/${question}`);
    expect(read.sessions).toEqual(["first-unconstrained"]);
    expect(read.res.headers.get("x-d1-bookmark")).toMatch(BOOKMARK);
    const write = await watched("POST", `/api/questions/${question}/answers`, {
      token: user.token,
      body: { content_markdown: "An answer" },
    });
    expect(write.res.status).toBe(200);
    // The request's own session, then the one its events are built in after the answer, on the primary too
    // (docs/events.md#one-event-path).
    expect(write.sessions).toEqual(["first-primary", "first-primary"]);
    expect(write.res.headers.get("x-d1-bookmark")).toMatch(BOOKMARK);
  });

  it("starts at the bookmark a client sends, and refuses one that is no bookmark before reading anything", async () => {
    const user = await createUser();
    const question = await createQuestion(user.user_id);
    const signed = (await get("/api/questions")).headers.get("x-d1-bookmark") as string;
    const read = await watched("GET", `/api/questions/${question}`, { headers: { "x-d1-bookmark": signed } });
    expect(read.res.status).toBe(200);
    expect(read.sessions).toEqual([d1Bookmark(signed)]);

    const bad = await watched("GET", `/api/questions/${question}`, { headers: { "x-d1-bookmark": "<script>" } });
    expect([bad.res.status, bad.res.body.code, Object.keys(bad.res.body.errors)]).toEqual([
      400,
      200001,
      ["x-d1-bookmark"],
    ]);
    expect(bad.res.roundTrips).toBe(0);
  });

  // Attack: a well-formed bookmark this API never gave out (forged, or naming a future state) reached D1 as it was,
  // which in production answers an error or waits for a state that may never come.
  it.each([
    ["D1's shape without a MAC", "00000000-00000007-00000000-0123456789abcdef0123456789abcdef"],
    ["a future state under another's MAC", "ffffffff-ffffffff-00000000-0123456789abcdef0123456789abcdef.MAC"],
    ["a signed one with its MAC altered", "SIGNED-ALTERED"],
  ])("refuses %s before reading anything", async (_, given) => {
    const signed = (await get("/api/questions")).headers.get("x-d1-bookmark") as string;
    const [bookmark, mac] = signed.split(".") as [string, string];
    const header = given
      .replace("MAC", mac)
      .replace("SIGNED-ALTERED", `${bookmark}.${mac.slice(0, -1)}${mac.endsWith("0") ? "1" : "0"}`);
    const res = await watched("GET", "/api/questions", { headers: { "x-d1-bookmark": header } });
    expect(res.res.status).toBe(400);
    expect(res.res.body.errors).toEqual({ "x-d1-bookmark": "not a bookmark this API answered" });
    expect([res.sessions, res.res.roundTrips]).toEqual([[], 0]);
  });

  it("lets browsers on other origins send and read the bookmark", async () => {
    const preflight = await call("OPTIONS", "/api/questions", { headers: { origin: "https://front.example" } });
    expect(preflight.headers.get("access-control-allow-headers")).toContain("X-D1-Bookmark");
    const res = await get("/api/questions", { headers: { origin: "https://front.example" } });
    expect(res.headers.get("access-control-expose-headers")).toContain("X-D1-Bookmark");
  });
});

describe("a client that never echoes the bookmark (the MDClub SDK)", () => {
  it("reads its own write: a replica's answer is read again from that write's bookmark, kept for a minute", async () => {
    const user = await createUser();
    const other = await createUser();
    const question = await createQuestion(user.user_id);
    const write = await post(`/api/questions/${question}/answers`, {
      token: user.token,
      body: { content_markdown: "Mine" },
    });
    const bookmark = d1Bookmark(write.headers.get("x-d1-bookmark"));
    expect(bookmark).toBeDefined();

    const db = replicated();
    const mine = await watched("GET", `/api/questions/${question}/answers`, { token: user.token }, db);
    expect(mine.sessions).toEqual(["first-unconstrained", bookmark]);
    expect(mine.res.body.data.map((answer: { content_markdown: string }) => answer.content_markdown)).toEqual(["Mine"]);
    expect(mine.res.roundTrips).toBe(2);
    // Someone else's reads may come from any replica.
    const theirs = await watched("GET", `/api/questions/${question}/answers`, { token: other.token }, db);
    expect(theirs.sessions).toEqual(["first-unconstrained"]);
    // Where replicas answer, the isolate looks the bookmark up before reading: one session, one round trip.
    const again = await watched("GET", `/api/questions/${question}/answers`, { token: user.token }, db);
    expect([again.sessions, again.res.roundTrips]).toEqual([[bookmark], 1]);

    const kept = await env.KV.list({ prefix: "d1-bookmark:" });
    expect(kept.keys).toHaveLength(1);
    const expires = kept.keys[0]?.expiration ?? 0;
    expect(expires - Date.now() / 1000).toBeGreaterThan(50);
    expect(expires - Date.now() / 1000).toBeLessThanOrEqual(61);
  });

  it("keeps no bookmark for a write that was refused", async () => {
    const user = await createUser();
    const refused = await post("/api/questions/999999/answers", { token: user.token, body: { content_markdown: "x" } });
    expect(refused.status).toBe(404);
    expect((await env.KV.list({ prefix: "d1-bookmark:" })).keys).toEqual([]);
    const next = await watched("GET", "/api/questions", { token: user.token }, replicated());
    expect([next.sessions, next.res.roundTrips]).toEqual([["first-unconstrained"], 1]);
  });

  it("looks for no bookmark where the primary answers: it is never behind a write", async () => {
    const user = await createUser();
    const question = await createQuestion(user.user_id);
    await post(`/api/questions/${question}/answers`, { token: user.token, body: { content_markdown: "Mine" } });
    const read = await watched("GET", `/api/questions/${question}/answers`, { token: user.token });
    expect([read.sessions, read.res.roundTrips, read.res.body.data.length]).toEqual([["first-unconstrained"], 1, 1]);
  });

  it("reads its login: the new token's first read starts at the login's bookmark", async () => {
    const user = await createUser();
    const login = await post("/api/tokens", { body: { name: user.username, password: DEFAULT_PASSWORD } });
    const me = await watched("GET", "/api/user", { token: login.body.data.token }, replicated());
    expect(me.res.body.data.user_id).toBe(user.user_id);
    expect(me.sessions).toEqual(["first-unconstrained", d1Bookmark(login.headers.get("x-d1-bookmark"))]);
  });

  it("takes no statement answered on the primary for a replica's answer: later reads look for no bookmark first", async () => {
    // An image deletion awaits its DELETE … RETURNING alone, a statement D1 reports no meta for.
    const [admin, user] = [await createAdmin(), await createUser()];
    const gone = await del("/api/images/0123456789abcdef0123456789abcdef_png", { token: admin.token });
    expect([gone.status, gone.body.code]).toEqual([404, 200005]);
    const { kv, reads } = countingKv();
    const res = await get("/api/questions", { token: user.token, env: { ...env, KV: kv } });
    expect(res.status).toBe(200);
    expect(reads.filter((key) => key.startsWith("d1-bookmark:"))).toEqual([]);
  });

  it("looks for a token no replica row holds again on the primary before answering as anonymous", async () => {
    const user = await createUser();
    await env.DB.prepare("DELETE FROM tokens WHERE user_id = ?").bind(user.user_id).run();
    const res = await watched("GET", "/api/user", { token: user.token });
    expect([res.res.status, res.res.body.code]).toEqual([401, 201001]);
    expect(res.sessions).toEqual(["first-unconstrained", "first-primary"]);
  });
});

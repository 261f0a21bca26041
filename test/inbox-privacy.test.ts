/**
 * What private messages show to whom (docs/messages.md#privacy, #moderation, #mail): only the two members read a
 * conversation; a third member and an administrator get nothing through any route, include or user record, unless an
 * administrator reads a message someone reported; no message reaches search, the edge cache, a shared ETag, a log
 * line or a mail; reports of messages; the new-message mail.
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import { entryKey, openEdgeCache } from "../src/http/middleware/edge-cache";
import { type ApiResponse, BASE, call, del, get, patch, post, type RequestOptions } from "./helpers/api";
import { createAdmin, createUser, setOptions, type TestUser } from "./helpers/factories";
import { inboxUnread, rowCount, send, sent } from "./helpers/inbox";
import { mailsSoFar, mailsTo } from "./helpers/mailbox";

const SECRET = "zebraquokka secret words";

/** A conversation between two members, a stranger and an administrator who are no part of it. */
async function conversation() {
  const [a, b, third, admin] = [await createUser(), await createUser(), await createUser(), await createAdmin()];
  const first = await sent(a, b, SECRET);
  await sent(b, a, `${SECRET} again`);
  return { a, b, third, admin, message: first.message_id };
}

/** Every read a caller could try on someone else's conversation, with every include. */
function readsOf(a: TestUser, b: TestUser): [string, string, RequestOptions["query"]][] {
  const user = "is_me,is_following,is_followed";
  return [
    ["GET", "/api/inbox", { include: "user" }],
    ["GET", `/api/inbox/${a.user_id}`, { include: "sender,receiver" }],
    ["GET", `/api/inbox/${b.user_id}`, { include: "sender,receiver" }],
    ["GET", `/api/users/${a.user_id}`, { include: user }],
    ["GET", `/api/users/${b.user_id}`, { include: user }],
    ["GET", "/api/users", { include: user }],
    ["GET", `/api/users/${b.user_id}/followers`, { include: user }],
    ["GET", "/api/reports", { include: "message,user" }],
    ["GET", "/api/notifications", { include: "sender,receiver" }],
  ];
}

/** The private-message fields of any user record in `body` that is not the viewer's own. */
function privateFieldsOfOthers(body: unknown, viewer: TestUser): string[] {
  const found: string[] = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (!value || typeof value !== "object") return;
    const record = value as Record<string, unknown>;
    if (record.user_id !== viewer.user_id) {
      for (const field of ["inbox_unread", "inbox_accept", "inbox_email"]) if (field in record) found.push(field);
    }
    Object.values(record).forEach(walk);
  };
  walk(body);
  return found;
}

describe("a conversation is the two members' alone", () => {
  it("shows a third member and an administrator nothing of it through any read, include or user record", async () => {
    const { a, b, third, admin } = await conversation();
    for (const viewer of [third, admin]) {
      for (const [method, path, query] of readsOf(a, b)) {
        const res = await call(method, path, { token: viewer.token, query });
        const text = JSON.stringify(res.body);
        expect(text, `${path} for ${viewer.username}`).not.toContain("zebraquokka");
        expect(privateFieldsOfOthers(res.body, viewer), path).toEqual([]);
        if (path.startsWith("/api/inbox")) expect(res.body.data).toEqual([]);
      }
    }
    // Both members see it all.
    for (const [viewer, other] of [
      [a, b],
      [b, a],
    ] as const) {
      const res = await get(`/api/inbox/${other.user_id}`, { token: viewer.token });
      expect(res.body.data).toHaveLength(2);
    }
  });

  it("lets a third member and an administrator mark nothing read, remove nothing and withdraw nothing", async () => {
    const { a, b, third, admin, message } = await conversation();
    for (const viewer of [third, admin]) {
      expect((await post(`/api/inbox/${a.user_id}/read`, { token: viewer.token })).body.code).toBe(209007);
      expect((await del(`/api/inbox/${b.user_id}`, { token: viewer.token })).body.code).toBe(209007);
    }
    expect((await del(`/api/messages/${message}`, { token: third.token })).body.code).toBe(209001);
    expect(await inboxUnread(b)).toBe(1);
    expect(await inboxUnread(a)).toBe(1);
    expect(await rowCount("messages")).toBe(2);
  });

  it("never puts a message in search results", async () => {
    const { third } = await conversation();
    for (const type of ["question", "answer", "article", "topic", "user"]) {
      const res = await get("/api/search", { token: third.token, query: { q: "zebraquokka", type } });
      expect([res.status, res.body.data]).toEqual([200, []]);
    }
    const messages = await get("/api/search", { token: third.token, query: { q: "zebraquokka", type: "message" } });
    expect([messages.status, messages.body.code]).toEqual([400, 200001]);
  });

  it("never lets the edge cache keep an answer: each is private to its caller, its ETag its own", async () => {
    const { a, b } = await conversation();
    const on = { ...env, EDGE_CACHE_SECONDS: "30" };
    const answers: ApiResponse[] = [];
    for (const viewer of [a, b, a]) {
      const res = await get("/api/inbox", { token: viewer.token, env: on });
      expect(res.headers.get("cache-control")).toBe("private, no-store");
      expect(res.headers.get("server-timing")).not.toContain("edge-cache");
      expect(res.roundTrips).toBe(1);
      answers.push(res);
    }
    const [ofA, ofB, againA] = answers as [ApiResponse, ApiResponse, ApiResponse];
    expect(ofA.headers.get("etag")).not.toBe(ofB.headers.get("etag"));
    expect(againA.headers.get("etag")).toBe(ofA.headers.get("etag"));
    // Without a token, nothing is served for the URL from the cache either.
    const anonymous = await get("/api/inbox", { env: on });
    expect([anonymous.status, anonymous.body.code]).toEqual([401, 201001]);
    const cache = await openEdgeCache();
    expect(await cache.match(await entryKey(cache, new URL("/api/inbox", BASE).href))).toBeUndefined();
  });

  it("purges no anonymous answer when a message is sent, read, removed or a block changes", async () => {
    const [a, b] = [await createUser(), await createUser()];
    const on = { ...env, EDGE_CACHE_SECONDS: "30" };
    await get("/api/questions", { env: on });
    const writes: [string, string, RequestOptions][] = [
      ["POST", `/api/inbox/${b.user_id}`, { body: { content_markdown: "hi" } }],
      ["POST", `/api/inbox/${b.user_id}/read`, {}],
      ["DELETE", `/api/inbox/${b.user_id}`, {}],
      ["PUT", `/api/user/blocks/${b.user_id}`, {}],
    ];
    for (const [method, path, options] of writes) {
      expect((await call(method, path, { ...options, token: a.token, env: on })).status).toBe(200);
      const again = await get("/api/questions", { env: on });
      expect(again.headers.get("server-timing")).toContain('edge-cache;desc="hit"');
    }
  });
});

describe("log lines", () => {
  let logged: MockInstance<typeof console.log>;
  let errors: MockInstance<typeof console.error>;
  beforeEach(() => {
    logged = vi.spyOn(console, "log").mockImplementation(() => undefined);
    errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
  });
  afterEach(() => {
    logged.mockRestore();
    errors.mockRestore();
  });

  it("name the route template and the caller, never a message's text, for every inbox route", async () => {
    const { a, b, message } = await conversation();
    await patch("/api/user", { token: b.token, body: { inbox_email: true } });
    // Mail written to the log instead of sent (a development server without smtp_host): it names no text either.
    await setOptions({ smtp_host: "" });
    await post(`/api/inbox/${a.user_id}/read`, { token: b.token });
    const toLog = { ...env, MAIL_TO_LOG: "true" };
    const mailed = await post(`/api/inbox/${b.user_id}`, {
      token: a.token,
      body: { content_markdown: SECRET },
      env: toLog,
    });
    expect(mailed.status).toBe(200);
    await get(`/api/inbox/${a.user_id}`, { token: b.token });
    await del(`/api/messages/${message}`, { token: a.token });
    const lines = [...logged.mock.calls, ...errors.mock.calls].map((args) => args.map(String).join(" "));
    expect(lines.length).toBeGreaterThan(4);
    expect(lines.filter((line) => line.includes("zebraquokka"))).toEqual([]);
    const routes = lines.filter((line) => line.startsWith('{"id"')).map((line) => JSON.parse(line).route);
    expect(routes).toEqual(
      expect.arrayContaining(["/api/inbox/:user_id", "/api/inbox/:user_id/read", "/api/messages/:message_id"]),
    );
    expect(lines.some((line) => line.startsWith("mail (no smtp_host set)"))).toBe(true);
  });
});

describe("POST /api/reports/message:{message_id}", () => {
  it("lets either member report a message, once, in the report routes' usual shape", async () => {
    const { a, b, message } = await conversation();
    const res = await post(`/api/reports/message:${message}`, {
      token: b.token,
      body: { reason: "harassment" },
      query: { include: "reporter,message" },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      reportable_id: message,
      reportable_type: "message",
      user_id: b.user_id,
      reason: "harassment",
    });
    expect(res.body.data.relationships.message).toEqual({
      message_id: message,
      sender_id: a.user_id,
      receiver_id: b.user_id,
      content_markdown: SECRET,
      content_rendered: `<p>${SECRET}</p>`,
      create_time: expect.any(Number),
    });
    const again = await post(`/api/reports/message:${message}`, { token: b.token, body: { reason: "again" } });
    expect([again.status, again.body.code]).toEqual([409, 207003]);
    expect((await post(`/api/reports/message:${message}`, { token: a.token, body: { reason: "mine" } })).status).toBe(
      200,
    );
  });

  it("tells anyone else, administrators included, the message does not exist (209001), and writes nothing", async () => {
    const { third, admin, message } = await conversation();
    for (const viewer of [third, admin]) {
      const res = await post(`/api/reports/message:${message}`, { token: viewer.token, body: { reason: "curious" } });
      expect([res.status, res.body.code]).toEqual([404, 209001]);
    }
    const bad = await post(`/api/reports/message:${message}`, { token: third.token, body: { reason: "x" } });
    expect(bad.body.code).toBe(209001);
    expect((await post("/api/reports/message:999999", { token: third.token, body: {} })).body.code).toBe(209001);
    expect(await rowCount("messages")).toBe(2);
    expect((await env.DB.prepare("SELECT count(*) AS n FROM reports").first<{ n: number }>())?.n).toBe(0);
  });

  it("shows administrators a reported message, and only reported ones, through the reports lists", async () => {
    const { a, b, admin, message } = await conversation();
    const unreported = await sent(a, b, `${SECRET} unreported`);
    const none = await get(`/api/reports/message:${unreported.message_id}`, {
      token: admin.token,
      query: { include: "message" },
    });
    expect([none.body.data, JSON.stringify(none.body)]).toEqual([[], expect.not.stringContaining("zebraquokka")]);
    await post(`/api/reports/message:${message}`, { token: b.token, body: { reason: "harassment" } });
    const groups = await get("/api/reports", { token: admin.token, query: { include: "message" } });
    expect(groups.body.data).toEqual([
      {
        reportable_id: message,
        reportable_type: "message",
        reporter_count: 1,
        relationships: { message: expect.objectContaining({ message_id: message, content_markdown: SECRET }) },
      },
    ]);
    const reports = await get(`/api/reports/message:${message}`, {
      token: admin.token,
      query: { include: "message,reporter" },
    });
    expect(reports.body.data[0].relationships.message.message_id).toBe(message);
    expect(reports.body.data[0].relationships.reporter.user_id).toBe(b.user_id);
    expect(JSON.stringify(groups.body)).not.toContain("unreported");
    // Members have no access to the reports lists.
    expect((await get("/api/reports", { token: b.token })).body.code).toBe(201002);
  });

  it("lets an administrator delete a reported message: its reports go, the receiver's count follows", async () => {
    const { a, b, admin, message } = await conversation();
    await post(`/api/reports/message:${message}`, { token: b.token, body: { reason: "harassment" } });
    expect(await inboxUnread(b)).toBe(1);
    const res = await del(`/api/messages/${message}`, { token: admin.token });
    expect([res.status, res.body]).toEqual([200, { code: 0, data: null }]);
    expect(await inboxUnread(b)).toBe(0);
    expect((await get("/api/reports", { token: admin.token })).body.data).toEqual([]);
    expect((await get(`/api/inbox/${b.user_id}`, { token: a.token })).body.data).toHaveLength(1);
  });

  it("leaves message reports out of the list MDClub's admin panel reads under MDCLUB_COMPAT", async () => {
    const { b, admin, message } = await conversation();
    await post(`/api/reports/message:${message}`, { token: b.token, body: { reason: "harassment" } });
    const compat = { ...env, MDCLUB_COMPAT: "true" };
    const list = await get("/api/reports", { token: admin.token, env: compat });
    expect([list.body.data, list.body.pagination.total]).toEqual([[], 0]);
    const asked = await get("/api/reports", { token: admin.token, env: compat, query: { reportable_type: "message" } });
    expect(asked.body.data.map((group: { reportable_id: number }) => group.reportable_id)).toEqual([message]);
  });
});

describe("the new-message mail", () => {
  it("mails a member who opted in once per conversation until they read it, naming the sender, not the text", async () => {
    const [a, c, b] = [await createUser(), await createUser(), await createUser()];
    await patch("/api/user", { token: b.token, body: { inbox_email: true } });
    await sent(a, b, SECRET);
    await sent(a, b, SECRET);
    await sent(c, b, "from c");
    const mails = await mailsTo(b.email, 2);
    expect(mails).toHaveLength(2);
    expect(mails.map((mail) => mail.subject).sort()).toEqual(
      [a.username, c.username].map((name) => `${name} sent you a private message on MDClub`).sort(),
    );
    for (const mail of mails) expect(mail.body).not.toContain("zebraquokka");
    await post(`/api/inbox/${a.user_id}/read`, { token: b.token });
    await sent(a, b, "after reading");
    expect(await mailsTo(b.email, 3)).toHaveLength(3);
    await sent(a, b, "still unread");
    await sent(c, b, "c again, unread");
    // Every send has had its mail by now (the helper waits for each request's work after its answer).
    expect(await mailsSoFar(b.email)).toHaveLength(3);
  });

  it("mails nobody who did not opt in, nor the sender", async () => {
    const [a, b] = [await createUser(), await createUser()];
    await patch("/api/user", { token: a.token, body: { inbox_email: true } });
    await sent(a, b, "hello");
    expect(await mailsSoFar(b.email)).toEqual([]);
    expect(await mailsSoFar(a.email)).toEqual([]);
  });

  it("never fails or holds up a send when the mail server refuses", async () => {
    const [a, b] = [await createUser(), await createUser()];
    await patch("/api/user", { token: b.token, body: { inbox_email: true } });
    await setOptions({ smtp_port: 1 });
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const res = await send(a, b, SECRET);
    const logged = errors.mock.calls.map((args) => args.map(String).join(" "));
    errors.mockRestore();
    expect(res.status).toBe(200);
    expect(res.roundTrips).toBe(2);
    expect(await inboxUnread(b)).toBe(1);
    expect(logged.some((line) => line.includes(`new-message mail to user ${b.user_id} failed`))).toBe(true);
    expect(logged.filter((line) => line.includes("zebraquokka"))).toEqual([]);
  });
});

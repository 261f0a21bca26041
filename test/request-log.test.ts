/**
 * Request ids and the log line (docs/decisions.md#request-ids-and-one-log-line-per-request): every answer names its
 * request in `X-Request-Id` (the client's own when sane, else Cloudflare's `cf-ray`, else a new one), pages on other
 * origins may read it, and the Worker writes exactly one JSON line per request, a retried one included, with the
 * full error under the same id for a 500 and nothing a client sent in confidence.
 */
import { env } from "cloudflare:workers";
import { DrizzleQueryError } from "drizzle-orm/errors";
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import { reportError } from "../src/lib/error-report";
import { type ApiResponse, call, get, post, type RequestOptions } from "./helpers/api";
import { createQuestion } from "./helpers/content";
import { createUser, DEFAULT_PASSWORD } from "./helpers/factories";
import { faultyEnv } from "./helpers/faulty-db";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const FIELDS = [
  "id",
  "method",
  "route",
  "status",
  "duration_ms",
  "d1_round_trips",
  "d1_rows_read",
  "caller_id",
  "error_code",
];

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

/** The JSON lines the Worker logged while `send` ran. */
async function linesOf(send: () => Promise<ApiResponse>) {
  logged.mockClear();
  const res = await send();
  const lines = logged.mock.calls.map(([text]) => JSON.parse(String(text)));
  return { res, lines };
}

const withId = (id: string, options: RequestOptions = {}) => ({
  ...options,
  headers: { ...options.headers, "x-request-id": id },
});

describe("REQUEST_LOG=false", () => {
  it("writes no line, and still names the response with its id", async () => {
    const quiet = { ...env, REQUEST_LOG: "false" };
    const { res, lines } = await linesOf(() => get("/api/options", withId("quiet-1", { env: quiet })));
    expect([res.status, res.headers.get("x-request-id"), lines]).toEqual([200, "quiet-1", []]);
  });
});

describe("X-Request-Id", () => {
  it("echoes a client's sane id", async () => {
    for (const id of ["abc-123", "0f5e2c1a-6b1d-4c55-9d7e-3a2b1c0d9e8f", "trace.v1:42_x", "x".repeat(128)]) {
      expect((await get("/api/options", withId(id))).headers.get("x-request-id")).toBe(id);
    }
  });

  it("makes a new id when none was sent, a different one for each request", async () => {
    const a = (await get("/api/options")).headers.get("x-request-id");
    const b = (await get("/api/options")).headers.get("x-request-id");
    expect(a).toMatch(UUID);
    expect(b).toMatch(UUID);
    expect(a).not.toBe(b);
  });

  it("refuses an id that is too long or carries other characters, and makes its own", async () => {
    for (const id of ["x".repeat(129), "a b", "<script>", "id;drop", 'quo"te', "{json}", "a/b"]) {
      const res = await get("/api/options", withId(id));
      expect(res.status).toBe(200);
      expect(res.headers.get("x-request-id")).toMatch(UUID);
    }
  });

  it("takes Cloudflare's cf-ray when the client sent no usable id", async () => {
    const ray = "8c1b2f3a4d5e6f70-CDG";
    expect((await get("/api/options", { headers: { "cf-ray": ray } })).headers.get("x-request-id")).toBe(ray);
    const refused = await get("/api/options", { headers: { "cf-ray": ray, "x-request-id": "not sane" } });
    expect(refused.headers.get("x-request-id")).toBe(ray);
    const client = await get("/api/options", { headers: { "cf-ray": ray, "x-request-id": "mine-1" } });
    expect(client.headers.get("x-request-id")).toBe("mine-1");
  });

  it("is on errors, unknown routes, wrong methods, 304s, edge-cache hits and preflights", async () => {
    const question = await createQuestion((await createUser()).user_id);
    const missing = await get("/api/questions/999999", withId("e-404"));
    expect([missing.status, missing.body.code, missing.headers.get("x-request-id")]).toEqual([404, 202001, "e-404"]);
    const route = await get("/api/no-such-thing", withId("e-route"));
    expect([route.body.code, route.headers.get("x-request-id")]).toEqual([100004, "e-route"]);
    const method = await call("PUT", "/api/options", withId("e-method"));
    expect([method.body.code, method.headers.get("x-request-id")]).toEqual([100005, "e-method"]);
    const invalid = await post("/api/tokens", withId("e-400", { body: {} }));
    expect([invalid.body.code, invalid.headers.get("x-request-id")]).toEqual([200001, "e-400"]);

    const first = await get(`/api/questions/${question}`);
    const etag = first.headers.get("etag") ?? "";
    const notModified = await get(
      `/api/questions/${question}`,
      withId("c-304", { headers: { "if-none-match": etag } }),
    );
    expect([notModified.status, notModified.headers.get("x-request-id")]).toEqual([304, "c-304"]);

    const cacheOn = { ...env, EDGE_CACHE_SECONDS: "30" };
    await get(`/api/questions/${question}`, { env: cacheOn });
    const hit = await get(`/api/questions/${question}`, withId("c-hit", { env: cacheOn }));
    expect(hit.headers.get("server-timing")).toContain('edge-cache;desc="hit"');
    expect(hit.headers.get("x-request-id")).toBe("c-hit");
    const hit304 = await get(`/api/questions/${question}`, {
      env: cacheOn,
      headers: { "if-none-match": etag, "x-request-id": "c-hit-304" },
    });
    expect([hit304.status, hit304.headers.get("x-request-id")]).toEqual([304, "c-hit-304"]);

    const preflight = await call("OPTIONS", "/api/questions", withId("p-1"));
    expect([preflight.status, preflight.headers.get("x-request-id")]).toEqual([200, "p-1"]);
    expect(preflight.headers.get("access-control-allow-headers")).toContain("X-Request-Id");
  });

  it("is exposed to pages on other origins", async () => {
    const res = await get("/api/options", { headers: { origin: "https://front.example" } });
    const exposed = (res.headers.get("access-control-expose-headers") ?? "").split(/,\s*/);
    expect(exposed).toContain("X-Request-Id");
    expect(exposed).toContain("X-D1-Bookmark");
  });
});

describe("the log line", () => {
  it("for a success names the route template, the caller and the D1 cost, and nothing else", async () => {
    const user = await createUser();
    const question = await createQuestion(user.user_id);
    const { res, lines } = await linesOf(() =>
      get(`/api/questions/${question}`, withId("ok-1", { token: user.token })),
    );
    expect(res.status).toBe(200);
    expect(lines).toHaveLength(1);
    expect(Object.keys(lines[0])).toEqual(FIELDS);
    expect(lines[0]).toEqual({
      id: "ok-1",
      method: "GET",
      route: "/api/questions/:question_id",
      status: 200,
      duration_ms: expect.any(Number),
      d1_round_trips: 1,
      d1_rows_read: expect.any(Number),
      caller_id: user.user_id,
      error_code: null,
    });
    expect(lines[0].d1_rows_read).toBeGreaterThan(0);
    expect(lines[0].duration_ms).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(lines[0])).not.toContain(user.token);
  });

  it("for an error carries the API code, and for an unknown path no route", async () => {
    const user = await createUser();
    const missing = await linesOf(() => get("/api/questions/424242", { token: user.token }));
    expect(missing.lines).toEqual([
      {
        id: missing.res.headers.get("x-request-id"),
        method: "GET",
        route: "/api/questions/:question_id",
        status: 404,
        duration_ms: expect.any(Number),
        d1_round_trips: 1,
        d1_rows_read: expect.any(Number),
        caller_id: user.user_id,
        error_code: 202001,
      },
    ]);
    const unknown = await linesOf(() => get("/api/nowhere/42"));
    expect(unknown.lines).toEqual([expect.objectContaining({ route: null, status: 404, error_code: 100004 })]);
    // Under LEGACY_ERROR_STATUS an error answers 200: the line still says which error it was.
    const legacy = await linesOf(() => get("/api/questions/424242", { env: { ...env, LEGACY_ERROR_STATUS: "true" } }));
    expect(legacy.lines).toEqual([expect.objectContaining({ status: 200, error_code: 202001, caller_id: null })]);
  });

  it("is one line for a request served twice after its token's claim failed, spanning both tries", async () => {
    const user = await createUser();
    const question = await createQuestion((await createUser()).user_id);
    await env.DB.prepare("UPDATE users SET disable_time = 1 WHERE user_id = ?").bind(user.user_id).run();
    const { res, lines } = await linesOf(() => get(`/api/questions/${question}`, { token: user.token }));
    expect(res.status).toBe(200);
    expect(res.roundTrips).toBe(2);
    expect(lines).toEqual([
      {
        id: res.headers.get("x-request-id"),
        method: "GET",
        route: "/api/questions/:question_id",
        status: 200,
        duration_ms: expect.any(Number),
        d1_round_trips: 2,
        d1_rows_read: expect.any(Number),
        caller_id: null,
        error_code: null,
      },
    ]);
    expect(res.headers.get("x-request-id")).toMatch(UUID);
  });

  it("keeps the client's id across both tries of a retried request", async () => {
    const user = await createUser();
    await env.DB.prepare("UPDATE users SET disable_time = 1 WHERE user_id = ?").bind(user.user_id).run();
    const { res, lines } = await linesOf(() => get("/api/user", withId("retry-1", { token: user.token })));
    expect([res.status, res.headers.get("x-request-id")]).toEqual([401, "retry-1"]);
    expect(lines).toEqual([expect.objectContaining({ id: "retry-1", route: "/api/user", error_code: 201001 })]);
  });

  it("is written for an edge-cache hit, with no D1 round trip", async () => {
    const question = await createQuestion((await createUser()).user_id);
    const cacheOn = { ...env, EDGE_CACHE_SECONDS: "30" };
    await get(`/api/questions/${question}`, { env: cacheOn });
    const { lines } = await linesOf(() => get(`/api/questions/${question}`, withId("hit-1", { env: cacheOn })));
    expect(lines).toEqual([
      expect.objectContaining({
        id: "hit-1",
        route: "/api/questions/:question_id",
        status: 200,
        d1_round_trips: 0,
        error_code: null,
      }),
    ]);
  });

  it("never holds a password, a token, a body or a query string", async () => {
    const user = await createUser();
    const { res, lines } = await linesOf(() =>
      post("/api/tokens", { body: { name: user.username, password: DEFAULT_PASSWORD } }),
    );
    expect(res.status).toBe(200);
    const line = JSON.stringify(lines);
    for (const secret of [DEFAULT_PASSWORD, user.username, res.body.data.token]) expect(line).not.toContain(secret);
    const search = await linesOf(() => get("/api/questions", { query: { token: "leaked-token", page: 1 } }));
    expect(search.lines).toEqual([expect.objectContaining({ route: "/api/questions", status: 200 })]);
    expect(JSON.stringify(search.lines)).not.toContain("leaked-token");
  });

  it("for a 500 is followed by the full error under the same id, without the statement's values", async () => {
    const user = await createUser();
    const { env: failing } = faultyEnv(1);
    const secret = "my secret headline 7f3a";
    const { res, lines } = await linesOf(() =>
      call("PATCH", "/api/user", withId("boom-1", { token: user.token, body: { headline: secret }, env: failing })),
    );
    expect([res.status, res.body.code, res.headers.get("x-request-id")]).toEqual([500, 100000, "boom-1"]);
    expect(res.body.message).toContain("boom-1");
    expect(lines).toEqual([
      {
        id: "boom-1",
        method: "PATCH",
        route: "/api/user",
        status: 500,
        duration_ms: expect.any(Number),
        // The profile edit's first round trip is a read (the profile, for its search document) that carried the token
        // check; it failed, so the 500 goes out after 1, naming the caller the token's signed claim names.
        d1_round_trips: 1,
        d1_rows_read: expect.any(Number),
        caller_id: user.user_id,
        error_code: 100000,
      },
    ]);
    expect(errors).toHaveBeenCalledTimes(1);
    const logged = JSON.parse(String(errors.mock.calls[0]?.[0]));
    expect(logged.id).toBe("boom-1");
    const text = JSON.stringify(logged.error);
    expect(logged.error).toEqual(expect.objectContaining({ message: "D1 round trip 1", stack: expect.any(String) }));
    expect(text).not.toContain(secret);
    expect(text).not.toContain(user.token);
  });
});

describe("reportError", () => {
  it("keeps a failed query's SQL and cause but not the values bound to it, in the message or the stack", () => {
    const cause = new Error("D1_ERROR: UNIQUE constraint failed: users.email");
    const failed = new DrizzleQueryError("insert into users (email, password) values (?, ?)", ["a@b.c", "h4sh"], cause);
    const report = reportError(failed);
    expect(report).toEqual({
      name: "Error",
      message: "Failed query: insert into users (email, password) values (?, ?)",
      stack: expect.stringContaining("params: [not logged]"),
      cause: expect.objectContaining({ message: "D1_ERROR: UNIQUE constraint failed: users.email" }),
    });
    expect(JSON.stringify(report)).not.toMatch(/a@b\.c|h4sh/);
    expect(reportError("thrown text")).toBe("thrown text");
  });
});

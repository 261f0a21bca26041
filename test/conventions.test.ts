/**
 * The wire format every route shares (docs/decisions.md#wire-format, docs/conventions.md): JSON for every
 * answer, 404/405/400/413/500 with the reference's codes, bodies, trailing slashes, CORS and Server-Timing.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { createApp } from "../src/app";
import { JSON_BODY_LIMIT } from "../src/http/middleware/body";
import worker from "../src/index";
import { type ApiResponse, BASE, call, get, patch } from "./helpers/api";
import { createAdmin } from "./helpers/factories";

const SERVER_TIMING = /^d1;dur=\d+(\.\d+)?;desc="\d+ round trips", d1-rows;desc="\d+ rows read"$/;

/** For what the shared helper cannot send: a streamed body without a length, or other bindings. */
async function fetchWorker(request: Request, bindings: Partial<typeof env> = {}): Promise<ApiResponse> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(request, { ...env, ...bindings }, ctx);
  await waitOnExecutionContext(ctx);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers, roundTrips: Number.NaN };
}

/** The real app with one extra route, for paths no module serves yet. */
async function requestWithRoute(
  register: (app: ReturnType<typeof createApp>) => void,
  path: string,
  init: RequestInit = {},
) {
  const app = createApp();
  register(app);
  const ctx = createExecutionContext();
  const res = await app.request(path, init, env, ctx);
  await waitOnExecutionContext(ctx);
  return { res, text: await res.text() };
}

/** A body that arrives in chunks with no Content-Length, so only its real size can be checked. */
function streamed(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      for (let at = 0; at < bytes.length; at += 64 * 1024) controller.enqueue(bytes.slice(at, at + 64 * 1024));
      controller.close();
    },
  });
}

/** A JSON body of exactly `size` bytes that sets site_name. */
const jsonOfSize = (size: number) => {
  const json = '{"site_name": "Sized"}';
  return json + " ".repeat(size - json.length);
};

async function patchStreamed(text: string, token: string): Promise<ApiResponse> {
  const request = new Request(`${BASE}/api/options`, {
    method: "PATCH",
    headers: { "content-type": "application/json", token },
    body: streamed(text),
    duplex: "half",
  } as RequestInit);
  expect(request.headers.get("content-length")).toBeNull();
  return fetchWorker(request);
}

describe("unknown routes", () => {
  it("answers 404 with code 100004 in JSON", async () => {
    const res = await get("/api/no-such-thing");
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(100004);
    expect(res.body.message).toEqual(expect.any(String));
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  });

  it("answers JSON even when the client asks for HTML", async () => {
    const res = await get("/api/no-such-thing", { headers: { accept: "text/html" } });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(100004);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  });

  it("answers 100004 outside /api too", async () => {
    const res = await get("/index.html", { headers: { accept: "text/html" } });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(100004);
  });
});

describe("wrong method on a known path", () => {
  it("answers 405 with code 100005 and an Allow header", async () => {
    const res = await call("DELETE", "/api/options");
    expect(res.status).toBe(405);
    expect(res.body.code).toBe(100005);
    const allowed = (res.headers.get("allow") ?? "").split(",").map((m) => m.trim());
    expect(allowed.sort()).toEqual(["GET", "PATCH"]);
  });

  it("answers 404, not 405, when a parameter constraint refuses the path", async () => {
    const digitsOnly = (app: ReturnType<typeof createApp>) =>
      app.get("/api/things/:id{[0-9]+}", (c) => c.json({ code: 0, data: null }));
    const refused = await requestWithRoute(digitsOnly, "/api/things/abc");
    expect(refused.res.status).toBe(404);
    expect(JSON.parse(refused.text).code).toBe(100004);
    const head = await requestWithRoute(digitsOnly, "/api/things/abc", { method: "HEAD" });
    expect(head.res.status).toBe(404);
    const wrongMethod = await requestWithRoute(digitsOnly, "/api/things/5", { method: "DELETE" });
    expect(wrongMethod.res.status).toBe(405);
    expect(JSON.parse(wrongMethod.text).code).toBe(100005);
    expect(wrongMethod.res.headers.get("allow")).toBe("GET");
  });

  it("answers 405 with a trailing slash as well", async () => {
    const res = await call("PUT", "/api/options/");
    expect(res.status).toBe(405);
    expect(res.body.code).toBe(100005);
    expect(res.headers.get("allow")).toContain("PATCH");
  });
});

describe("request bodies", () => {
  it("refuses malformed JSON with 100006", async () => {
    const admin = await createAdmin();
    const res = await patch("/api/options", {
      token: admin.token,
      rawBody: '{"site_name": ',
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(100006);
  });

  it("checks access and the route before the JSON: anonymous callers get 201001, unknown routes 100004", async () => {
    const bad = { rawBody: '{"site_name": ', headers: { "content-type": "application/json" } };
    const anonymous = await patch("/api/options", bad);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe(201001);
    const unknown = await patch("/api/no-such-route", bad);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe(100004);
  });

  it("treats a JSON request without a body as {}", async () => {
    const admin = await createAdmin();
    const before = await get("/api/options", { token: admin.token });
    const res = await patch("/api/options", { token: admin.token, headers: { "content-type": "application/json" } });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body.data).toEqual(before.body.data);
  });

  it("treats a blank body without a Content-Type as {}", async () => {
    const admin = await createAdmin();
    const res = await patch("/api/options", { token: admin.token, rawBody: " \n " });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
  });

  it("parses JSON sent as application/json with parameters", async () => {
    const admin = await createAdmin();
    const res = await patch("/api/options", {
      token: admin.token,
      rawBody: '{"site_name": "Typed"}',
      headers: { "content-type": "application/json; charset=UTF-8" },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.site_name).toBe("Typed");
  });

  it("refuses a JSON body sent under another Content-Type with 415 and changes nothing", async () => {
    const admin = await createAdmin();
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
      const headers = { "content-type": type };
      const res = await patch("/api/options", { token: admin.token, rawBody: '{"site_name": "Plain"}', headers });
      expect(res.status).toBe(415);
      expect(res.body.code).toBe(200001);
      expect(res.body.errors.body).toEqual(expect.any(String));
    }
    expect((await get("/api/options")).body.data.site_name).toBe("MDClub");
  });

  it("refuses a body declared larger than the limit with 413", async () => {
    const admin = await createAdmin();
    const res = await patch("/api/options", {
      token: admin.token,
      rawBody: "{}",
      headers: { "content-type": "application/json", "content-length": String(JSON_BODY_LIMIT + 1) },
    });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe(200001);
    expect(res.body.errors.body).toEqual(expect.any(String));
  });

  it("refuses a streamed body whose real size passes the limit with 413", async () => {
    const admin = await createAdmin();
    const res = await patchStreamed(jsonOfSize(JSON_BODY_LIMIT + 1), admin.token);
    expect(res.status).toBe(413);
    expect(res.body.code).toBe(200001);
    const after = await get("/api/options");
    expect(after.body.data.site_name).toBe("MDClub");
  });

  it("accepts a streamed body of exactly the limit", async () => {
    const admin = await createAdmin();
    const res = await patchStreamed(jsonOfSize(JSON_BODY_LIMIT), admin.token);
    expect(res.status).toBe(200);
    expect(res.body.data.site_name).toBe("Sized");
  });

  it("ignores unknown query parameters", async () => {
    const res = await get("/api/options", { query: { foo: "bar", page: "x", include: "nothing" } });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
  });
});

describe("trailing slash", () => {
  it("is ignored for GET", async () => {
    const res = await get("/api/options/");
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body.data.site_name).toBe("MDClub");
  });

  it("is ignored for PATCH", async () => {
    const admin = await createAdmin();
    const res = await patch("/api/options/", { token: admin.token, body: { site_name: "Slash" } });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body.data.site_name).toBe("Slash");
  });
});

describe("CORS", () => {
  const expectCors = (res: ApiResponse) => {
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toContain("PATCH");
  };

  it("is on successes and on every kind of error", async () => {
    const admin = await createAdmin();
    const responses = [
      await get("/api/options"),
      await get("/api/nope"),
      await call("DELETE", "/api/options"),
      await patch("/api/options", { body: {} }),
      await patch("/api/options", { token: admin.token, body: { smtp_port: 0 } }),
      await patch("/api/options", {
        token: admin.token,
        rawBody: "{",
        headers: { "content-type": "application/json" },
      }),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 404, 405, 401, 400, 400]);
    for (const res of responses) expectCors(res);
  });

  it("answers a preflight with 200, an empty body and the token headers allowed", async () => {
    const res = await call("OPTIONS", "/api/options", {
      headers: {
        origin: "https://admin.example",
        "access-control-request-method": "PATCH",
        "access-control-request-headers": "token",
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toBeNull();
    expectCors(res);
    const allowed = (res.headers.get("access-control-allow-headers") ?? "")
      .split(",")
      .map((h) => h.trim().toLowerCase());
    expect(allowed).toEqual(expect.arrayContaining(["token", "authorization", "content-type"]));
  });

  it("answers a preflight for any /api path", async () => {
    const res = await call("OPTIONS", "/api/questions/1/answers");
    expect(res.status).toBe(200);
    expect(res.body).toBeNull();
    expectCors(res);
  });
});

describe("Server-Timing", () => {
  it("reports D1 round trips on every response", async () => {
    const admin = await createAdmin();
    const responses = [
      await get("/api/options"),
      await get("/api/nope"),
      await call("DELETE", "/api/options"),
      await patch("/api/options", { body: {} }),
      await patch("/api/options", { token: admin.token, body: { smtp_port: 0 } }),
      await patch("/api/options", {
        token: admin.token,
        rawBody: "{",
        headers: { "content-type": "application/json" },
      }),
      await call("OPTIONS", "/api/options"),
    ];
    for (const res of responses) expect(res.headers.get("server-timing")).toMatch(SERVER_TIMING);
  });

  it("counts the round trips a request made", async () => {
    const admin = await createAdmin();
    const res = await patch("/api/options", { token: admin.token, body: { site_name: "Counted" } });
    expect(res.status).toBe(200);
    // The token check (with the guard that fails the batch if the token is not the caller's), the write and the
    // re-read, in one batch (docs/performance.md#one-round-trip).
    expect(res.roundTrips).toBe(1);
  });

  it('is switched off by SERVER_TIMING="false"', async () => {
    const off = await fetchWorker(new Request(`${BASE}/api/options`), { SERVER_TIMING: "false" });
    expect(off.status).toBe(200);
    expect(off.headers.has("server-timing")).toBe(false);
    const on = await fetchWorker(new Request(`${BASE}/api/options`), { SERVER_TIMING: "true" });
    expect(on.headers.get("server-timing")).toMatch(SERVER_TIMING);
  });
});

describe("uncaught errors", () => {
  it("become 500 with code 100000, a request id and no stack trace", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { res, text } = await requestWithRoute(
      (app) =>
        app.get("/api/boom", () => {
          throw new Error("secret detail from deep inside");
        }),
      "/api/boom",
    );
    expect(res.status).toBe(500);
    const body = JSON.parse(text);
    expect(body.code).toBe(100000);
    const id = /request id ([0-9a-f-]{36})/.exec(body.message)?.[1];
    expect(id).toBeDefined();
    expect(text).not.toContain("secret detail");
    expect(text).not.toMatch(/\bat .+:\d+:\d+/);
    expect(Object.keys(body).sort()).toEqual(["code", "message"]);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("server-timing")).toMatch(SERVER_TIMING);
    expect(res.headers.get("x-request-id")).toBe(id);
    expect(logged).toHaveBeenCalledWith(expect.stringContaining(id ?? "missing"));
    expect(logged.mock.calls[0]?.[0]).toContain("secret detail from deep inside");
    logged.mockRestore();
  });
});

describe("GET /api/openapi.json", () => {
  it("is an OpenAPI 3 document with both settings operations and the settings schema", async () => {
    const admin = await createAdmin();
    const res = await get("/api/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(res.body.info.title).toEqual(expect.any(String));
    const path = res.body.paths["/api/options"];
    expect(Object.keys(path).sort()).toEqual(["get", "patch"]);
    expect(path.patch.requestBody.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Options" });
    expect(path.get.responses["200"].content["application/json"].schema.properties.data).toEqual({
      $ref: "#/components/schemas/Options",
    });

    const schema = res.body.components.schemas.Options;
    expect(schema.type).toBe("object");
    const record = (await get("/api/options", { token: admin.token })).body.data;
    expect(Object.keys(schema.properties).sort()).toEqual(Object.keys(record).sort());
    expect(schema.properties.smtp_port).toMatchObject({ type: "integer", minimum: 1, maximum: 65535 });
    expect(schema.properties.cache_type.enum).toEqual(["pdo", "cacheA", "cacheB"]);
    expect(schema.properties.question_can_edit.type).toBe("boolean");
    expect(schema.properties.cache_prefix.pattern).toEqual(expect.any(String));
  });
});

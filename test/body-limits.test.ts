/**
 * Body limits (docs/conventions.md#request-bodies): every body read as JSON is held to 1 MiB whatever its Content-Type or
 * transfer encoding; only a multipart form on an upload route may reach 20 MiB. A refused body writes nothing.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { JSON_BODY_LIMIT } from "../src/http/middleware/body";
import worker from "../src/index";
import { Photon } from "../src/lib/images/photon";
import { BASE, call } from "./helpers/api";
import { createQuestion } from "./helpers/content";
import { createUser, type TestUser } from "./helpers/factories";

const MB = 1000 * 1000;

/** A JSON comment body of `size` bytes: a valid comment padded by a field the route ignores. */
const paddedComment = (size: number) => {
  const json = '{"content": "padded", "pad": ""}';
  return json.replace('""', `"${"a".repeat(size - json.length)}"`);
};

async function commentCount(): Promise<number> {
  return (await env.DB.prepare("SELECT COUNT(*) AS n FROM comments").first<{ n: number }>())!.n;
}

/** A body that arrives in chunks with no Content-Length, so only its real size can be checked. */
function chunked(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      for (let at = 0; at < bytes.length; at += 64 * 1024) controller.enqueue(bytes.slice(at, at + 64 * 1024));
      controller.close();
    },
  });
}

async function sendChunked(path: string, user: TestUser, text: string, type: string) {
  const request = new Request(new URL(path, BASE), {
    method: "POST",
    headers: { token: user.token, "content-type": type },
    body: chunked(text),
    duplex: "half",
  } as RequestInit);
  expect(request.headers.get("content-length")).toBeNull();
  const ctx = createExecutionContext();
  const res = await worker.fetch(request, env, ctx);
  await waitOnExecutionContext(ctx);
  return { status: res.status, body: (await res.json()) as { code: number; errors?: Record<string, string> } };
}

/** A PNG of noise, which no encoder can shrink: `side`² pixels of 3 bytes and more. */
function noisePng(side: number): Uint8Array {
  const rgba = new Uint8Array(side * side * 4);
  let seed = 1;
  for (let at = 0; at < rgba.length; at++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    rgba[at] = at % 4 === 3 ? 255 : seed >>> 24;
  }
  const photon = new Photon();
  return photon.encode(photon.fromPixels(rgba, side, side), "png");
}

describe("JSON bodies over 1 MiB", () => {
  it("refuses a 2 MB form-encoded JSON body with 413 and writes nothing", async () => {
    const user = await createUser();
    const question = await createQuestion(user.user_id);
    const res = await call("POST", `/api/questions/${question}/comments`, {
      token: user.token,
      rawBody: paddedComment(2 * MB),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe(200001);
    expect(res.body.errors.body).toBe(`at most ${JSON_BODY_LIMIT} bytes`);
    expect(await commentCount()).toBe(0);
  });

  it.each(["application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain", "application/json"])(
    "refuses a 2 MB chunked body sent as %s with 413 and writes nothing",
    async (type) => {
      const user = await createUser();
      const question = await createQuestion(user.user_id);
      const res = await sendChunked(`/api/questions/${question}/comments`, user, paddedComment(2 * MB), type);
      expect(res.status).toBe(413);
      expect(res.body.code).toBe(200001);
      expect(res.body.errors?.body).toBe(`at most ${JSON_BODY_LIMIT} bytes`);
      expect(await commentCount()).toBe(0);
    },
  );

  it("refuses a multipart body over 1 MiB on a route that takes no file", async () => {
    const user = await createUser();
    const question = await createQuestion(user.user_id);
    const form = new FormData();
    form.append("content", "x".repeat(2 * MB));
    const res = await call("POST", `/api/questions/${question}/comments`, { token: user.token, rawBody: form });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe(200001);
    expect(await commentCount()).toBe(0);
  });

  it("still accepts a JSON body just under the limit", async () => {
    const user = await createUser();
    const question = await createQuestion(user.user_id);
    const res = await call("POST", `/api/questions/${question}/comments`, {
      token: user.token,
      rawBody: paddedComment(JSON_BODY_LIMIT),
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(200);
    expect(await commentCount()).toBe(1);
  });
});

describe("uploads", () => {
  it("keep the upload limit for a multipart image over 1 MiB", async () => {
    const user = await createUser();
    const png = noisePng(620);
    expect(png.length).toBeGreaterThan(JSON_BODY_LIMIT);
    const form = new FormData();
    form.append("image", new File([png], "noise.png", { type: "image/png" }));
    const res = await call("POST", "/api/images", { token: user.token, rawBody: form });
    expect(res.status).toBe(200);
    expect(res.body.data.width).toBe(620);
  });
});

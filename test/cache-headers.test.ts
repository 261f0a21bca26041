/**
 * Safe headers (docs/security.md#files-and-caches): stored files and default images can never run as a page of this origin,
 * and nothing a logged-in caller is answered may be kept by a shared cache or written to disk.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { IMMUTABLE } from "../src/lib/storage";
import { fetchFile } from "./fixtures/pictures";
import { BASE, call, get, post } from "./helpers/api";
import { createUser } from "./helpers/factories";

const CSP = "default-src 'none'; sandbox";
const PRIVATE = "private, no-store";

describe("files", () => {
  it("serve an uploaded HTML file with a sandboxing CSP and nosniff, also for HEAD and 304", async () => {
    const path = "image/2026-11/22/ab/ab0123456789abcdef0123456789abcd.png";
    const object = await env.BUCKET.put(path, "<script>alert(document.cookie)</script>", {
      httpMetadata: { contentType: "text/html", cacheControl: IMMUTABLE },
    });
    for (const init of [{}, { method: "HEAD" }, { headers: { "if-none-match": object!.httpEtag } }]) {
      const { res } = await fetchFile(`${BASE}/upload/${path}`, init);
      expect([200, 304]).toContain(res.status);
      expect(res.headers.get("content-security-policy")).toBe(CSP);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  it("send the same headers with a missing file's error and a default image", async () => {
    const missing = ["/upload/image/none.png", "/upload/private/x", "/static/default/x.png"];
    for (const path of [...missing, "/static/default/avatar.png"]) {
      const { res } = await fetchFile(`${BASE}${path}`);
      expect(res.headers.get("content-security-policy"), path).toBe(CSP);
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
    }
  });

  it("leave API answers without a file CSP", async () => {
    const res = await get("/api/options");
    expect(res.headers.get("content-security-policy")).toBeNull();
  });
});

describe("answers to logged-in callers", () => {
  it("are private and not stored, for the token header, a Bearer token and the cookie", async () => {
    const user = await createUser();
    const cookie = { headers: { cookie: `token=${user.token}` } };
    for (const options of [{ token: user.token }, { bearer: user.token }, cookie]) {
      const res = await get("/api/user", options);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe(PRIVATE);
    }
  });

  it("are private for errors and writes too", async () => {
    const user = await createUser();
    const missing = await get("/api/questions/999999", { token: user.token });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("cache-control")).toBe(PRIVATE);
    const invalid = await post("/api/questions", { token: user.token, body: {} });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get("cache-control")).toBe(PRIVATE);
    const unknown = await call("GET", "/api/no-such-route", { token: user.token });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("cache-control")).toBe(PRIVATE);
  });

  it("are left alone for anonymous callers and for a token that is not valid", async () => {
    expect((await get("/api/options")).headers.get("cache-control")).toBeNull();
    expect((await get("/api/options", { token: "not-a-token" })).headers.get("cache-control")).toBeNull();
  });
});

/**
 * The API reference page (docs/api-reference.md#the-reference-page): GET /api/docs is Scalar's page for /api/openapi.json, whose only
 * script comes from this origin's Static Assets, so it renders with no internet. The page in a real browser is
 * test/browser/api-reference.mjs's (`npm run test:browser`).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { get } from "./helpers/api";

describe("GET /api/docs", () => {
  it("answers Scalar's HTML page for the app's own document", async () => {
    const res = await get("/api/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.body).toMatch(/<title>MDClub-compatible community API \d+\.\d+\.\d+<\/title>/);
    expect(res.body).toContain("/api/openapi.json");
  });

  it("loads its one script from this origin, nothing from a CDN", async () => {
    const res = await get("/api/docs");
    const sources = [...(res.body as string).matchAll(/<script[^>]*\ssrc="([^"]*)"/g)].map((match) => match[1]);
    expect(sources).toEqual(["/scalar/standalone.js"]);
    expect(res.body).not.toMatch(/https?:\/\/(?!mdclub\.test)[^"'\s]*\.(js|css)\b/);
  });
});

describe("the page's script in Static Assets", () => {
  it("is served from the assets directory (scripts/copy-assets.mjs fills it)", async () => {
    const res = await env.ASSETS.fetch("http://mdclub.test/scalar/standalone.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/javascript/);
    // Scalar's standalone build: several megabytes that bring everything the page needs.
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(1_000_000);
  });
});

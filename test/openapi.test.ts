import { describe, expect, it } from "vitest";
import { createApp } from "../src/app";
import { get } from "./helpers/api";

describe("GET /api/openapi.json", () => {
  it("documents every route the app serves, with its method", async () => {
    const res = await get("/api/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    const documented = new Set<string>();
    for (const [path, item] of Object.entries(res.body.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(item)) documented.add(`${method.toUpperCase()} ${path}`);
    }
    const served = createApp()
      // Stored files (/upload/..., /static/...) are served outside the API and its document.
      .routes.filter((r) => r.method !== "ALL" && r.path.startsWith("/api/") && r.path !== "/api/openapi.json")
      .map((r) => `${r.method} ${r.path.replace(/:([^/]+)/g, "{$1}")}`);
    expect(served.length).toBeGreaterThan(0);
    expect(served.filter((route) => !documented.has(route))).toEqual([]);
  });
});

/**
 * The release, named the same everywhere. package.json's `version` is the one source (src/core/version.ts): the
 * OpenAPI document, `system_info`, the reference page and the typed client's header say it, and CHANGELOG.md's
 * newest release is it. package.json's `license` is the one LICENSE holds and the document names.
 */
import { describe, expect, it } from "vitest";
import changelog from "../CHANGELOG.md?raw";
import clientTypes from "../clients/typescript/schema.d.ts?raw";
import licenceText from "../LICENSE?raw";
import { license, version } from "../package.json";
import { get } from "./helpers/api";
import { createAdmin } from "./helpers/factories";

describe("the release's version", () => {
  it("is a semantic version", () => {
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("is the OpenAPI document's info.version", async () => {
    const res = await get("/api/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.info.version).toBe(version);
  });

  it("is what system_info answers, in MDClub's field and in this API's own", async () => {
    const { token } = await createAdmin();
    const res = await get("/api/stats", { token, query: { include: "system_info" } });
    expect(res.status).toBe(200);
    expect(res.body.data.system_info).toMatchObject({ mdclub_version: `mdclub-edge ${version}`, version });
  });

  it("is in the reference page's title", async () => {
    const res = await get("/api/docs");
    expect(res.status).toBe(200);
    expect(res.body).toContain(`<title>MDClub-compatible community API ${version}</title>`);
  });

  it("is in the typed client's header", () => {
    expect(clientTypes.split("\n")[0]).toContain(`(version ${version})`);
  });

  it("is CHANGELOG.md's newest release, below its Unreleased section", () => {
    const releases = [...changelog.matchAll(/^## \[([^\]]+)\]/gm)].map((match) => match[1]);
    expect(releases.slice(0, 2)).toEqual(["Unreleased", version]);
  });
});

describe("the licence", () => {
  it("is MIT in LICENSE, in package.json and in the OpenAPI document's info.license", async () => {
    expect(licenceText).toMatch(/^MIT License\n\nCopyright \(c\) 2026 The MDClub Edge contributors\n/);
    expect(license).toBe("MIT");
    const res = await get("/api/openapi.json");
    expect(res.body.info.license).toEqual({ name: "MIT", url: "https://opensource.org/license/mit" });
  });
});

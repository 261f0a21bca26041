import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../src/index";

async function fetchWith(vars: Partial<typeof env>, path: string, init: RequestInit = {}) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(`http://mdclub.test${path}`, init), { ...env, ...vars }, ctx);
  await waitOnExecutionContext(ctx);
  const body = (await res.json()) as { code: number; errors?: Record<string, string> };
  return { status: res.status, body, headers: res.headers };
}

describe("LEGACY_ERROR_STATUS", () => {
  it("answers errors with fitting statuses by default", async () => {
    expect(await fetchWith({}, "/api/user")).toMatchObject({ status: 401, body: { code: 201001 } });
    expect(await fetchWith({}, "/api/nowhere")).toMatchObject({ status: 404, body: { code: 100004 } });
  });

  it("answers errors with HTTP 200 and the same body when set, as the original did", async () => {
    const legacy = { LEGACY_ERROR_STATUS: "true" };
    expect(await fetchWith(legacy, "/api/user")).toMatchObject({ status: 200, body: { code: 201001 } });
    expect(await fetchWith(legacy, "/api/nowhere")).toMatchObject({ status: 200, body: { code: 100004 } });
    const login = await fetchWith(legacy, "/api/tokens", {
      method: "POST",
      body: "{}",
      headers: { "content-type": "application/json" },
    });
    expect(login).toMatchObject({ status: 200, body: { code: 200001, errors: { name: expect.any(String) } } });
  });

  it("keeps an error's headers: a write past its limit still says when to retry", async () => {
    const captcha = { method: "POST", headers: { "cf-connecting-ip": "192.0.2.44" } };
    const answers = [];
    // Twice the default of 30 and one: at least one is refused even if the burst spans two windows.
    const legacy = { LEGACY_ERROR_STATUS: "true" };
    for (let i = 0; i < 61; i++) answers.push(await fetchWith(legacy, "/api/captchas", captcha));
    const refused = answers.filter((res) => res.body.code === 100002);
    expect(refused.length).toBeGreaterThan(0);
    for (const res of refused) {
      expect(res.status).toBe(200);
      expect(res.headers.get("retry-after")).toBe("60");
    }
  });
});

describe("X-Http-Method-Override", () => {
  it("turns a POST into the PATCH it names, and leaves other combinations alone", async () => {
    const overridden = await fetchWith({}, "/api/options", {
      method: "POST",
      headers: { "x-http-method-override": "PATCH" },
    });
    expect(overridden).toMatchObject({ status: 401, body: { code: 201001 } });
    const notAllowed = await fetchWith({}, "/api/options", {
      method: "GET",
      headers: { "x-http-method-override": "PATCH" },
    });
    expect(notAllowed).toMatchObject({ status: 200, body: { code: 0 } });
  });
});

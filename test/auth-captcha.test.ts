import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { checkCaptcha, renderCaptcha } from "../src/lib/captcha";
import { clientInfo } from "../src/lib/client-info";
import { get, post } from "./helpers/api";
import { createAdmin } from "./helpers/factories";

const svgOf = (image: string) => atob(image.replace(/^data:image\/svg\+xml;base64,/, ""));

describe("POST /api/captchas", () => {
  it("returns a token and an SVG image, and keeps the 5 characters in KV for 10 minutes", async () => {
    const res = await post("/api/captchas");
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    const { captcha_token, captcha_image } = res.body.data;
    expect(captcha_token).toMatch(/^[0-9a-f]{64}$/);
    expect(captcha_image).toMatch(/^data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+$/);
    const svg = svgOf(captcha_image);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toMatch(/<path d="M/);

    const code = await env.KV.get(`captcha:${captcha_token}`);
    expect(code).toMatch(/^[ACDEFHJKMNPQRTUVWXY34679]{5}$/);
    // The image does not spell the answer out.
    expect(svg).not.toMatch(/<text/);
    expect(svg).not.toContain(code as string);

    const { keys } = await env.KV.list({ prefix: `captcha:${captcha_token}` });
    const ttl = (keys[0]?.expiration ?? 0) - Date.now() / 1000;
    expect(ttl).toBeGreaterThan(590);
    expect(ttl).toBeLessThanOrEqual(600);
  });

  it("gives a new captcha each time, with no D1 round trip", async () => {
    const admin = await createAdmin();
    const a = await post("/api/captchas", { token: admin.token });
    const b = await post("/api/captchas", { token: admin.token });
    expect(a.body.data.captcha_token).not.toBe(b.body.data.captcha_token);
    expect(b.roundTrips).toBeLessThanOrEqual(1);
  });

  it("is listed in the OpenAPI document with the other account routes", async () => {
    const res = await get("/api/openapi.json");
    expect(res.status).toBe(200);
    const paths = res.body.paths;
    expect(paths["/api/captchas"]).toHaveProperty("post");
    expect(paths["/api/tokens"]).toHaveProperty("post");
    expect(paths["/api/tokens/current"]).toHaveProperty("delete");
    expect(paths["/api/users"]).toHaveProperty("post");
    expect(paths["/api/user/register/email"]).toHaveProperty("post");
    expect(paths["/api/user/password/email"]).toHaveProperty("post");
    expect(paths["/api/user/password"]).toHaveProperty("put");
  });
});

describe("checkCaptcha", () => {
  it("accepts the answer in any case, once", async () => {
    const { body } = await post("/api/captchas");
    const token = body.data.captcha_token;
    const code = (await env.KV.get(`captcha:${token}`)) as string;
    expect(await checkCaptcha(env.KV, token, ` ${code.toLowerCase()} `)).toBe(true);
    expect(await checkCaptcha(env.KV, token, code)).toBe(false);
  });

  it("uses the captcha up on a wrong answer", async () => {
    const { body } = await post("/api/captchas");
    const token = body.data.captcha_token;
    const code = (await env.KV.get(`captcha:${token}`)) as string;
    expect(await checkCaptcha(env.KV, token, "wrong")).toBe(false);
    expect(await checkCaptcha(env.KV, token, code)).toBe(false);
  });

  it("refuses missing, unknown and malformed tokens", async () => {
    expect(await checkCaptcha(env.KV, undefined, "ABCDE")).toBe(false);
    expect(await checkCaptcha(env.KV, "a".repeat(64), "ABCDE")).toBe(false);
    expect(await checkCaptcha(env.KV, "../etc/passwd", "ABCDE")).toBe(false);
    expect(await checkCaptcha(env.KV, "b".repeat(64), "")).toBe(false);
  });
});

describe("renderCaptcha", () => {
  it("draws each character from strokes, differently every time", () => {
    const a = renderCaptcha("ACDEF");
    const b = renderCaptcha("ACDEF");
    expect(a).not.toBe(b);
    // A: 2 strokes, C: 1, D: 1, E: 2, F: 2, plus 5 noise curves.
    expect(a.match(/<path /g)).toHaveLength(13);
    expect(a).not.toMatch(/<text|ACDEF/);
  });
});

describe("clientInfo", () => {
  it("takes the IP from CF-Connecting-IP, else the first X-Forwarded-For entry, else ''", () => {
    const both = new Request("http://x/", { headers: { "cf-connecting-ip": "203.0.113.1", "x-forwarded-for": "198.51.100.1" } });
    expect(clientInfo(both).ip).toBe("203.0.113.1");
    const forwarded = new Request("http://x/", { headers: { "x-forwarded-for": " 198.51.100.2 , 10.0.0.1" } });
    expect(clientInfo(forwarded).ip).toBe("198.51.100.2");
    expect(clientInfo(new Request("http://x/"))).toEqual({ ip: "", location: "" });
  });

  it("joins the known parts of the Cloudflare geo data into the location", () => {
    const full = new Request("http://x/", { cf: { country: "NL", region: "North Holland", city: "Amsterdam" } });
    expect(clientInfo(full).location).toBe("NL North Holland Amsterdam");
    const partial = new Request("http://x/", { cf: { country: "DE", city: "" } });
    expect(clientInfo(partial).location).toBe("DE");
  });

  it("caps an over-long header", () => {
    const long = new Request("http://x/", { headers: { "cf-connecting-ip": "1".repeat(500) } });
    expect(clientInfo(long).ip).toHaveLength(80);
  });
});

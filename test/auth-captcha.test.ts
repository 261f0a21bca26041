import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { renderCaptcha } from "../src/lib/captcha";
import { clientInfo, throttleKey } from "../src/lib/client-info";
import { get, post } from "./helpers/api";
import { createAdmin } from "./helpers/factories";

const svgOf = (image: string) => atob(image.replace(/^data:image\/svg\+xml;base64,/, ""));

const answerOf = (token: string) =>
  env.DB.prepare("SELECT code, expire_time FROM captchas WHERE token = ?")
    .bind(token)
    .first<{ code: string; expire_time: number }>();

describe("POST /api/captchas", () => {
  it("returns a token and an SVG image, and keeps the 5 characters in D1 for 10 minutes", async () => {
    const res = await post("/api/captchas");
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    const { captcha_token, captcha_image } = res.body.data;
    expect(captcha_token).toMatch(/^[0-9a-f]{64}$/);
    expect(captcha_image).toMatch(/^data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+$/);
    const svg = svgOf(captcha_image);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toMatch(/<path d="M/);

    const row = await answerOf(captcha_token);
    expect(row?.code).toMatch(/^[ACDEFHJKMNPQRTUVWXY34679]{5}$/);
    // The image does not spell the answer out.
    expect(svg).not.toMatch(/<text/);
    expect(svg).not.toContain(row?.code as string);
    const ttl = (row?.expire_time ?? 0) - Date.now() / 1000;
    expect(ttl).toBeGreaterThan(590);
    expect(ttl).toBeLessThanOrEqual(600);
  });

  it("gives a new captcha each time, with one D1 round trip", async () => {
    const admin = await createAdmin();
    const a = await post("/api/captchas", { token: admin.token });
    const b = await post("/api/captchas", { token: admin.token });
    expect(a.body.data.captcha_token).not.toBe(b.body.data.captcha_token);
    expect(b.roundTrips).toBeLessThanOrEqual(2);
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

  it("are purged by the hourly clean-up once expired", async () => {
    const { body } = await post("/api/captchas");
    await env.DB.prepare("UPDATE captchas SET expire_time = 1").run();
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "17 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await answerOf(body.data.captcha_token)).toBeNull();
  });
});

describe("renderCaptcha", () => {
  it("draws differently every time", () => {
    expect(renderCaptcha("ACDEF")).not.toBe(renderCaptcha("ACDEF"));
  });

  // Attack: reading the answer from the SVG's structure. Before, each glyph was its own <path> of M…L strokes in
  // reading order with its own colour, and the noise alone used Q curves: filtering out Q paths left the glyphs.
  it("is one path of straight strokes whose shape does not depend on the answer", () => {
    const shape = (svg: string) => {
      const paths = [...svg.matchAll(/<path d="([^"]*)"/g)].map((m) => m[1] as string);
      const d = paths.join("");
      return {
        paths: paths.length,
        strokes: d.split("M").length - 1,
        points: (d.match(/[ML]/g) ?? []).length,
        other: d.replace(/[ML0-9. -]/g, ""),
      };
    };
    const expected = { paths: 1, strokes: 24, points: 100, other: "" };
    // The fewest and the most strokes and points the glyphs allow.
    for (const code of ["VVVVV", "7777V", "HHHHH", "KKKKK", "QQQQQ", "99999", "ACDEF"]) {
      const svg = renderCaptcha(code);
      expect(shape(svg)).toEqual(expected);
      expect(svg).not.toMatch(/<(text|circle|g)\b/);
      expect(svg.match(/stroke="/g)).toHaveLength(1);
    }
  });

  it("keeps every point inside the image", () => {
    const svg = renderCaptcha("QK9W6");
    const numbers = [...svg.matchAll(/[ML](-?[\d.]+) (-?[\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
    for (const [x, y] of numbers) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThanOrEqual(130);
      expect(y).toBeGreaterThanOrEqual(0);
      expect(y).toBeLessThanOrEqual(44);
    }
  });
});

describe("clientInfo", () => {
  it("takes the IP from CF-Connecting-IP, else the first X-Forwarded-For entry, else ''", () => {
    const both = new Request("http://x/", {
      headers: { "cf-connecting-ip": "203.0.113.1", "x-forwarded-for": "198.51.100.1" },
    });
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

describe("throttleKey", () => {
  it("keeps IPv4 addresses as they are, also written IPv4-mapped", () => {
    expect(throttleKey("203.0.113.7")).toBe("203.0.113.7");
    expect(throttleKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
  });

  it("buckets IPv6 addresses by their /64, however they are written", () => {
    const key = "2001:db8:1:2::/64";
    for (const ip of [
      "2001:db8:1:2::1",
      "2001:DB8:1:2:ffff:ffff:ffff:ffff",
      "2001:0db8:0001:0002:0:0:0:9",
      " 2001:db8:1:2:a:b:c:d ",
    ]) {
      expect(throttleKey(ip)).toBe(key);
    }
    expect(throttleKey("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(throttleKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(throttleKey("::1")).toBe("0:0:0:0::/64");
    expect(throttleKey("64:ff9b::192.0.2.1")).toBe("64:ff9b:0:0::/64");
  });

  it("keys anything unparsable as itself", () => {
    for (const ip of ["", "unknown", "1:2:3", "1::2::3", "1:2:3:4:5:6:7:8:9", "gggg::1"])
      expect(throttleKey(ip)).toBe(ip);
  });
});

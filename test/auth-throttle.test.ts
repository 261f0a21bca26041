/**
 * Password guessing is expensive (docs/security.md#guessing): failures are counted before the password is checked,
 * IPv6 clients are counted by /64, accounts back off, captchas are single-use, and hashes carry a pepper.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import worker from "../src/index";
import { sha1Hex, toHex } from "../src/lib/crypto";
import { hashPassword } from "../src/lib/password";
import { type ApiResponse, post } from "./helpers/api";
import { createUser, DEFAULT_PASSWORD } from "./helpers/factories";

const login = (body: Record<string, unknown>, ip = "203.0.113.7") =>
  post("/api/tokens", { body, headers: { "cf-connecting-ip": ip } });
const solve = (token: string) =>
  env.DB.prepare("SELECT code FROM captchas WHERE token = ?").bind(token).first<string>("code");
const age = (seconds: number) =>
  env.DB.prepare("UPDATE throttles SET create_time = create_time - ?").bind(seconds).run();
const failures = (subject: string) =>
  env.DB.prepare("SELECT count(*) AS n FROM throttles WHERE action = 'login_account' AND subject = ?")
    .bind(subject)
    .first<number>("n");
const storedHash = (userId: number) =>
  env.DB.prepare("SELECT password FROM users WHERE user_id = ?").bind(userId).first<string>("password");

const wrongPassword = (r: ApiResponse) => r.status === 400 && r.body.code === 200001 && "password" in r.body.errors;

async function pbkdf2(secret: Uint8Array, saltHex: string): Promise<string> {
  const salt = new Uint8Array(saltHex.match(/../g)!.map((h) => Number.parseInt(h, 16)));
  const key = await crypto.subtle.importKey("raw", secret, "PBKDF2", false, ["deriveBits"]);
  return toHex(
    await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations: 100_000 }, key, 256),
  );
}

describe("failed logins are counted before the password is checked", () => {
  // Attack: 30 concurrent guesses. Before, the count was read, PBKDF2 ran, then the failure was written:
  // nearly all 30 had their password checked.
  it("checks at most 5 of 30 concurrent wrong passwords for one account, from 30 IPs", async () => {
    const user = await createUser();
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        login({ name: user.username, password: `wrong guess ${i}` }, `198.51.100.${i + 1}`),
      ),
    );
    const checked = results.filter(wrongPassword);
    expect(checked.length).toBeLessThanOrEqual(5);
    expect(checked.length).toBeGreaterThanOrEqual(1);
    for (const refused of results.filter((r) => !wrongPassword(r))) expect(refused.status).toBe(429);
    // Refusals checked nothing and are not counted; every checked guess is.
    expect(await failures(`user:${user.user_id}`)).toBe(checked.length);
  });

  it("costs 1 round trip for a plain failure and 2 for a success", async () => {
    const user = await createUser();
    await login({ name: user.username, password: "wrong guess" }); // loads the site settings into KV
    expect((await login({ name: user.username, password: "wrong guess" })).roundTrips).toBe(1);
    const ok = await login({ name: user.username, password: DEFAULT_PASSWORD });
    expect(ok.status).toBe(200);
    expect(ok.roundTrips).toBe(2);
    // A success takes its provisional failure back.
    expect(await env.DB.prepare("SELECT count(*) AS n FROM throttles WHERE action = 'login_ip'").first("n")).toBe(2);
  });
});

describe("per-account backoff", () => {
  // Attack: a slow distributed guesser solving captchas. Before, a solved captcha was all it took, at any rate.
  it("makes the 7th attempt wait 2 s after the 6th failure: 429, 100002, Retry-After, password unchecked", async () => {
    const user = await createUser();
    for (let i = 0; i < 5; i++) await login({ name: user.username, password: "wrong guess" }, `198.51.100.${i + 1}`);
    await age(2);
    const { body } = await post("/api/captchas");
    const sixth = await login(
      {
        name: user.username,
        password: "wrong guess",
        captcha_token: body.data.captcha_token,
        captcha_code: await solve(body.data.captcha_token),
      },
      "192.0.2.1",
    );
    expect(wrongPassword(sixth)).toBe(true);
    expect(await failures(`user:${user.user_id}`)).toBe(6);

    const seventh = await login({ name: user.username, password: DEFAULT_PASSWORD }, "192.0.2.2");
    expect(seventh.status).toBe(429);
    expect(seventh.body.code).toBe(100002);
    // 2 s after the 6th failure: 1 if a second boundary passed between the two requests.
    expect(["1", "2"]).toContain(seventh.headers.get("retry-after"));
    expect(seventh.body).not.toHaveProperty("errors");
    expect(await failures(`user:${user.user_id}`)).toBe(6);

    await age(2);
    const demand = await login({ name: user.username, password: DEFAULT_PASSWORD }, "192.0.2.3");
    expect(demand.status).toBe(429);
    expect(demand.body.code).toBe(200001);
    const token = demand.body.captcha_token;
    const solved = await login(
      { name: user.username, password: DEFAULT_PASSWORD, captcha_token: token, captcha_code: await solve(token) },
      "192.0.2.4",
    );
    expect(solved.status).toBe(200);
  });

  it("grows the wait to 64 s after 11 failures", async () => {
    const user = await createUser();
    const time = Math.floor(Date.now() / 1000);
    await env.DB.batch(
      Array.from({ length: 11 }, () =>
        env.DB.prepare("INSERT INTO throttles (action, subject, create_time) VALUES ('login_account', ?, ?)").bind(
          `user:${user.user_id}`,
          time,
        ),
      ),
    );
    const res = await login({ name: user.email, password: DEFAULT_PASSWORD }, "192.0.2.5");
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(63);
    expect(Number(res.headers.get("retry-after"))).toBeLessThanOrEqual(64);
  });
});

describe("IPv6 clients", () => {
  // Attack: rotating addresses inside one's own /64. Before, each address was counted on its own.
  it("are counted by /64", async () => {
    for (let i = 1; i <= 5; i++) await login({ name: `nobody${i}`, password: "wrong guess" }, `2001:db8:1:2::${i}`);
    const user = await createUser();
    const sameNet = await login(
      { name: user.username, password: DEFAULT_PASSWORD },
      "2001:DB8:1:2:ffff:ffff:ffff:ffff",
    );
    expect(sameNet.status).toBe(429);
    expect(sameNet.body.errors).toHaveProperty("captcha_code");
    const otherNet = await login({ name: user.username, password: DEFAULT_PASSWORD }, "2001:db8:1:3::1");
    expect(otherNet.status).toBe(200);
  });
});

describe("captchas", () => {
  // Attack: one solved captcha used by concurrent requests. Before: KV get, then delete; both passed.
  it("let only one of two concurrent logins with the same solved captcha past", async () => {
    for (let i = 1; i <= 5; i++) await login({ name: `stranger${i}`, password: "wrong guess" }, "203.0.113.99");
    const user = await createUser();
    const { body } = await post("/api/captchas");
    const answer = await solve(body.data.captcha_token);
    const attempt = {
      name: user.username,
      password: DEFAULT_PASSWORD,
      captcha_token: body.data.captcha_token,
      captcha_code: answer,
    };
    const results = await Promise.all([login(attempt, "203.0.113.99"), login(attempt, "203.0.113.99")]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 429]);
    expect(await solve(body.data.captcha_token)).toBeNull();
  });
});

describe("captchas handed out by refused logins", () => {
  // Attack: filling D1 with captchas. Before, every refused login from a throttled IP wrote a fresh captcha.
  it("stop at 30 per IP in 15 minutes: then 429, 100002, no captcha and no new row", async () => {
    const ip = "203.0.113.150";
    for (let i = 1; i <= 5; i++) await login({ name: `flooder${i}`, password: "wrong guess" }, ip);
    const captchas = () => env.DB.prepare("SELECT count(*) AS n FROM captchas").first<number>("n");
    const before = (await captchas()) ?? 0;
    const refusals = [];
    for (let i = 0; i < 31; i++) refusals.push(await login({ name: "flooder", password: "wrong guess" }, ip));
    expect(refusals.slice(0, 30).every((r) => r.status === 429 && r.body.code === 200001 && r.body.captcha_token)).toBe(
      true,
    );
    const last = refusals[30]!;
    expect(last.status).toBe(429);
    expect(last.body.code).toBe(100002);
    expect(last.body).not.toHaveProperty("captcha_token");
    expect(await captchas()).toBe(before + 30);
    // Another network is not affected.
    expect((await login({ name: "flooder", password: "wrong guess" }, "203.0.113.151")).status).toBe(400);
  });
});

describe("password hashes", () => {
  // Attack: an offline guess from a leaked database. Before, PBKDF2(SHA-1(password), salt) was all it took.
  it("cannot be recomputed from the database alone: the pepper is mixed in", async () => {
    const user = await createUser();
    const [scheme, iterations, salt, hash] = (await storedHash(user.user_id))!.split("$");
    expect([scheme, iterations]).toEqual(["pbkdf2_sha256_hmac", "100000"]);
    const digest = new TextEncoder().encode(await sha1Hex(DEFAULT_PASSWORD));
    expect(await pbkdf2(digest, salt!)).not.toBe(hash);
    const hmacKey = await crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(env.PASSWORD_PEPPER),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    const peppered = new Uint8Array(await crypto.subtle.sign("HMAC", hmacKey, digest));
    expect(await pbkdf2(peppered, salt!)).toBe(hash);
  });

  it("from before the pepper still log in, and are upgraded within the login's two round trips", async () => {
    const user = await createUser();
    const salt = "00112233445566778899aabbccddeeff";
    const legacy = `pbkdf2_sha256$100000$${salt}$${await pbkdf2(new TextEncoder().encode(await sha1Hex(DEFAULT_PASSWORD)), salt)}`;
    await env.DB.prepare("UPDATE users SET password = ? WHERE user_id = ?").bind(legacy, user.user_id).run();
    expect((await login({ name: user.username, password: "wrong guess" })).status).toBe(400);
    expect(await storedHash(user.user_id)).toBe(legacy);

    const res = await login({ name: user.username, password: DEFAULT_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.roundTrips).toBe(2);
    expect(await storedHash(user.user_id)).toMatch(/^pbkdf2_sha256_hmac\$100000\$/);
    expect((await login({ name: user.username, password: await sha1Hex(DEFAULT_PASSWORD) })).status).toBe(200);
  });

  it("are refused without a pepper: a logged 500, never an unpeppered hash", async () => {
    await expect(hashPassword("a long unusual phrase", undefined)).rejects.toThrow(/PASSWORD_PEPPER is not set/);
    const user = await createUser();
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const ctx = createExecutionContext();
    const request = new Request("http://mdclub.test/api/tokens", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: user.username, password: DEFAULT_PASSWORD }),
    });
    const res = await worker.fetch(request, { ...env, PASSWORD_PEPPER: undefined }, ctx);
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(500);
    expect(((await res.json()) as { code: number }).code).toBe(100000);
    expect(String(logged.mock.calls.flat().join(" "))).toMatch(/PASSWORD_PEPPER is not set/);
    logged.mockRestore();
  });
});

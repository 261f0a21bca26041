import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sha1Hex, sha256Hex } from "../src/lib/crypto";
import { TOKEN_LIFETIME } from "../src/lib/token-claims";
import { del, patch, post } from "./helpers/api";
import { createAdmin, createToken, createUser, DEFAULT_PASSWORD } from "./helpers/factories";

const login = (body: Record<string, unknown>, ip = "203.0.113.7", headers: Record<string, string> = {}) =>
  post("/api/tokens", { body, headers: { "cf-connecting-ip": ip, ...headers } });

/** The answer to a captcha, read where the Worker keeps it. */
const solve = async (token: string) =>
  (await env.DB.prepare("SELECT code FROM captchas WHERE token = ?").bind(token).first<string>("code")) as string;

/** Moves every recorded failure `seconds` into the past, as if the client had waited. */
const age = (seconds: number) =>
  env.DB.prepare("UPDATE throttles SET create_time = create_time - ?").bind(seconds).run();

/** Fails `times` logins for `name`, each from `ip(i)`. */
async function fail(name: string, times: number, ip: (i: number) => string = () => "203.0.113.7") {
  for (let i = 0; i < times; i++) await login({ name, password: "wrong" }, ip(i));
}

/** Is the caller logged in? Logging out needs a login; a second token keeps the session tested unchanged. */
const isLoggedIn = async (options: { token?: string; bearer?: string }) =>
  (await patch("/api/options", { ...options, body: {} })).status !== 401;

describe("POST /api/tokens", () => {
  it("logs a user in by username with the plain password and returns the Token record", async () => {
    const user = await createUser();
    const res = await login({ name: user.username, password: DEFAULT_PASSWORD, device: "test-phone" });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    const token = res.body.data;
    expect(token).toEqual({
      // Its holder's id and role, its issue time, the secret, and their MAC (docs/auth.md#what-a-claim-may-do).
      token: expect.stringMatching(new RegExp(`^${user.user_id}\\.u\\.\\d+\\.[0-9a-f]{64}\\.[0-9a-f]{32}$`)),
      user_id: user.user_id,
      device: "test-phone",
      create_time: expect.any(Number),
      update_time: token.create_time,
      expire_time: token.create_time + TOKEN_LIFETIME,
    });
    expect(Math.abs(token.create_time - Date.now() / 1000)).toBeLessThan(5);
  });

  it("stores only the SHA-256 of the token", async () => {
    const user = await createUser();
    const res = await login({ name: user.username, password: DEFAULT_PASSWORD });
    const rows = await env.DB.prepare("SELECT token FROM tokens WHERE user_id = ? AND token = ?")
      .bind(user.user_id, await sha256Hex(res.body.data.token))
      .all();
    expect(rows.results).toHaveLength(1);
    const raw = await env.DB.prepare("SELECT count(*) AS n FROM tokens WHERE token = ?")
      .bind(res.body.data.token)
      .first<{ n: number }>();
    expect(raw?.n).toBe(0);
  });

  it("accepts the SHA-1 digest the official SDK sends", async () => {
    const user = await createUser();
    const res = await login({ name: user.username, password: await sha1Hex(DEFAULT_PASSWORD) });
    expect(res.status).toBe(200);
    expect(res.body.data.user_id).toBe(user.user_id);
  });

  it("matches the username and the e-mail address case-insensitively", async () => {
    const user = await createUser({ username: "CaseUser1", email: "Case.User@Example.test" });
    const byName = await login({ name: "caseUSER1", password: DEFAULT_PASSWORD });
    expect(byName.status).toBe(200);
    expect(byName.body.data.user_id).toBe(user.user_id);
    const byEmail = await login({ name: "case.user@EXAMPLE.TEST", password: DEFAULT_PASSWORD });
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.data.user_id).toBe(user.user_id);
  });

  it("defaults the device to the User-Agent header and refuses one over 600 characters", async () => {
    const user = await createUser();
    const res = await login({ name: user.username, password: DEFAULT_PASSWORD }, "203.0.113.7", {
      "user-agent": "TestAgent/1.0",
    });
    expect(res.status).toBe(200);
    expect(res.body.data.device).toBe("TestAgent/1.0");
    const long = await login({ name: user.username, password: DEFAULT_PASSWORD, device: "x".repeat(601) });
    expect(long.status).toBe(400);
    expect(long.body.code).toBe(200001);
    expect(long.body.errors).toHaveProperty("device");
  });

  it("records the login time, IP and place", async () => {
    const user = await createUser({ create_time: 1000 });
    await env.DB.prepare("UPDATE users SET last_login_time = 1000 WHERE user_id = ?").bind(user.user_id).run();
    const res = await login({ name: user.username, password: DEFAULT_PASSWORD }, "198.51.100.23");
    expect(res.status).toBe(200);
    const row = await env.DB.prepare("SELECT last_login_time, last_login_ip, update_time FROM users WHERE user_id = ?")
      .bind(user.user_id)
      .first<{ last_login_time: number; last_login_ip: string; update_time: number }>();
    expect(row?.last_login_time).toBe(res.body.data.create_time);
    expect(row?.last_login_ip).toBe("198.51.100.23");
    // A login is not an edit of the profile.
    expect(row?.update_time).toBe(1000);
  });

  it("costs at most 3 D1 round trips", async () => {
    const user = await createUser();
    const res = await login({ name: user.username, password: DEFAULT_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    const failed = await login({ name: user.username, password: "wrong" });
    expect(failed.status).toBe(400);
    expect(failed.roundTrips).toBeLessThanOrEqual(2);
  });

  it("refuses a wrong password with 200001 errors.password", async () => {
    const user = await createUser();
    const res = await login({ name: user.username, password: "not the password" });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(200001);
    expect(Object.keys(res.body.errors)).toEqual(["password"]);
    expect(res.body).not.toHaveProperty("captcha_token");
  });

  it("answers an unknown name exactly like a wrong password", async () => {
    const res = await login({ name: "nobodyhere", password: DEFAULT_PASSWORD });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(200001);
    expect(Object.keys(res.body.errors)).toEqual(["password"]);
    const byEmail = await login({ name: "nobody@example.test", password: DEFAULT_PASSWORD });
    expect(byEmail.body.errors).toHaveProperty("password");
  });

  it("refuses a disabled user with 200001 errors.name, and tells it only with the right password", async () => {
    const user = await createUser({ disabled: true });
    const res = await login({ name: user.username, password: DEFAULT_PASSWORD });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(200001);
    expect(Object.keys(res.body.errors)).toEqual(["name"]);
    const wrong = await login({ name: user.username, password: "wrong" });
    expect(Object.keys(wrong.body.errors)).toEqual(["password"]);
  });

  it("names every missing or mistyped field", async () => {
    const res = await login({ name: 42 });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(200001);
    expect(Object.keys(res.body.errors).sort()).toEqual(["name", "password"]);
    const empty = await post("/api/tokens");
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe(200001);
  });

  it("lets an administrator log in and use administrator routes", async () => {
    const admin = await createAdmin();
    const res = await login({ name: admin.username, password: DEFAULT_PASSWORD });
    expect(res.status).toBe(200);
    const options = await patch("/api/options", { token: res.body.data.token, body: { site_name: "Admin Site" } });
    expect(options.status).toBe(200);
    expect(options.body.data.site_name).toBe("Admin Site");
  });

  describe("the first administrator", () => {
    it("is created from ADMIN_* on the first login into an empty database, as user 1 with the admin role", async () => {
      const res = await login({ name: "root", password: "root-password" });
      expect(res.status).toBe(200);
      expect(res.body.data.user_id).toBe(1);
      const options = await patch("/api/options", { token: res.body.data.token, body: { site_name: "Rooted" } });
      expect(options.status).toBe(200);
      expect(options.body.data.site_name).toBe("Rooted");
    });

    it("logs in by its e-mail address and with the SDK digest", async () => {
      const res = await login({ name: "ROOT@example.test", password: await sha1Hex("root-password") });
      expect(res.status).toBe(200);
      expect(res.body.data.user_id).toBe(1);
    });

    it("is created by any login attempt, even a failed one", async () => {
      const res = await login({ name: "someone", password: "x" });
      expect(res.status).toBe(400);
      const row = await env.DB.prepare("SELECT user_id, username, role FROM users").all();
      expect(row.results).toEqual([{ user_id: 1, username: "root", role: "admin" }]);
    });

    it("is not created again once users exist", async () => {
      await createUser();
      const res = await login({ name: "root", password: "root-password" });
      expect(res.status).toBe(400);
      expect(res.body.errors).toHaveProperty("password");
    });
  });

  describe("throttling and captcha", () => {
    it("hands out a captcha with the 5th failure from one IP and demands it on the next attempt", async () => {
      const user = await createUser();
      for (let i = 1; i <= 4; i++) {
        const res = await login({ name: `${user.username}x${i}`, password: "wrong" });
        expect(res.status).toBe(400);
        expect(res.body).not.toHaveProperty("captcha_token");
      }
      const fifth = await login({ name: user.username, password: "wrong" });
      expect(fifth.status).toBe(400);
      expect(fifth.body.errors).toHaveProperty("password");
      expect(fifth.body.captcha_token).toMatch(/^[0-9a-f]{64}$/);
      expect(fifth.body.captcha_image).toMatch(/^data:image\/svg\+xml;base64,/);

      // Even the right password needs the captcha now.
      const sixth = await login({ name: user.username, password: DEFAULT_PASSWORD });
      expect(sixth.status).toBe(429);
      expect(sixth.body.code).toBe(200001);
      expect(Object.keys(sixth.body.errors)).toEqual(["captcha_code"]);
      expect(sixth.body.captcha_token).toMatch(/^[0-9a-f]{64}$/);
      expect(sixth.body.captcha_image).toMatch(/^data:image\/svg\+xml;base64,/);

      const answer = await solve(sixth.body.captcha_token);
      const solved = await login({
        name: user.username,
        password: DEFAULT_PASSWORD,
        captcha_token: sixth.body.captcha_token,
        captcha_code: answer.toLowerCase(),
      });
      expect(solved.status).toBe(200);
      expect(solved.body.data.user_id).toBe(user.user_id);
    });

    it("leaves other IPs alone", async () => {
      const user = await createUser();
      await fail("someoneelse", 5, () => "203.0.113.7");
      const res = await login({ name: user.username, password: DEFAULT_PASSWORD }, "198.51.100.1");
      expect(res.status).toBe(200);
    });

    it("counts failures per account across IPs, under whichever name of the account was typed", async () => {
      const user = await createUser();
      await fail(user.username, 3, (i) => `198.51.100.${i}`);
      await fail(user.email.toUpperCase(), 2, (i) => `198.51.100.${10 + i}`);
      await age(2); // past the account's wait, which is tested below
      const res = await login({ name: user.username, password: DEFAULT_PASSWORD }, "192.0.2.99");
      expect(res.status).toBe(429);
      expect(res.body.errors).toHaveProperty("captcha_code");
    });

    it("counts failures for an unknown name too", async () => {
      await fail("ghostuser", 5, (i) => `198.51.100.${i}`);
      const res = await login({ name: "GhostUser", password: "x" }, "192.0.2.99");
      expect(res.status).toBe(429);
    });

    it("clears the account's failures after a successful login", async () => {
      const user = await createUser();
      await fail(user.username, 4, (i) => `198.51.100.${i}`);
      expect((await login({ name: user.username, password: DEFAULT_PASSWORD }, "192.0.2.1")).status).toBe(200);
      const res = await login({ name: user.username, password: "wrong" }, "192.0.2.2");
      expect(res.status).toBe(400);
      expect(res.body).not.toHaveProperty("captcha_token");
    });

    it("does not count successful logins", async () => {
      const user = await createUser();
      for (let i = 0; i < 7; i++) {
        const res = await login({ name: user.username, password: DEFAULT_PASSWORD });
        expect(res.status).toBe(200);
      }
    });

    it("forgets failures older than 15 minutes", async () => {
      const user = await createUser();
      await fail(user.username, 5);
      await age(901);
      const res = await login({ name: user.username, password: DEFAULT_PASSWORD });
      expect(res.status).toBe(200);
    });

    it("refuses a wrong captcha with a fresh one and uses the captcha up", async () => {
      const user = await createUser();
      await fail(user.username, 5);
      await age(2); // past the account's wait, which is tested below
      const demand = await login({ name: user.username, password: DEFAULT_PASSWORD });
      const token = demand.body.captcha_token;
      const answer = await solve(token);

      const wrong = await login({
        name: user.username,
        password: DEFAULT_PASSWORD,
        captcha_token: token,
        captcha_code: "zzzzz",
      });
      expect(wrong.status).toBe(429);
      expect(wrong.body.code).toBe(200001);
      expect(wrong.body.errors).toHaveProperty("captcha_code");
      expect(wrong.body.captcha_token).not.toBe(token);
      expect(await solve(token)).toBeNull();

      const replay = await login({
        name: user.username,
        password: DEFAULT_PASSWORD,
        captcha_token: token,
        captcha_code: answer,
      });
      expect(replay.status).toBe(429);
    });

    it("refuses a malformed captcha token as a wrong captcha", async () => {
      const user = await createUser();
      await fail(user.username, 5);
      await age(2); // past the account's wait, which is tested below
      const res = await login({
        name: user.username,
        password: DEFAULT_PASSWORD,
        captcha_token: "k".repeat(600),
        captcha_code: "abcde",
      });
      expect(res.status).toBe(429);
      expect(res.body.code).toBe(200001);
    });

    it("answers a solved captcha with a wrong password with errors.password and a fresh captcha", async () => {
      const user = await createUser();
      await fail(user.username, 5);
      await age(2); // past the account's wait, which is tested below
      const { body } = await post("/api/captchas");
      const res = await login({
        name: user.username,
        password: "still wrong",
        captcha_token: body.data.captcha_token,
        captcha_code: await solve(body.data.captcha_token),
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(200001);
      expect(Object.keys(res.body.errors)).toEqual(["password"]);
      expect(res.body.captcha_token).toMatch(/^[0-9a-f]{64}$/);
    });
  });
});

describe("tokens on later requests", () => {
  it("are accepted in the token header and as Authorization: Bearer", async () => {
    const admin = await createAdmin();
    const { body } = await login({ name: admin.username, password: DEFAULT_PASSWORD });
    expect(await isLoggedIn({ token: body.data.token })).toBe(true);
    expect(await isLoggedIn({ bearer: body.data.token })).toBe(true);
  });

  it("make the caller anonymous once expired", async () => {
    const admin = await createAdmin();
    const expired = await createToken(admin.user_id, -1);
    const res = await patch("/api/options", { token: expired, body: {} });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(201001);
  });

  it("make the caller anonymous when unknown", async () => {
    const res = await del("/api/tokens/current", { token: "f".repeat(64) });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(201001);
  });
});

describe("DELETE /api/tokens/current", () => {
  it("refuses an anonymous caller with 201001", async () => {
    const res = await del("/api/tokens/current");
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(201001);
  });

  it("logs out the presented token only", async () => {
    const admin = await createAdmin();
    const other = await createToken(admin.user_id);
    const res = await del("/api/tokens/current", { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ code: 0, data: null });
    expect(await isLoggedIn({ token: admin.token })).toBe(false);
    expect(await isLoggedIn({ token: other })).toBe(true);
    const again = await del("/api/tokens/current", { token: admin.token });
    expect(again.status).toBe(401);
  });

  it("logs out a bearer token", async () => {
    const user = await createUser();
    const res = await del("/api/tokens/current", { bearer: user.token });
    expect(res.status).toBe(200);
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM tokens WHERE user_id = ?")
      .bind(user.user_id)
      .first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });

  it("treats a disabled user's token as anonymous", async () => {
    const user = await createUser();
    await env.DB.prepare("UPDATE users SET disable_time = 1 WHERE user_id = ?").bind(user.user_id).run();
    const res = await del("/api/tokens/current", { token: user.token });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(201001);
  });
});

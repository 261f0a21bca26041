/**
 * What a token's claim may do (docs/auth.md#what-a-claim-may-do): the write limits count only callers that were
 * checked, an unchecked claim neither exempts nor charges anyone, the anonymous flows are anonymous to the limiter,
 * a request the limiter refuses does no D1 work, and revoking a token (logout, password reset, disabling the user)
 * ends what its claim can do at once. Each attack below was reproduced against the API before these rules.
 *
 * The limiter counts in windows aligned to the clock, so a burst of three times a limit has between one and two
 * limits' worth accepted: the bursts assert that band (test/rate-limits.test.ts says why), never a timing.
 */
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { randomToken, sha256Hex } from "../src/lib/crypto";
import { now } from "../src/lib/time";
import { claimedToken } from "../src/lib/token-claims";
import { type ApiResponse, del, get, post, put } from "./helpers/api";
import { createTopic } from "./helpers/content";
import { createAdmin, createUser, DEFAULT_PASSWORD } from "./helpers/factories";
import { codeFromMail } from "./helpers/mailbox";

const BURST_TIMEOUT = 60_000;
const CAPTCHAS_PER_ADDRESS = 30;
const CONTENT_PER_USER = 10;
const CONTENT_PER_ADDRESS = 50;
const SEARCHES_PER_USER = 30;

/** Every request of a test comes from one address, as a burst from one client would. */
const headers = { "cf-connecting-ip": "203.0.113.7" };

const times = <T>(n: number, make: (i: number) => Promise<T>): Promise<T[]> =>
  Promise.all(Array.from({ length: n }, (_, i) => make(i)));

/** Every answer is either `accepted` or the limit's 429, and the accepted ones fill the band of one window pair. */
function expectBand(results: ApiResponse[], limit: number, accepted: number): void {
  const refused = results.filter((res) => res.status === 429);
  for (const res of refused) expect(res.body.code).toBe(100002);
  expect(results.filter((res) => res.status !== 429).every((res) => res.status === accepted)).toBe(true);
  expect(results.length - refused.length).toBeGreaterThanOrEqual(limit);
  expect(results.length - refused.length).toBeLessThanOrEqual(2 * limit);
}

const login = async (name: string) => {
  const res = await post("/api/tokens", { body: { name, password: DEFAULT_PASSWORD } });
  expect(res.status).toBe(200);
  return res.body.data.token as string;
};

/** A valid question, in a topic made once per test. */
let topic: Promise<number> | undefined;
beforeEach(() => {
  topic = undefined;
});
const topicOfTest = () => {
  topic ??= createTopic();
  return topic;
};
const question = async (token: string, i = 0) =>
  post("/api/questions", {
    token,
    headers,
    body: { title: `A question about limits ${i}`, content_markdown: "Some words.", topic_ids: [await topicOfTest()] },
  });

describe("an unchecked claim lifts no limit", () => {
  // Attack: a logged-out administrator's token ("1.a.…") lifted the captcha limit: 40 of 40 answered 200.
  it(
    "counts a logged-out administrator's captchas against the address",
    async () => {
      const admin = await createAdmin();
      const token = await login(admin.username);
      expect((await del("/api/tokens/current", { token })).status).toBe(200);
      const results = await times(3 * CAPTCHAS_PER_ADDRESS, () => post("/api/captchas", { token, headers }));
      expectBand(results, CAPTCHAS_PER_ADDRESS, 200);
    },
    BURST_TIMEOUT,
  );

  it(
    "counts even a live administrator's captchas against the address: the anonymous flows ignore tokens",
    async () => {
      const admin = await createAdmin();
      const results = await times(3 * CAPTCHAS_PER_ADDRESS, () =>
        post("/api/captchas", { token: admin.token, headers }),
      );
      expectBand(results, CAPTCHAS_PER_ADDRESS, 200);
    },
    BURST_TIMEOUT,
  );

  it(
    "counts a logged-out administrator's writes against the address, each refused as anonymous",
    async () => {
      const admin = await createAdmin();
      const token = await login(admin.username);
      await del("/api/tokens/current", { token });
      const results = await times(3 * CONTENT_PER_ADDRESS, (i) => question(token, i));
      expectBand(results, CONTENT_PER_ADDRESS, 401);
      expect(await env.DB.prepare("SELECT count(*) AS n FROM questions").first("n")).toBe(0);
    },
    BURST_TIMEOUT,
  );

  it(
    "counts a disabled administrator's writes against the address",
    async () => {
      const [admin, other] = [await createAdmin(), await createAdmin()];
      expect((await post(`/api/users/${admin.user_id}/disable`, { token: other.token })).status).toBe(200);
      const results = await times(3 * CONTENT_PER_ADDRESS, (i) => question(admin.token, i));
      expectBand(results, CONTENT_PER_ADDRESS, 401);
    },
    BURST_TIMEOUT,
  );
});

describe("an old token spends nothing of its member's limits", () => {
  // Attack: 11 posts with a member's revoked token (each 401), then the member's live token: 429.
  it(
    "after a logout, the old token's writes leave the member's own limit whole",
    async () => {
      const member = await createUser();
      const old = await login(member.username);
      await del("/api/tokens/current", { token: old });
      const refused = await times(3 * CONTENT_PER_USER, (i) => question(old, i));
      expect(refused.map((res) => res.status)).toEqual(Array(3 * CONTENT_PER_USER).fill(401));
      const res = await question(member.token);
      expect(res.status).toBe(200);
      expect(res.body.data.user_id).toBe(member.user_id);
    },
    BURST_TIMEOUT,
  );

  it(
    "after a password reset, the tokens it ended leave the member's limit whole",
    async () => {
      const member = await createUser();
      const old = member.token;
      expect((await post("/api/user/password/email", { body: { email: member.email } })).status).toBe(200);
      const code = await codeFromMail(member.email);
      const password = "another long passphrase";
      const reset = await put("/api/user/password", { body: { email: member.email, email_code: code, password } });
      expect(reset.status).toBe(200);
      const refused = await times(3 * CONTENT_PER_USER, (i) => question(old, i));
      expect(refused.every((res) => res.status === 401)).toBe(true);
      const fresh = await post("/api/tokens", { body: { name: member.username, password } });
      expect((await question(fresh.body.data.token)).status).toBe(200);
    },
    BURST_TIMEOUT,
  );
});

describe("a request the limiter refuses", () => {
  // Attack: past the limit, a search still ran its D1 batch before answering 429.
  it(
    "does no D1 work, for a member's search",
    async () => {
      const member = await createUser();
      const results = await times(3 * SEARCHES_PER_USER, () =>
        get("/api/search", { token: member.token, headers, query: { q: "limits" } }),
      );
      expectBand(results, SEARCHES_PER_USER, 200);
      const refused = results.filter((res) => res.status === 429);
      expect(refused.length).toBeGreaterThan(0);
      for (const res of refused) expect(res.roundTrips).toBe(0);
    },
    BURST_TIMEOUT,
  );

  it(
    "does no D1 work, for a member's write",
    async () => {
      const member = await createUser();
      const results = await times(3 * CONTENT_PER_USER, (i) => question(member.token, i));
      expectBand(results, CONTENT_PER_USER, 200);
      for (const res of results.filter((r) => r.status === 429)) expect(res.roundTrips).toBe(0);
    },
    BURST_TIMEOUT,
  );
});

describe("a claim's issue time", () => {
  const forged = async (userId: number, admin: boolean, issuedAt: number) => {
    const token = await claimedToken({ userId, admin, issuedAt }, randomToken(), env.PASSWORD_PEPPER);
    const time = now();
    await env.DB.prepare(
      "INSERT INTO tokens (token, user_id, device, create_time, update_time, expire_time) VALUES (?, ?, '', ?, ?, ?)",
    )
      .bind(await sha256Hex(token), userId, time, time, time + 86400)
      .run();
    return token;
  };

  it("is part of every token a login hands out", async () => {
    const member = await createUser();
    const before = now();
    const token = await login(member.username);
    const [, id, role, issued] = /^(\d+)\.([au])\.(\d+)\.[0-9a-f]{64}\.[0-9a-f]{32}$/.exec(token) ?? [];
    expect([Number(id), role]).toEqual([member.user_id, "u"]);
    expect(Number(issued)).toBeGreaterThanOrEqual(before);
    expect(Number(issued)).toBeLessThanOrEqual(now());
  });

  it("ends the claim 15 days after it: the token is then checked before anything is built", async () => {
    const member = await createUser();
    const fresh = await forged(member.user_id, false, now() - 3600);
    const old = await forged(member.user_id, false, now() - 15 * 86400 - 60);
    const a = await get("/api/user", { token: fresh });
    const b = await get("/api/user", { token: old });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.roundTrips).toBe(1);
    // A claim past its time names nobody: one round trip to check the token, one to read.
    const page = await get("/api/questions", { token: old });
    expect(page.roundTrips).toBe(2);
  });

  it("refuses a claim issued in the future: it names nobody", async () => {
    const admin = await createAdmin();
    const future = await forged(admin.user_id, true, now() + 86400);
    const page = await get("/api/questions", { token: future });
    expect(page.status).toBe(200);
    expect(page.roundTrips).toBe(2);
  });
});

describe("renewal on use", () => {
  /** A token row issued `age` seconds ago that expires in `left` seconds, for `token` as presented. */
  const issued = async (userId: number, token: string, age: number, left: number) => {
    const time = now();
    await env.DB.prepare(
      "INSERT INTO tokens (token, user_id, device, create_time, update_time, expire_time) VALUES (?, ?, '', ?, ?, ?)",
    )
      .bind(await sha256Hex(token), userId, time - age, time - age, time + left)
      .run();
  };
  const expiry = async (token: string) =>
    env.DB.prepare("SELECT expire_time FROM tokens WHERE token = ?")
      .bind(await sha256Hex(token))
      .first("expire_time");

  // Finding: renewal on use kept an imported MDClub token alive forever, where the docs say 15 days.
  it("keeps a token that names nobody (imported from MDClub) to its expiry: it is not renewed", async () => {
    const member = await createUser();
    const imported = "0123456789abcdef0123456789abcdef";
    await issued(member.user_id, imported, 3 * 86400, 12 * 86400);
    const before = await expiry(imported);
    expect((await get("/api/user", { token: imported })).status).toBe(200);
    expect(await expiry(imported)).toBe(before);
  });

  it("renews a token that names its holder, at most once a day", async () => {
    const member = await createUser();
    const time = now();
    const token = await claimedToken(
      { userId: member.user_id, admin: false, issuedAt: time - 3 * 86400 },
      randomToken(),
      env.PASSWORD_PEPPER,
    );
    await issued(member.user_id, token, 3 * 86400, 12 * 86400);
    expect((await get("/api/user", { token })).status).toBe(200);
    expect(await expiry(token)).toBeGreaterThanOrEqual(time + 15 * 86400);
  });
});

describe("which requests keep a copy of their body for a second try", () => {
  // Finding: any cookie header, not only the token cookie, made the Worker keep a second copy of the body.
  it("only those that carry a credential, whatever other cookies they send", async () => {
    const member = await createUser();
    const clone = vi.spyOn(Request.prototype, "clone");
    try {
      const body = { content_markdown: "words" };
      await post("/api/questions/1/answers", { body, headers: { cookie: "theme=dark; lang=en" } });
      expect(clone).not.toHaveBeenCalled();
      await post("/api/questions/1/answers", { body, headers: { cookie: `theme=dark; token=${member.token}` } });
      expect(clone).toHaveBeenCalledTimes(1);
      await post("/api/questions/1/answers", { body, token: member.token });
      expect(clone).toHaveBeenCalledTimes(2);
    } finally {
      clone.mockRestore();
    }
  });
});

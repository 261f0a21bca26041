/**
 * Reads in one D1 round trip, the caller's token checked in it (docs/performance.md#one-round-trip): a token names
 * its holder, the route builds its queries for them at once, and the check rides in the same batch. Here: what a
 * login hands out, and every way the claim can turn out wrong (a disabled user, a revoked token, a changed role, a
 * forged claim, a token that claims nothing), each answered as D1 says, with nothing read for the claimed caller
 * shown, and nothing written for them.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../src/lib/crypto";
import { del, get, patch, post } from "./helpers/api";
import { createQuestion } from "./helpers/content";
import { createAdmin, createToken, createUser, DEFAULT_PASSWORD, setOptions } from "./helpers/factories";

/** `<user_id>.<a|u>.<issued>.<64 hex>.<32 hex>` (lib/token-claims.ts); the issue time is checked in claims-and-limits. */
const TOKEN_SHAPE = /^(\d+)\.([au])\.\d+\.[0-9a-f]{64}\.[0-9a-f]{32}$/;

const setRole = (userId: number, role: string) =>
  env.DB.prepare("UPDATE users SET role = ? WHERE user_id = ?").bind(role, userId).run();

/** A token of the MDClub format (32 hex characters) or of this API's before claims: it names nobody. */
async function plainToken(userId: number): Promise<string> {
  const token = "0123456789abcdef0123456789abcdef";
  await env.DB.prepare(
    "INSERT INTO tokens (token, user_id, device, create_time, update_time, expire_time) VALUES (?, ?, '', 0, 0, ?)",
  )
    .bind(await sha256Hex(token), userId, Math.floor(Date.now() / 1000) + 3600)
    .run();
  return token;
}

async function votedQuestion() {
  const author = await createUser();
  const voter = await createUser();
  const question = await createQuestion(author.user_id);
  await env.DB.prepare(
    "INSERT INTO votes (user_id, votable_id, votable_type, type, create_time) VALUES (?, ?, 'question', 'up', 0)",
  )
    .bind(voter.user_id, question)
    .run();
  return { voter, question };
}

describe("a login", () => {
  it("hands out a token that names its holder and role, and reads with it cost one round trip", async () => {
    const user = await createUser();
    const admin = await createAdmin();
    const mine = await post("/api/tokens", { body: { name: user.username, password: DEFAULT_PASSWORD } });
    const theirs = await post("/api/tokens", { body: { name: admin.username, password: DEFAULT_PASSWORD } });
    expect(TOKEN_SHAPE.exec(mine.body.data.token)?.slice(1)).toEqual([String(user.user_id), "u"]);
    expect(TOKEN_SHAPE.exec(theirs.body.data.token)?.slice(1)).toEqual([String(admin.user_id), "a"]);

    const me = await get("/api/user", { token: mine.body.data.token });
    expect(me.body.data.user_id).toBe(user.user_id);
    expect(me.body.data.email).toBe(user.email);
    expect(me.roundTrips).toBe(1);
    const users = await get("/api/users", { token: theirs.body.data.token, query: { disabled: "true" } });
    expect(users.status).toBe(200);
    expect(users.roundTrips).toBe(1);
  });

  it("ignores a token sent along with it, at no cost", async () => {
    const user = await createUser();
    const stale = await createToken(user.user_id, -1);
    const res = await post("/api/tokens", { token: stale, body: { name: user.username, password: DEFAULT_PASSWORD } });
    expect(res.status).toBe(200);
    expect(res.roundTrips).toBe(2);
  });
});

describe("a read", () => {
  it("checks the token and reads the caller's votes in one round trip, even when KV has lost the settings", async () => {
    const { voter, question } = await votedQuestion();
    await setOptions({ site_name: "Fresh" });
    const res = await get(`/api/questions/${question}`, { token: voter.token, query: { include: "voting" } });
    expect(res.body.data.relationships.voting).toBe("up");
    expect(res.roundTrips).toBe(1);
    const options = await get("/api/options", { token: voter.token });
    expect(options.body.data.site_name).toBe("Fresh");
    expect(options.roundTrips).toBeLessThanOrEqual(1);
  });

  it("by a user disabled since the login is answered as anonymous: nothing read for them is shown", async () => {
    const { voter, question } = await votedQuestion();
    await env.DB.prepare("UPDATE users SET disable_time = 1 WHERE user_id = ?").bind(voter.user_id).run();
    const res = await get(`/api/questions/${question}`, { token: voter.token, query: { include: "voting" } });
    expect(res.status).toBe(200);
    expect(res.body.data.relationships.voting).toBe("");
    expect(res.headers.get("cache-control") ?? "").not.toContain("private");
    // The first try read the claimed caller's vote, then D1 refused the token: a second try, as nobody.
    expect(res.roundTrips).toBe(2);
    const own = await get("/api/user", { token: voter.token });
    expect([own.status, own.body.code, own.body.data]).toEqual([401, 201001, undefined]);
  });

  it("with a token revoked by a logout is answered as anonymous", async () => {
    const { voter, question } = await votedQuestion();
    expect((await del("/api/tokens/current", { token: voter.token })).status).toBe(200);
    const res = await get(`/api/questions/${question}`, { token: voter.token, query: { include: "voting" } });
    expect(res.body.data.relationships.voting).toBe("");
    const list = await get("/api/user/questions", { token: voter.token });
    expect([list.status, list.body.code, list.body.data]).toEqual([401, 201001, undefined]);
  });

  it("for an administrator demoted since the login shows no administrator's data", async () => {
    const admin = await createAdmin();
    const user = await createUser();
    const disabled = await createUser({ disabled: true });
    await setRole(admin.user_id, "user");
    const list = await get("/api/users", { token: admin.token, query: { disabled: "true" } });
    const ids = list.body.data.map((row: { user_id: number }) => row.user_id);
    expect(ids).not.toContain(disabled.user_id);
    expect(list.body.data.filter((row: { user_id: number }) => row.user_id !== admin.user_id)).toEqual([
      expect.not.objectContaining({ email: expect.anything() }),
    ]);
    const other = await get(`/api/users/${user.user_id}`, { token: admin.token });
    expect(other.body.data.email).toBeUndefined();
    const stats = await get("/api/stats", { token: admin.token });
    expect([stats.status, stats.body.code, stats.body.data]).toEqual([403, 201002, undefined]);
    const reports = await get("/api/reports", { token: admin.token });
    expect([reports.status, reports.body.code, reports.body.data]).toEqual([403, 201002, undefined]);
  });

  it("for a user promoted since the login is an administrator's", async () => {
    const user = await createUser();
    const disabled = await createUser({ disabled: true });
    await setRole(user.user_id, "admin");
    const stats = await get("/api/stats", { token: user.token });
    expect([stats.status, stats.body.code]).toEqual([200, 0]);
    const list = await get("/api/users", { token: user.token, query: { disabled: "true" } });
    expect(list.body.data.map((row: { user_id: number }) => row.user_id)).toEqual([disabled.user_id]);
  });

  it("with a forged claim reads nothing for the user it names", async () => {
    const { voter, question } = await votedQuestion();
    const [id, , random] = voter.token.split(".");
    for (const forged of [`${id}.a.${random}.${"0".repeat(32)}`, `${id}.u.${random}.${"f".repeat(32)}`]) {
      const res = await get(`/api/questions/${question}`, { token: forged, query: { include: "voting" } });
      expect(res.body.data.relationships.voting).toBe("");
      const own = await get("/api/user", { token: forged });
      expect([own.status, own.body.code]).toEqual([401, 201001]);
    }
  });

  it("with a token that names nobody (an MDClub or older token) still works, checked first", async () => {
    const { voter, question } = await votedQuestion();
    const token = await plainToken(voter.user_id);
    const res = await get(`/api/questions/${question}`, { token, query: { include: "voting" } });
    expect(res.body.data.relationships.voting).toBe("up");
    expect(res.roundTrips).toBe(2);
  });
});

describe("a write", () => {
  it("by an administrator demoted since the login is refused before anything is written", async () => {
    const admin = await createAdmin();
    await setRole(admin.user_id, "user");
    const res = await patch("/api/options", { token: admin.token, body: { site_name: "Taken over" } });
    expect([res.status, res.body.code]).toEqual([403, 201002]);
    expect((await get("/api/options")).body.data.site_name).not.toBe("Taken over");
  });

  it("by a user promoted since the login goes through, its body read again on the second try", async () => {
    const user = await createUser();
    await setRole(user.user_id, "admin");
    const res = await patch("/api/options", { token: user.token, body: { site_name: "Promoted" } });
    expect([res.status, res.body.code]).toEqual([200, 0]);
    expect((await get("/api/options")).body.data.site_name).toBe("Promoted");
    expect(res.roundTrips).toBeLessThanOrEqual(3);
  });

  it("with a revoked token is 201001 and writes nothing", async () => {
    const user = await createUser();
    const question = await createQuestion(user.user_id);
    await env.DB.prepare("DELETE FROM tokens WHERE user_id = ?").bind(user.user_id).run();
    const res = await post(`/api/questions/${question}/answers`, {
      token: user.token,
      body: { content_markdown: "An answer" },
    });
    expect([res.status, res.body.code]).toEqual([401, 201001]);
    const { n } = (await env.DB.prepare("SELECT count(*) AS n FROM answers").first<{ n: number }>())!;
    expect(n).toBe(0);
  });
});

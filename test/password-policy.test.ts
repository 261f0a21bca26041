/**
 * New passwords (registration, reset) are at least 8 characters and not among the 10 000 most common, compared
 * as typed, lower-cased, and as the SHA-1 digest the official SDK sends. Logins do not apply the rule.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { isCommonDigest } from "../src/lib/common-passwords";
import { COMMON_PASSWORD_COUNT } from "../src/lib/common-passwords.data";
import { sha1Hex } from "../src/lib/crypto";
import { post, put } from "./helpers/api";
import { createUser, uniqueName } from "./helpers/factories";
import { codeFromMail } from "./helpers/mailbox";

const address = () => `${uniqueName("pp")}@example.test`;

async function registerCode(email: string): Promise<string> {
  expect(
    (await post("/api/user/register/email", { body: { email }, headers: { "cf-connecting-ip": "192.0.2.200" } }))
      .status,
  ).toBe(200);
  return codeFromMail(email);
}

const register = (email: string, code: string, password: string) =>
  post("/api/users", { body: { email, email_code: code, username: uniqueName(), password } });

const attempts = (email: string) =>
  env.DB.prepare("SELECT attempts FROM email_codes WHERE email = ?")
    .bind(email.toLowerCase())
    .first<number>("attempts");

const userCount = () => env.DB.prepare("SELECT count(*) AS n FROM users").first<number>("n");

// Attack: weak passwords. Before, registration took "p" and "password".
describe("registration", () => {
  const refused: [string, string | (() => Promise<string>), RegExp][] = [
    ["1 character", "p", /at least 8 characters/],
    ["7 characters", "abcdefg", /at least 8 characters/],
    ["7 characters of 2 UTF-16 units each", "😀😀😀😀😀😀😀", /at least 8 characters/],
    ["'password'", "password", /common/],
    ["a common one in capitals", "PassWord1", /common/],
    ["a common one as the SDK digest", () => sha1Hex("password"), /common/],
    ["a short common one as the SDK digest (its length cannot be seen)", () => sha1Hex("123456"), /common/],
    ["'qwertyuiop'", "qwertyuiop", /common/],
  ];
  for (const [name, value, message] of refused) {
    it(`refuses ${name} with 200001 errors.password, creates nothing and costs no try of the code`, async () => {
      const email = address();
      const code = await registerCode(email);
      const before = await userCount();
      const password = typeof value === "string" ? value : await value();
      const res = await register(email, code, password);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(200001);
      expect(Object.keys(res.body.errors)).toEqual(["password"]);
      expect(res.body.errors.password).toMatch(message);
      expect(await userCount()).toBe(before);
      expect(await attempts(email)).toBe(0);
      // The code still works with a good password.
      expect((await register(email, code, "a long unusual phrase")).status).toBe(200);
    });
  }

  it("accepts 8 characters that are not common, plain and as the SDK digest", async () => {
    const email = address();
    expect((await register(email, await registerCode(email), "zq8#Lw!r")).status).toBe(200);
    const other = address();
    expect((await register(other, await registerCode(other), await sha1Hex("zq8#Lw!r"))).status).toBe(200);
  });
});

describe("password reset", () => {
  it("refuses a short or common new password and keeps the old one", async () => {
    const user = await createUser();
    expect((await post("/api/user/password/email", { body: { email: user.email } })).status).toBe(200);
    const code = await codeFromMail(user.email);
    for (const password of ["short", "iloveyou", await sha1Hex("letmein")]) {
      const res = await put("/api/user/password", { body: { email: user.email, email_code: code, password } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(200001);
      expect(Object.keys(res.body.errors)).toEqual(["password"]);
    }
    expect((await post("/api/tokens", { body: { name: user.username, password: user.password } })).status).toBe(200);
    const ok = await put("/api/user/password", {
      body: { email: user.email, email_code: code, password: "a long unusual phrase" },
    });
    expect(ok.status).toBe(200);
  });
});

describe("login", () => {
  it("still lets an account with an old short password in", async () => {
    const user = await createUser({ password: "abc" });
    const res = await post("/api/tokens", { body: { name: user.username, password: "abc" } });
    expect(res.status).toBe(200);
  });
});

describe("the common-password list", () => {
  it("holds at least 10 000 passwords", () => {
    expect(COMMON_PASSWORD_COUNT).toBeGreaterThanOrEqual(10_000);
  });

  it("finds the most common and misses random digests", async () => {
    for (const password of ["123456", "password", "12345678", "qwerty", "dragon", "monkey"]) {
      expect(isCommonDigest(await sha1Hex(password))).toBe(true);
    }
    let hits = 0;
    for (let i = 0; i < 2000; i++) if (isCommonDigest(await sha1Hex(`random-${i}-${uniqueName()}`))) hits++;
    expect(hits).toBe(0);
  });
});

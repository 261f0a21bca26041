/**
 * No code, token, password or address reaches a log line in production (docs/stats-captcha-mail.md#transport):
 * every line the account flows write is read through spies, with mail delivered, with mail failing, and with no mail
 * configured. Before, a deployment with no `smtp_host` (every fresh one) wrote each mail, codes and address included,
 * to the log: whoever could read the Workers logs could reset any account. Now such a site says mail is not
 * configured where it matters, and only a development server (`MAIL_TO_LOG=true`) logs mail.
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import { del, post, put } from "./helpers/api";
import { createAdmin, createUser, DEFAULT_PASSWORD, setOptions, uniqueName } from "./helpers/factories";
import { codeFromMail } from "./helpers/mailbox";

const METHODS = ["log", "info", "warn", "error", "debug"] as const;
let spies: MockInstance[] = [];

beforeEach(() => {
  spies = METHODS.map((method) => vi.spyOn(console, method).mockImplementation(() => undefined));
});
afterEach(() => {
  for (const spy of spies) spy.mockRestore();
});

/** Every line written so far, each argument as text (errors with their message and stack). */
function logged(): string {
  return spies
    .flatMap((spy) => spy.mock.calls)
    .map((args) =>
      args
        .map((arg) =>
          arg instanceof Error ? `${arg.message} ${arg.stack}` : typeof arg === "string" ? arg : JSON.stringify(arg),
        )
        .join(" "),
    )
    .join("\n");
}

function expectNoneOf(secrets: string[]): void {
  const lines = logged();
  for (const secret of secrets) expect(lines, `a log line holds ${secret}`).not.toContain(secret);
}

const address = () => `${uniqueName("m")}@example.test`;
const PASSWORD = "a private passphrase";

describe("the account flows write no secret to the log", () => {
  it("with mail delivered: registration, login, logout, reset", async () => {
    const email = address();
    expect((await post("/api/user/register/email", { body: { email } })).status).toBe(200);
    const code = await codeFromMail(email);
    const username = uniqueName();
    const registered = await post("/api/users", { body: { email, email_code: code, username, password: PASSWORD } });
    expect(registered.status).toBe(200);
    const login = await post("/api/tokens", { body: { name: email, password: PASSWORD } });
    const token = login.body.data.token as string;
    await post("/api/tokens", { body: { name: email, password: "wrong password" } });
    await del("/api/tokens/current", { token });
    // Another member resets (one code mail per address per minute).
    const member = await createUser();
    expect((await post("/api/user/password/email", { body: { email: member.email } })).status).toBe(200);
    const reset = await codeFromMail(member.email);
    const body = { email: member.email, email_code: reset, password: `${PASSWORD}!` };
    expect((await put("/api/user/password", { body })).status).toBe(200);
    expect(logged()).not.toBe(""); // the request log lines are there, and hold none of it:
    expectNoneOf([email, member.email, code, reset, token, member.token, PASSWORD, `${PASSWORD}!`, "wrong password"]);
  });

  it("with mail failing: the failure is logged without the address or the code", async () => {
    await setOptions({ smtp_host: "127.0.0.1", smtp_port: 1 });
    const email = address();
    const res = await post("/api/user/register/email", { body: { email } });
    expect(res.status).toBe(502);
    expect(logged()).toContain("register code mail failed");
    expectNoneOf([email]);
    const user = await createUser();
    // The reset mail goes out after the answer; its failure is logged, without the address either.
    expect((await post("/api/user/password/email", { body: { email: user.email } })).status).toBe(200);
    expect(logged()).toContain("password_reset code mail failed");
    expectNoneOf([email, user.email]);
  });
});

describe("with no smtp_host", () => {
  beforeEach(() => setOptions({ smtp_host: "" }));

  it("answers a registration code request that mail is not configured, and logs no mail", async () => {
    const email = address();
    const res = await post("/api/user/register/email", { body: { email } });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      code: 200002,
      message: "This site cannot send e-mail yet: its administrator must set smtp_host",
    });
    expectNoneOf([email]);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM email_codes").first("n")).toBe(0);
  });

  it("answers a password reset request the same for any address, and logs no mail", async () => {
    const user = await createUser();
    const known = await post("/api/user/password/email", { body: { email: user.email } });
    const unknown = await post("/api/user/password/email", { body: { email: address() } });
    expect([known.status, unknown.status]).toEqual([503, 503]);
    expect(known.body).toEqual(unknown.body);
    expect(known.body.code).toBe(200002);
    expectNoneOf([user.email]);
  });

  it("refuses an administrator's mail to members with the same error", async () => {
    const admin = await createAdmin();
    const to = address();
    const res = await post("/api/emails", { token: admin.token, body: { email: [to], subject: "Hi", content: "x" } });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe(200002);
    expectNoneOf([to]);
  });

  it("registers without a welcome mail in the log (a failing welcome mail never fails registration)", async () => {
    // The code comes from a development server's log; the registration itself then runs with mail off.
    const email = address();
    const dev = { ...env, MAIL_TO_LOG: "true" };
    expect((await post("/api/user/register/email", { body: { email }, env: dev })).status).toBe(200);
    const code = /<strong>([a-z0-9]{6})<\/strong>/.exec(logged())?.[1] as string;
    for (const spy of spies) spy.mockClear();
    const res = await post("/api/users", {
      body: { email, email_code: code, username: uniqueName(), password: PASSWORD },
    });
    expect(res.status).toBe(200);
    expectNoneOf([email, code, PASSWORD]);
  });

  it("writes mails to the log on a development server (MAIL_TO_LOG=true)", async () => {
    const email = address();
    const res = await post("/api/user/register/email", { body: { email }, env: { ...env, MAIL_TO_LOG: "true" } });
    expect(res.status).toBe(200);
    expect(logged()).toContain(email);
    expect(logged()).toMatch(/<strong>[a-z0-9]{6}<\/strong>/);
  });
});

it("logs a login with the default password nowhere either", async () => {
  const user = await createUser();
  await post("/api/tokens", { body: { name: user.username, password: DEFAULT_PASSWORD } });
  expectNoneOf([DEFAULT_PASSWORD, user.email]);
});

import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../src/core/errors";
import {
  escapeHtml,
  isEmailAddress,
  type MailOptions,
  passwordResetCodeMail,
  registerCodeMail,
  senderAddress,
  sendMail,
  transportOptions,
  welcomeMail,
} from "../src/lib/mail";
import { uniqueName } from "./helpers/factories";
import { mailsTo } from "./helpers/mailbox";

/** The settings test/apply-migrations.ts points at the local SMTP server (which advertises AUTH). */
const local = (overrides: Partial<MailOptions> = {}): MailOptions => ({
  site_name: "Test Site",
  smtp_host: "127.0.0.1",
  smtp_port: Number(env.TEST_SMTP_PORT),
  smtp_secure: "",
  smtp_username: "",
  smtp_password: "",
  smtp_reply_to: "",
  ...overrides,
});

const address = () => `${uniqueName("m")}@example.test`;

async function sendFailure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("sendMail", () => {
  it("delivers an HTML mail over SMTP without AUTH when no username is set", async () => {
    const to = address();
    await sendMail(local(), "mdclub.test", { to, subject: "Hello there", html: "<p>Hi <strong>abc123</strong></p>" });
    const [mail] = await mailsTo(to);
    expect(mail?.subject).toBe("Hello there");
    expect(mail?.from).toBe("no-reply@mdclub.test");
    expect(mail?.headers.from).toBe('"Test Site" <no-reply@mdclub.test>');
    expect(mail?.headers).not.toHaveProperty("reply-to");
    expect(mail?.body).toContain("text/html");
    expect(mail?.body).toContain("<p>Hi <strong>abc123</strong></p>");
  });

  it("sends one message to several recipients", async () => {
    const [a, b] = [address(), address()];
    await sendMail(local(), "mdclub.test", { to: [a, b], subject: "Both", html: "<p>x</p>" });
    expect((await mailsTo(a))[0]?.to).toEqual([a, b]);
    expect(await mailsTo(b)).toHaveLength(1);
  });

  it("sends from the reply-to address, and sets Reply-To, when the username is not an address", async () => {
    const to = address();
    await sendMail(local({ smtp_reply_to: "help@example.test" }), "mdclub.test", {
      to,
      subject: "s",
      html: "<p>x</p>",
    });
    const [mail] = await mailsTo(to);
    expect(mail?.from).toBe("help@example.test");
    expect(mail?.headers["reply-to"]).toBe("help@example.test");
  });

  it("authenticates when a username is set", async () => {
    // The local server advertises AUTH but accepts no credentials: the refusal proves they were offered.
    const error = await sendFailure(
      sendMail(local({ smtp_username: "mailer@example.test", smtp_password: "pw" }), "mdclub.test", {
        to: address(),
        subject: "s",
        html: "x",
      }),
    );
    expect(error.code).toBe(200002);
    expect(error.status).toBe(502);
    expect(String(error.extra?.extra_message)).toMatch(/auth/i);
  });

  it("refuses to go on in plain text when STARTTLS is asked for and not offered", async () => {
    const error = await sendFailure(
      sendMail(local({ smtp_secure: "tls" }), "mdclub.test", { to: address(), subject: "s", html: "x" }),
    );
    expect(error.code).toBe(200002);
    expect(error.extra?.extra_message).toEqual(expect.stringContaining("STARTTLS"));
  });

  it("fails with 200002 and the reason when the server cannot be reached", async () => {
    const error = await sendFailure(
      sendMail(local({ smtp_port: 1 }), "mdclub.test", { to: address(), subject: "s", html: "x" }),
    );
    expect(error.code).toBe(200002);
    expect(error.extra?.extra_message).toEqual(expect.stringContaining("connect"));
  });

  it("refuses to send with no SMTP host set, and logs nothing", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    const error = await sendFailure(
      sendMail(local({ smtp_host: "" }), "mdclub.test", { to: address(), subject: "s", html: "zz9zz9" }),
    );
    expect([error.code, error.status, error.reason]).toEqual([200002, 503, "MAIL_NOT_CONFIGURED"]);
    expect(log).not.toHaveBeenCalled();
  });

  it("logs the mail instead when no SMTP host is set on a development server (MAIL_TO_LOG)", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    const to = address();
    await sendMail(local({ smtp_host: "", mail_to_log: true }), "mdclub.test", {
      to,
      subject: "Logged",
      html: "<p>code <strong>zz9zz9</strong></p>",
    });
    expect(log).toHaveBeenCalledOnce();
    expect(String(log.mock.calls[0]?.[0])).toContain(to);
    expect(String(log.mock.calls[0]?.[0])).toContain("zz9zz9");
  });

  it("keeps line breaks and quotes in the site name out of the headers", async () => {
    const to = address();
    await sendMail(local({ site_name: 'Evil"\r\nBcc: victim@example.test' }), "mdclub.test", {
      to,
      subject: "a\r\nX-Injected: 1",
      html: "x",
    });
    const [mail] = await mailsTo(to);
    expect(mail?.to).toEqual([to]);
    expect(mail?.headers).not.toHaveProperty("bcc");
    expect(mail?.headers).not.toHaveProperty("x-injected");
    expect(mail?.headers.from).toBe('"Evil Bcc: victim@example.test" <no-reply@mdclub.test>');
  });
});

describe("senderAddress", () => {
  const options = local();
  it("prefers the SMTP username when it is an address", () => {
    expect(
      senderAddress({ ...options, smtp_username: "me@example.test", smtp_reply_to: "r@example.test" }, "h.test"),
    ).toBe("me@example.test");
  });
  it("falls back to the reply-to address, then to no-reply@host", () => {
    expect(senderAddress({ ...options, smtp_username: "apikey", smtp_reply_to: "r@example.test" }, "h.test")).toBe(
      "r@example.test",
    );
    expect(senderAddress({ ...options, smtp_username: "apikey" }, "h.test")).toBe("no-reply@h.test");
  });
});

describe("transportOptions", () => {
  it("maps smtp_secure: ssl to implicit TLS, tls to STARTTLS, '' to plain", () => {
    expect(transportOptions(local({ smtp_secure: "ssl" }))).toMatchObject({ secure: true, startTls: false });
    expect(transportOptions(local({ smtp_secure: "tls" }))).toMatchObject({ secure: false, startTls: true });
    expect(transportOptions(local({ smtp_secure: "" }))).toMatchObject({ secure: false, startTls: false });
  });
  it("offers credentials only with a username", () => {
    expect(transportOptions(local())).not.toHaveProperty("credentials");
    expect(transportOptions(local({ smtp_username: "u", smtp_password: "p" }))).toMatchObject({
      credentials: { username: "u", password: "p" },
    });
  });
});

describe("templates", () => {
  it("put the code in <strong> and escape the site name and username", () => {
    for (const mail of [registerCodeMail("<Site & Co>", "ab12cd"), passwordResetCodeMail("<Site & Co>", "ab12cd")]) {
      expect(mail.html).toContain("<strong>ab12cd</strong>");
      expect(mail.html).toContain("&lt;Site &amp; Co&gt;");
      expect(mail.html).not.toContain("<Site");
    }
    const welcome = welcomeMail("Site", '<img src=x onerror="alert(1)">');
    expect(welcome.html).not.toContain("<img");
    expect(welcome.subject).toBe("Welcome to Site");
  });

  it("escapeHtml covers the five special characters", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  });
});

describe("isEmailAddress", () => {
  it.each(["a@b.co", "first.last+tag@sub.example.test", "用户@例子.中国"])("accepts %s", (value) => {
    expect(isEmailAddress(value)).toBe(true);
  });
  it.each([
    "",
    "plain",
    "a@b",
    "a b@c.de",
    "<a>@b.co",
    "a@b..co",
    "a@b.co\r\nRCPT TO:<x@y.z>",
    `${"a".repeat(312)}@example.test`,
  ])("refuses %j", (value) => {
    expect(isEmailAddress(value)).toBe(false);
  });
});

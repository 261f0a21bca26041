/**
 * POST /api/emails (docs/stats-captcha-mail.md#mass-mail, docs/decisions.md#mass-mail-goes-to-each-recipient-alone):
 * one message per recipient, read back from the local SMTP server; validation of the list, subject and content; SMTP
 * failures; access.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../src/core/errors";
import { sendToEach } from "../src/modules/emails/service";
import { post } from "./helpers/api";
import { createAdmin, createUser, setOptions, uniqueName } from "./helpers/factories";
import { mailsSoFar, mailsTo } from "./helpers/mailbox";

/** The mailbox outlives each test: every address is new, so what it holds was sent by this test. */
const address = () => `${uniqueName("e")}@example.test`;

const send = (token: string | undefined, body: unknown, bindings?: typeof env) =>
  post("/api/emails", { token, body, env: bindings });

const message = (email: unknown) => ({ email, subject: "Site news", content: "<p>Hello <strong>all</strong></p>" });

afterEach(() => {
  vi.restoreAllMocks();
});

describe("POST /api/emails", () => {
  it("sends each recipient one message addressed to them alone", async () => {
    const admin = await createAdmin();
    const recipients = [address(), address(), address()];
    const res = await send(admin.token, message(recipients));
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body.data).toEqual({
      email: recipients,
      subject: "Site news",
      content: "<p>Hello <strong>all</strong></p>",
    });
    // Authentication is the route's only D1 round trip.
    expect(res.roundTrips).toBe(1);
    for (const to of recipients) {
      // Sending is over when the response comes: the mailbox already holds everything it will get.
      const mails = await mailsSoFar(to);
      expect(mails).toHaveLength(1);
      const [mail] = mails;
      expect(mail?.to).toEqual([to]);
      expect(mail?.headers.to).toContain(to);
      for (const other of recipients.filter((r) => r !== to))
        expect(JSON.stringify(mail?.headers)).not.toContain(other);
      expect(mail?.subject).toBe("Site news");
      expect(mail?.body).toContain("<p>Hello <strong>all</strong></p>");
    }
  });

  it("removes duplicates case-insensitively, keeping the first spelling", async () => {
    const admin = await createAdmin();
    const [first, other] = [address(), address()];
    const res = await send(admin.token, message([first.toUpperCase(), other, first]));
    expect(res.status).toBe(200);
    expect(res.body.data.email).toEqual([first.toUpperCase(), other]);
    expect(await mailsSoFar(first)).toHaveLength(1);
    expect(await mailsSoFar(other)).toHaveLength(1);
  });

  it("counts the addresses before removing duplicates: 100 copies of one address are one mail", async () => {
    const admin = await createAdmin();
    const to = address();
    const res = await send(admin.token, message(Array.from({ length: 100 }, () => to)));
    expect(res.status).toBe(200);
    expect(res.body.data.email).toEqual([to]);
    expect(await mailsSoFar(to)).toHaveLength(1);
  });

  it("refuses more than 100 addresses with 200001 errors.email, even when they are duplicates", async () => {
    const admin = await createAdmin();
    const to = address();
    const res = await send(admin.token, message(Array.from({ length: 101 }, () => to)));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(200001);
    expect(res.body.errors).toEqual({ email: expect.any(String) });
    expect(await mailsSoFar(to)).toHaveLength(0);
  });

  it("accepts the original's comma-separated string", async () => {
    const admin = await createAdmin();
    const [a, b] = [address(), address()];
    const res = await send(admin.token, message(`${a}, ${b},`));
    expect(res.status).toBe(200);
    expect(res.body.data.email).toEqual([a, b]);
    expect((await mailsTo(b))[0]?.to).toEqual([b]);
  });

  it("refuses an invalid address with 200001 errors.email naming it, and sends nothing", async () => {
    const admin = await createAdmin();
    const good = address();
    const res = await send(admin.token, message([good, "not-an-address"]));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(200001);
    expect(res.body.errors).toEqual({ email: expect.stringContaining("not-an-address") });
    expect(await mailsSoFar(good)).toHaveLength(0);
  });

  it.each([
    ["no list", undefined],
    ["an empty list", []],
    ["a number in the list", [42]],
    ["an address with a header injection", ["a@example.test\r\nBcc: b@example.test"]],
  ])("refuses %s with 200001 errors.email", async (_label, email) => {
    const admin = await createAdmin();
    const res = await send(admin.token, message(email));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(200001);
    expect(res.body.errors).toEqual({ email: expect.any(String) });
  });

  it.each([
    ["subject", ""],
    ["subject", "   "],
    ["subject", undefined],
    ["subject", "s".repeat(201)],
    ["content", ""],
    ["content", "\n"],
    ["content", undefined],
    ["content", 5],
  ])("refuses %s %j with 200001 naming the field", async (field, value) => {
    const admin = await createAdmin();
    const res = await send(admin.token, { ...message([address()]), [field]: value });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(200001);
    expect(res.body.errors).toEqual({ [field]: expect.any(String) });
  });

  it("answers 200002 saying how many were sent when the SMTP server cannot be reached", async () => {
    const admin = await createAdmin();
    await setOptions({ smtp_port: 1 });
    const [a, b] = [address(), address()];
    const res = await send(admin.token, message([a, b]));
    expect(res.status).toBe(502);
    expect(res.body.code).toBe(200002);
    expect(res.body.extra_message).toMatch(new RegExp(`^0 of 2 mails sent; sending to ${a} failed: .+`));
  });

  it("logs the mails instead when no SMTP host is set on a development server (MAIL_TO_LOG)", async () => {
    const admin = await createAdmin();
    await setOptions({ smtp_host: "" });
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    const [a, b] = [address(), address()];
    const res = await send(admin.token, message([a, b]), { ...env, MAIL_TO_LOG: "true" });
    expect(res.status).toBe(200);
    // The request's own JSON log line (http/middleware/request-log.ts) comes after the mails.
    const mailLines = log.mock.calls.map((call) => String(call[0])).filter((line) => !line.startsWith('{"id":'));
    expect(mailLines).toEqual([expect.stringContaining(a), expect.stringContaining(b)]);
    expect(await mailsSoFar(a)).toHaveLength(0);
  });

  it("refuses an anonymous caller with 201001, before looking at the body", async () => {
    const res = await send(undefined, message("bad"));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(201001);
  });

  it("refuses a user who is not an administrator with 201002", async () => {
    const user = await createUser();
    const to = address();
    const res = await send(user.token, message([to]));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(201002);
    expect(await mailsSoFar(to)).toHaveLength(0);
  });

  it("refuses the token of a disabled administrator with 201001", async () => {
    const admin = await createAdmin();
    await env.DB.prepare("UPDATE users SET disable_time = 1 WHERE user_id = ?").bind(admin.user_id).run();
    const res = await send(admin.token, message([address()]));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(201001);
  });
});

describe("sendToEach", () => {
  it("sends in order and stops at the first failure, saying how many went out", async () => {
    const tried: string[] = [];
    const failing = async (to: string) => {
      tried.push(to);
      if (to === "c@x.test")
        throw new ApiError("EMAIL_SEND_FAILED", { extra: { extra_message: "550 mailbox unavailable" } });
    };
    const error = await sendToEach(["a@x.test", "b@x.test", "c@x.test", "d@x.test"], failing).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe(200002);
    expect((error as ApiError).extra?.extra_message).toBe(
      "2 of 4 mails sent; sending to c@x.test failed: 550 mailbox unavailable",
    );
    expect(tried).toEqual(["a@x.test", "b@x.test", "c@x.test"]);
  });
});

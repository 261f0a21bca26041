/**
 * E-mail codes (docs/auth.md#e-mail-codes): 6 characters of a-z0-9, bound to a purpose and an address, single-use,
 * valid for an hour and for at most 20 tries. Only the SHA-256 of a code is stored. Code mails are limited to
 * one per address per minute and ten per IP (IPv6: per /64) per hour. The place is claimed in the same
 * round trip that reads the limits, before any SMTP session, so concurrent requests for one address send one
 * mail; a failed send gives the place back. A try is counted before the code is compared, in the read batch,
 * so concurrent guesses cannot share one count.
 */
import type { Context } from "hono";
import { ApiError, validationError } from "../../core/errors";
import { type BatchQuery, backgroundDb, batch, type Db } from "../../db/client";
import type { AppEnv } from "../../http/app-env";
import { mailSettings } from "../../http/middleware/context";
import { clientInfo, throttleKey } from "../../lib/client-info";
import { randomString, sha256Hex, timingSafeEqual } from "../../lib/crypto";
import { mailConfigured, mailFailure, passwordResetCodeMail, registerCodeMail, sendMail } from "../../lib/mail";
import { now } from "../../lib/time";
import { type CodePurpose, claimEvents, countEvents, deleteEventsById, type Limit, upsertCode } from "./repo";

const CODE_LENGTH = 6;
const CODE_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
const CODE_LIFETIME = 3600;
const MAX_TRIES = 20;

const PER_ADDRESS = { action: "code_mail_address", window: 60, max: 1 } as const;
const PER_IP = { action: "code_mail_ip", window: 3600, max: 10 } as const;

interface StoredCode {
  code: string;
  attempts: number;
  expire_time: number;
}

const mailFor = { register: registerCodeMail, password_reset: passwordResetCodeMail } as const;

/** Codes are keyed by the lower-cased address, as addresses are unique case-insensitively. */
export const codeAddress = (email: string) => email.toLowerCase();

const hashCode = (code: string) => sha256Hex(code.trim().toLowerCase());

/**
 * Mails a new code for `purpose` to `email`. `lookup` runs in the same round trip as the limits, and `check`
 * decides from its rows: it throws to refuse the address (a taken one), returns false to send nothing while
 * answering as if it had (an address with no account: the answer must not tell), true to send. The limits
 * count either way, and are applied first. With `background`, the mail goes out after the response (so its time tells
 * nothing either) and a failure is only logged; otherwise a failure is 200002, its reason only in the server log.
 */
export async function sendCode<Row>(
  c: Context<AppEnv>,
  purpose: CodePurpose,
  email: string,
  lookup: BatchQuery<Row[]>,
  check: (rows: Row[]) => boolean,
  background = false,
): Promise<void> {
  const db = c.get("db");
  const time = now();
  const address = codeAddress(email);
  const ip = throttleKey(clientInfo(c.req.raw).ip);
  const limits: Limit[] = [
    { ...PER_ADDRESS, subject: address },
    { ...PER_IP, subject: ip },
  ];
  const { rows, perAddress, claimed } = await batch(db, {
    rows: lookup,
    perAddress: countEvents(db, PER_ADDRESS.action, address, time - PER_ADDRESS.window),
    claimed: claimEvents(db, limits, time),
  });
  // Limits first: probing addresses (a taken one is 409) is limited like sending.
  if (claimed.length === 0) {
    const message =
      (perAddress[0]?.n ?? 0) >= PER_ADDRESS.max
        ? "A code was sent to this address less than a minute ago"
        : "Too many codes were requested from your network, try again later";
    throw new ApiError("TOO_MANY_REQUESTS", { message });
  }
  // Before the address is looked at, and with the place given back: a site that cannot mail says so to everyone.
  const options = mailSettings(c);
  if (!mailConfigured(options)) {
    await deleteEventsById(
      db,
      claimed.map((row) => row.id),
    ).run();
    throw new ApiError("MAIL_NOT_CONFIGURED");
  }
  if (!check(rows)) return;

  const code = randomString(CODE_LENGTH, CODE_ALPHABET);
  const deliver = async (writer: Db) => {
    try {
      await sendMail(options, new URL(c.req.url).hostname, { to: email, ...mailFor[purpose](options.site_name, code) });
    } catch (error) {
      // The reason (server replies) is for the operator, not for an anonymous caller; the address is for neither.
      console.error(`${purpose} code mail failed:`, mailFailure(error));
      await deleteEventsById(
        writer,
        claimed.map((row) => row.id),
      ).run();
      throw new ApiError("EMAIL_SEND_FAILED");
    }
    // Written only once the mail is out: a failed send leaves the previous code.
    const hash = await hashCode(code);
    const row = { purpose, email: address, code: hash, create_time: time, expire_time: time + CODE_LIFETIME };
    await upsertCode(writer, row).run();
  };
  if (!background) return deliver(db);
  c.executionCtx.waitUntil(deliver(backgroundDb(c.env.DB)).catch(() => undefined));
}

export const wrongCode = () => validationError({ email_code: "the code is wrong or has been used" });

/**
 * Checks `code` against the row `countCodeTry` returned (this try already counted) and returns its hash (the
 * caller deletes the row in its write batch). Unknown or wrong: 200001 `errors.email_code`; past its hour or
 * its tries: 200003.
 */
export async function verifyCode(code: string, stored: StoredCode | undefined): Promise<string> {
  if (!stored) throw wrongCode();
  if (stored.expire_time <= now() || stored.attempts > MAX_TRIES) throw new ApiError("EMAIL_CODE_EXPIRED");
  const hash = await hashCode(code);
  if (!timingSafeEqual(hash, stored.code)) throw wrongCode();
  return hash;
}

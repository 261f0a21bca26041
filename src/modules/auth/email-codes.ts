/**
 * E-mail codes (DECISIONS.md, behaviour.md 5.2 with its section 11 item 18 fixed): 6 characters of a-z0-9,
 * bound to a purpose and an address, single-use, valid for an hour and for at most 20 wrong tries. Only the
 * SHA-256 of a code is stored. Code mails are limited to one per address per minute and ten per IP per hour,
 * counted as rows in `throttles` once a mail has gone out.
 */
import type { Context } from "hono";
import { runBatch, type BatchStatement, type Db } from "../../db/client";
import type { AppEnv } from "../../env";
import { clientInfo } from "../../lib/client-info";
import { randomString, sha256Hex, timingSafeEqual } from "../../lib/crypto";
import { ApiError, validationError } from "../../lib/errors";
import { passwordResetCodeMail, registerCodeMail, sendMail } from "../../lib/mail";
import { now } from "../../lib/time";
import { countEvents, countWrongCode, insertEvents, upsertCode, type CodePurpose } from "./repo";

const CODE_LENGTH = 6;
const CODE_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
const CODE_LIFETIME = 3600;
const MAX_WRONG_CHECKS = 20;

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
 * Mails a new code for `purpose` to `email`. `lookup` runs in the same round trip as the limit counts, and
 * `check` refuses the address from its rows (taken, unknown, disabled) before any limit is applied.
 */
export async function sendCode<Row>(
  c: Context<AppEnv>,
  purpose: CodePurpose,
  email: string,
  lookup: BatchStatement,
  check: (rows: Row[]) => void,
): Promise<void> {
  const db = c.get("db");
  const time = now();
  const address = codeAddress(email);
  const { ip } = clientInfo(c.req.raw);
  const [rows, perAddress, perIp] = (await runBatch(db, [
    lookup,
    countEvents(db, PER_ADDRESS.action, address, time - PER_ADDRESS.window),
    countEvents(db, PER_IP.action, ip, time - PER_IP.window),
  ])) as [Row[], { n: number }[], { n: number }[]];
  check(rows);
  if ((perAddress[0]?.n ?? 0) >= PER_ADDRESS.max) {
    throw new ApiError("TOO_MANY_REQUESTS", { message: "A code was sent to this address less than a minute ago" });
  }
  if ((perIp[0]?.n ?? 0) >= PER_IP.max) {
    throw new ApiError("TOO_MANY_REQUESTS", { message: "Too many codes were requested from your network, try again later" });
  }

  const code = randomString(CODE_LENGTH, CODE_ALPHABET);
  const options = c.get("options");
  await sendMail(options, new URL(c.req.url).hostname, { to: email, ...mailFor[purpose](options.site_name, code) });
  // Written only once the mail is out: a failed send leaves the previous code and costs no quota.
  await db.batch([
    upsertCode(db, { purpose, email: address, code: await hashCode(code), create_time: time, expire_time: time + CODE_LIFETIME }),
    insertEvents(db, [
      { action: PER_ADDRESS.action, subject: address, create_time: time },
      { action: PER_IP.action, subject: ip, create_time: time },
    ]),
  ]);
}

export const wrongCode = () => validationError({ email_code: "the code is wrong or has been used" });

/**
 * Checks `code` against the stored row and returns its hash (the caller deletes the row in its write batch).
 * Unknown or wrong: 200001 `errors.email_code`, and a wrong try is counted; past its hour or its tries: 200003.
 */
export async function verifyCode(
  db: Db,
  purpose: CodePurpose,
  email: string,
  code: string,
  stored: StoredCode | undefined,
): Promise<string> {
  if (!stored) throw wrongCode();
  if (stored.expire_time <= now() || stored.attempts >= MAX_WRONG_CHECKS) throw new ApiError("EMAIL_CODE_EXPIRED");
  const hash = await hashCode(code);
  if (!timingSafeEqual(hash, stored.code)) {
    await countWrongCode(db, purpose, codeAddress(email)).run();
    throw wrongCode();
  }
  return hash;
}

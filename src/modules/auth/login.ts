/**
 * Login and logout (docs/auth.md#login-throttling-and-captchas). Failed attempts are counted per client IP (IPv6 by
 * its /64) and per account over 15 minutes. From the 5th failure on, an attempt must solve a captcha, and every
 * failure at or past that point hands out a fresh one. Past 5 failures of an account, its next attempt must also wait
 * 2^(failures - 5) seconds after the latest failure (1 s, 2 s, 4 s … at most 15 minutes): 429, 100002 and
 * `Retry-After`. A refusal for a missing or wrong captcha hands out a new one at most 30 times per IP in the window;
 * past that it is 429, 100002, and writes nothing but the taking back of the attempt.
 *
 * An attempt is counted as a failure BEFORE its password is checked: the read batch records it provisionally
 * after counting the earlier ones, so of many concurrent guesses only the first few see a count below the
 * limit. A success (and a refusal that checked nothing) takes it back in the write batch. A login costs two D1
 * round trips: one batch reads (creating the first administrator first when the table is empty), records the
 * attempt and uses up the captcha sent; one batch writes. A failure that hands out no captcha costs one.
 */
import type { Context } from "hono";
import type { z } from "zod";
import { ApiError, type FieldErrors } from "../../core/errors";
import { batch, commit } from "../../db/client";
import type { TokenRow } from "../../db/schema";
import type { AppEnv } from "../../http/app-env";
import { type Captcha, captchaSolved, insertCaptcha, newCaptcha, takeCaptcha } from "../../lib/captcha";
import { clientInfo, throttleKey } from "../../lib/client-info";
import { randomToken, sha256Hex } from "../../lib/crypto";
import { isEmailAddress } from "../../lib/mail";
import { hashPassword, verifyPassword } from "../../lib/password";
import { now } from "../../lib/time";
import { claimedToken, TOKEN_LIFETIME } from "../../lib/token-claims";
import { ensureAdminStatements } from "../users/bootstrap";
import {
  accountKeySql,
  byEmail,
  byUsername,
  countEvents,
  deleteEvents,
  deleteEventsById,
  deleteToken,
  insertEvents,
  insertToken,
  recordLogin,
  selectLoginUser,
} from "./repo";
import type { LoginBody } from "./schema";
import { endSessions } from "./sessions-ended";

const WINDOW = 15 * 60;
const FREE_FAILURES = 5;
const MAX_WAIT = WINDOW;
const FAILED_BY_IP = "login_ip";
const FAILED_FOR_ACCOUNT = "login_account";
/** Captchas handed out to one IP by refused logins: past this, a refusal writes nothing (no new captcha row). */
const CAPTCHA_BY_IP = { action: "login_captcha_ip", max: 30 } as const;

let decoyHash: Promise<string> | undefined;

/** Unknown names are checked against a throwaway hash, so they take as long as a wrong password. */
const decoy = (pepper: string | undefined) => (decoyHash ??= hashPassword(randomToken(), pepper));

/** Failures of an existing account are counted under its id, whichever of its names was typed. */
const nameKey = (name: string) => `name:${name.toLowerCase()}`;
const userKey = (userId: number) => `user:${userId}`;

/** Seconds an account with `failures` recent failures, the latest at `last`, must still wait; 0 if none. */
function backoff(failures: number, last: number, time: number): number {
  if (failures < FREE_FAILURES) return 0;
  return Math.max(0, last + Math.min(2 ** (failures - FREE_FAILURES), MAX_WAIT) - time);
}

export async function login(c: Context<AppEnv>, body: z.infer<typeof LoginBody>): Promise<TokenRow> {
  const db = c.get("db");
  const pepper = c.env.PASSWORD_PEPPER;
  const time = now();
  const client = clientInfo(c.req.raw);
  const ip = throttleKey(client.ip);
  const match = isEmailAddress(body.name) ? byEmail(body.name) : byUsername(body.name);
  const accountKey = accountKeySql(match, nameKey(body.name));
  const admin = await ensureAdminStatements(db, c.env);
  const { users, byIp, captchasByIp, forAccount, attempt, captchaRows } = await batch(db, {
    admin,
    users: selectLoginUser(db, match),
    byIp: countEvents(db, FAILED_BY_IP, ip, time - WINDOW),
    captchasByIp: countEvents(db, CAPTCHA_BY_IP.action, ip, time - WINDOW),
    forAccount: countEvents(db, FAILED_FOR_ACCOUNT, accountKey, time - WINDOW),
    attempt: insertEvents(db, [
      { action: FAILED_BY_IP, subject: ip, create_time: time },
      { action: FAILED_FOR_ACCOUNT, subject: accountKey, create_time: time },
    ]),
    captchaRows: takeCaptcha(db, body.captcha_token),
  });
  const user = users[0];
  const account = forAccount[0] ?? { n: 0, last: 0 };
  const failures = Math.max(byIp[0]?.n ?? 0, account.n);
  const attemptIds = attempt.map((row) => row.id);

  /** Refuses without checking the password: the attempt is taken back, as it guessed nothing. */
  const refuse = async (error: ApiError, captcha?: ReturnType<typeof newCaptcha>): Promise<never> => {
    const handedOut = { action: CAPTCHA_BY_IP.action, subject: ip, create_time: time };
    const handOut = captcha ? [insertCaptcha(db, captcha.row), insertEvents(db, [handedOut])] : [];
    await commit(db, [deleteEventsById(db, attemptIds), ...handOut]);
    throw error;
  };
  const wait = backoff(account.n, account.last, time);
  if (wait > 0) {
    const message = `Too many failed logins for this account: try again in ${wait} seconds`;
    await refuse(new ApiError("TOO_MANY_REQUESTS", { message, headers: { "Retry-After": String(wait) } }));
  }
  if (failures >= FREE_FAILURES && !captchaSolved(captchaRows, body.captcha_code)) {
    if ((captchasByIp[0]?.n ?? 0) >= CAPTCHA_BY_IP.max) {
      const message = "Too many failed logins from your network, try again later";
      await refuse(new ApiError("TOO_MANY_REQUESTS", { message }));
    }
    const captcha = newCaptcha();
    const wrong = "the characters do not match the image";
    const errors = { captcha_code: body.captcha_code ? wrong : "enter the characters shown in the image" };
    await refuse(new ApiError("VALIDATION", { status: 429, errors, extra: { ...captcha.captcha } }), captcha);
  }

  const { valid, outdated } = await verifyPassword(body.password, user?.password ?? (await decoy(pepper)), pepper);
  if (!user || !valid || user.disable_time > 0) {
    // The account's state is told only to someone who knows its password.
    const errors: FieldErrors =
      user && valid ? { name: "this account is disabled" } : { password: "wrong name or password" };
    let extra: Captcha | undefined;
    if (failures + 1 >= FREE_FAILURES) {
      const captcha = newCaptcha();
      await insertCaptcha(db, captcha.row).run();
      extra = captcha.captcha;
    }
    throw new ApiError("VALIDATION", { errors, ...(extra && { extra: { ...extra } }) });
  }

  const claim = { userId: user.user_id, admin: user.role === "admin", issuedAt: time };
  const token = await claimedToken(claim, randomToken(), pepper);
  const record = {
    token: await sha256Hex(token),
    user_id: user.user_id,
    device: body.device ?? (c.req.header("user-agent") ?? "").slice(0, 600),
    create_time: time,
    update_time: time,
    expire_time: time + TOKEN_LIFETIME,
  };
  // A hash from before the pepper (or with fewer iterations) is replaced now that the password is known.
  const password = outdated ? { password: await hashPassword(body.password, pepper) } : {};
  await commit(db, [
    insertToken(db, record),
    recordLogin(db, user.user_id, {
      last_login_time: time,
      last_login_ip: client.ip,
      last_login_location: client.location,
      ...password,
    }),
    deleteEvents(db, FAILED_FOR_ACCOUNT, userKey(user.user_id)),
    deleteEventsById(db, attemptIds),
  ]);
  c.set("issuedTokenHash", record.token);
  return { ...record, token };
}

/** Ends the session of the presented token; later requests with it are anonymous, and its claim counts nothing. */
export async function logout(c: Context<AppEnv>): Promise<void> {
  const tokenHash = c.get("tokenHash");
  if (!tokenHash) return;
  await deleteToken(c.get("db"), tokenHash).run();
  await endSessions(c, { tokenHash });
}

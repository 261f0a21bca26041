/**
 * Login and logout (DECISIONS.md, accounts). Throttling counts failed attempts only, per client IP and per
 * account, over 15 minutes: from the 5th failure on, an attempt must solve a captcha, and every failure at or
 * past that point hands out a fresh one. A login costs two D1 round trips: one batch reads (creating the first
 * administrator first when the table is empty), one batch writes.
 */
import type { Context } from "hono";
import type { z } from "zod";
import { runBatch, type BatchStatement } from "../../db/client";
import type { TokenRow } from "../../db/schema";
import type { AppEnv } from "../../env";
import { checkCaptcha, createCaptcha } from "../../lib/captcha";
import { clientInfo } from "../../lib/client-info";
import { randomToken, sha256Hex } from "../../lib/crypto";
import { ApiError, type FieldErrors } from "../../lib/errors";
import { isEmailAddress } from "../../lib/mail";
import { hashPassword, verifyPassword } from "../../lib/password";
import { now } from "../../lib/time";
import { TOKEN_LIFETIME } from "../../middleware/context";
import { ensureAdminStatements } from "../users/bootstrap";
import {
  accountKeySql,
  byEmail,
  byUsername,
  countEvents,
  deleteEvents,
  deleteToken,
  insertEvents,
  insertToken,
  recordLogin,
  selectLoginUser,
} from "./repo";
import type { LoginBody } from "./schema";

const WINDOW = 15 * 60;
const FREE_FAILURES = 5;
const FAILED_BY_IP = "login_ip";
const FAILED_FOR_ACCOUNT = "login_account";

let decoyHash: Promise<string> | undefined;

/** Unknown names are checked against a throwaway hash, so they take as long as a wrong password. */
const decoy = () => (decoyHash ??= hashPassword(randomToken()));

/** Failures of an existing account are counted under its id, whichever of its names was typed. */
const nameKey = (name: string) => `name:${name.toLowerCase()}`;
const userKey = (userId: number) => `user:${userId}`;

export async function login(c: Context<AppEnv>, body: z.infer<typeof LoginBody>): Promise<TokenRow> {
  const db = c.get("db");
  const time = now();
  const client = clientInfo(c.req.raw);
  const match = isEmailAddress(body.name) ? byEmail(body.name) : byUsername(body.name);
  const admin = await ensureAdminStatements(db, c.env);
  const reads: BatchStatement[] = [
    selectLoginUser(db, match),
    countEvents(db, FAILED_BY_IP, client.ip, time - WINDOW),
    countEvents(db, FAILED_FOR_ACCOUNT, accountKeySql(match, nameKey(body.name)), time - WINDOW),
  ];
  const results = await runBatch(db, [...admin, ...reads]);
  const [users, byIp, forAccount] = results.slice(admin.length) as [
    { user_id: number; password: string; disable_time: number }[],
    { n: number }[],
    { n: number }[],
  ];
  const user = users[0];
  const failures = Math.max(byIp[0]?.n ?? 0, forAccount[0]?.n ?? 0);

  const kv = c.env.KV;
  if (failures >= FREE_FAILURES && !(await checkCaptcha(kv, body.captcha_token, body.captcha_code))) {
    const message = body.captcha_code ? "the characters do not match the image" : "enter the characters shown in the image";
    throw new ApiError("VALIDATION", { status: 429, errors: { captcha_code: message }, extra: { ...(await createCaptcha(kv)) } });
  }

  const passwordOk = await verifyPassword(body.password, user?.password ?? (await decoy()));
  if (!user || !passwordOk || user.disable_time > 0) {
    await insertEvents(db, [
      { action: FAILED_BY_IP, subject: client.ip, create_time: time },
      { action: FAILED_FOR_ACCOUNT, subject: user ? userKey(user.user_id) : nameKey(body.name), create_time: time },
    ]).run();
    // The account's state is told only to someone who knows its password.
    const errors: FieldErrors = user && passwordOk ? { name: "this account is disabled" } : { password: "wrong name or password" };
    const captcha = failures + 1 >= FREE_FAILURES ? await createCaptcha(kv) : undefined;
    throw new ApiError("VALIDATION", { errors, ...(captcha && { extra: { ...captcha } }) });
  }

  const token = randomToken();
  const record = {
    token: await sha256Hex(token),
    user_id: user.user_id,
    device: body.device ?? (c.req.header("user-agent") ?? "").slice(0, 600),
    create_time: time,
    update_time: time,
    expire_time: time + TOKEN_LIFETIME,
  };
  await db.batch([
    insertToken(db, record),
    recordLogin(db, user.user_id, { last_login_time: time, last_login_ip: client.ip, last_login_location: client.location }),
    deleteEvents(db, FAILED_FOR_ACCOUNT, userKey(user.user_id)),
  ]);
  return { ...record, token };
}

/** Ends the session of the presented token; later requests with it are anonymous. */
export async function logout(c: Context<AppEnv>): Promise<void> {
  const tokenHash = c.get("tokenHash");
  if (tokenHash) await deleteToken(c.get("db"), tokenHash).run();
}

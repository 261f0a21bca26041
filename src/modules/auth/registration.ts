/**
 * Registration (docs/auth.md#registration, docs/decisions.md#registration-takes-two-steps): mail a code, then create
 * the account with it. Stage 1 checks the password, the address and the code, stage 2 the username; a stage-2 refusal
 * leaves the code usable for another try (the try is counted).
 * Creating the account costs two round trips: one batch reads, one writes (first administrator, user, code).
 */
import type { Context } from "hono";
import type { z } from "zod";
import type { Caller } from "../../core/caller";
import { type ApiError, validationError } from "../../core/errors";
import { batch } from "../../db/client";
import type { AppEnv } from "../../http/app-env";
import { mailSettings } from "../../http/middleware/context";
import { clientInfo } from "../../lib/client-info";
import { mailConfigured, sendMailAfter, welcomeMail } from "../../lib/mail";
import { assertAcceptablePassword, hashPassword } from "../../lib/password";
import { now } from "../../lib/time";
import { withDefaultAvatar } from "../avatars/service";
import { emit } from "../events/outbox";
import { ensureAdminStatements } from "../users/bootstrap";
import { indexNewUser } from "../users/repo";
import { codeAddress, sendCode, verifyCode } from "./email-codes";
import { byEmail, byUsername, countCodeTry, deleteCode, insertUser, selectUserId } from "./repo";
import type { RegisterBody } from "./schema";

// 409: the request is well-formed but collides with an existing account (docs/decisions.md#wire-format).
const emailTaken = () => validationError({ email: "this address is already registered" }, 409);
const usernameTaken = () => validationError({ username: "this username is taken" }, 409);

export async function sendRegisterCode(c: Context<AppEnv>, email: string): Promise<void> {
  const db = c.get("db");
  await sendCode<{ user_id: number }>(c, "register", email, selectUserId(db, byEmail(email)), (rows) => {
    if (rows.length) throw emailTaken();
    return true;
  });
}

/** A unique index refusing the insert: another registration took the name or address in the meantime. */
function duplicateError(error: unknown): ApiError | null {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (e.message.includes("users_username_lower_unique")) return usernameTaken();
    if (e.message.includes("users_email_lower_unique")) return emailTaken();
  }
  return null;
}

export async function register(c: Context<AppEnv>, body: z.infer<typeof RegisterBody>): Promise<Caller> {
  const db = c.get("db");
  const address = codeAddress(body.email);
  // Before the batch: a refused password costs no try of the code.
  await assertAcceptablePassword(body.password);
  const { emailRows, codeRows, nameRows } = await batch(db, {
    emailRows: selectUserId(db, byEmail(body.email)),
    codeRows: countCodeTry(db, "register", address),
    nameRows: selectUserId(db, byUsername(body.username)),
  });
  if (emailRows.length) throw emailTaken();
  await verifyCode(body.email_code, codeRows[0]);
  if (nameRows.length) throw usernameTaken();

  const time = now();
  const client = clientInfo(c.req.raw);
  const password = await hashPassword(body.password, c.env.PASSWORD_PEPPER);
  const admin = await ensureAdminStatements(db, c.env);
  const written = await batch(db, {
    // The administrator goes first, so on an empty database it is user 1 and nobody can take its name.
    admin,
    inserted: insertUser(db, {
      username: body.username,
      email: body.email,
      password,
      create_ip: client.ip,
      create_location: client.location,
      last_login_time: time,
      last_login_ip: client.ip,
      last_login_location: client.location,
      create_time: time,
      update_time: time,
    }),
    indexed: indexNewUser(db, body.username),
    code: deleteCode(db, "register", address),
  }).catch((error) => {
    throw duplicateError(error) ?? error;
  });
  // A refused insert fails the whole batch: one that ran has inserted the user.
  const user = written.inserted[0] as Caller;
  emit(db, "user.created", { ids: [user.user_id] });

  const options = mailSettings(c);
  // A failing welcome mail never fails the registration
  // (docs/decisions.md#a-failing-welcome-mail-never-fails-registration): it is sent after the response, if at all.
  if (mailConfigured(options)) {
    const mail = { to: body.email, ...welcomeMail(options.site_name, user.username) };
    const waitUntil = (work: Promise<unknown>) => c.executionCtx.waitUntil(work);
    sendMailAfter(waitUntil, options, new URL(c.req.url).hostname, mail, `welcome mail to user ${user.user_id}`);
  }
  // Generated now that the id (its folder) is known; never fails the registration.
  return withDefaultAvatar(c, user);
}

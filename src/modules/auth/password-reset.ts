/**
 * Password reset (docs/auth.md#password-reset): mail a code to a registered, enabled account, then set a new password
 * with it. The new password ends every session of the account. Neither step tells whether an address has an account:
 * asking for a code answers the same for every address (the mail goes out after the response, and only to an enabled
 * account), and a reset for an address without one is a wrong code.
 */
import type { Context } from "hono";
import type { z } from "zod";
import { validationError } from "../../core/errors";
import { batch } from "../../db/client";
import type { AppEnv } from "../../http/app-env";
import { assertAcceptablePassword, hashPassword } from "../../lib/password";
import { now } from "../../lib/time";
import { codeAddress, sendCode, verifyCode, wrongCode } from "./email-codes";
import {
  byEmail,
  codeStillValid,
  countCodeTry,
  deleteCode,
  deleteUserTokensWithCode,
  selectUserId,
  updatePasswordWithCode,
} from "./repo";
import type { ResetPasswordBody } from "./schema";
import { endSessions } from "./sessions-ended";

interface Account {
  user_id: number;
  disable_time: number;
}

const resettable = (account: Account | undefined) => !!account && account.disable_time === 0;

export async function sendPasswordResetCode(c: Context<AppEnv>, email: string): Promise<void> {
  const lookup = selectUserId(c.get("db"), byEmail(email));
  await sendCode<Account>(c, "password_reset", email, lookup, (rows) => resettable(rows[0]), true);
}

export async function resetPassword(c: Context<AppEnv>, body: z.infer<typeof ResetPasswordBody>): Promise<void> {
  const db = c.get("db");
  const address = codeAddress(body.email);
  // Before the batch: a refused password costs no try of the code.
  await assertAcceptablePassword(body.password);
  const {
    accounts: [account],
    codes,
  } = await batch(db, {
    accounts: selectUserId(db, byEmail(body.email)),
    codes: countCodeTry(db, "password_reset", address),
  });
  if (!account) throw wrongCode();
  const codeHash = await verifyCode(body.email_code, codes[0]);
  // Told only to someone holding a valid code, i.e. reading the account's mail.
  if (account.disable_time > 0) throw validationError({ email: "this account is disabled" });

  const hash = await hashPassword(body.password, c.env.PASSWORD_PEPPER);
  // Every write waits on the code row, deleted last: of two resets racing with one code, only one applies.
  const unused = codeStillValid(db, "password_reset", address, codeHash);
  const { updated } = await batch(db, {
    updated: updatePasswordWithCode(db, account.user_id, hash, unused),
    tokens: deleteUserTokensWithCode(db, account.user_id, unused),
    code: deleteCode(db, "password_reset", address),
  });
  if (updated.length === 0) throw wrongCode();
  await endSessions(c, { userIds: [account.user_id], time: now() });
}

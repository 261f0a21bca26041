/**
 * Password reset (behaviour.md 5.4, DECISIONS.md): mail a code to a registered, enabled account, then set a
 * new password with it. The new password ends every session of the account. Unlike the original, the reset
 * itself also refuses unregistered and disabled accounts (behaviour.md section 11, item 35).
 */
import type { Context } from "hono";
import type { z } from "zod";
import type { AppEnv } from "../../env";
import { validationError } from "../../lib/errors";
import { hashPassword } from "../../lib/password";
import { codeAddress, sendCode, verifyCode, wrongCode } from "./email-codes";
import {
  byEmail,
  codeStillValid,
  deleteCode,
  deleteUserTokensWithCode,
  selectCode,
  selectUserId,
  updatePasswordWithCode,
} from "./repo";
import type { ResetPasswordBody } from "./schema";

interface Account {
  user_id: number;
  disable_time: number;
}

function assertResettable(account: Account | undefined): asserts account is Account {
  if (!account) throw validationError({ email: "no account uses this address" });
  if (account.disable_time > 0) throw validationError({ email: "this account is disabled" });
}

export async function sendPasswordResetCode(c: Context<AppEnv>, email: string): Promise<void> {
  await sendCode<Account>(c, "password_reset", email, selectUserId(c.get("db"), byEmail(email)), (rows) => assertResettable(rows[0]));
}

export async function resetPassword(c: Context<AppEnv>, body: z.infer<typeof ResetPasswordBody>): Promise<void> {
  const db = c.get("db");
  const address = codeAddress(body.email);
  const [accounts, codes] = await db.batch([selectUserId(db, byEmail(body.email)), selectCode(db, "password_reset", address)]);
  const account = accounts[0];
  assertResettable(account);
  const codeHash = await verifyCode(db, "password_reset", body.email, body.email_code, codes[0]);

  const hash = await hashPassword(body.password);
  // Every write waits on the code row, deleted last: of two resets racing with one code, only one applies.
  const unused = codeStillValid(db, "password_reset", address, codeHash);
  const [updated] = await db.batch([
    updatePasswordWithCode(db, account.user_id, hash, unused),
    deleteUserTokensWithCode(db, account.user_id, unused),
    deleteCode(db, "password_reset", address),
  ]);
  if (updated.length === 0) throw wrongCode();
}

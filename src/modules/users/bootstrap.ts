/**
 * The first administrator (DECISIONS.md): created from ADMIN_USERNAME, ADMIN_EMAIL and ADMIN_PASSWORD when the
 * users table is empty. The insert is a guarded `INSERT ... SELECT ... WHERE NOT EXISTS`, batched in front of
 * every statement that could create or look up the first account (login and registration), so it costs no
 * round trip of its own and nobody can register before the administrator exists.
 */
import { sql } from "drizzle-orm";
import type { BatchStatement, Db } from "../../db/client";
import type { Bindings } from "../../env";
import { hashPassword } from "../../lib/password";
import { now } from "../../lib/time";

let cachedHash: { password: string; hash: Promise<string> } | undefined;

/** One PBKDF2 per isolate, not per request: the salted hash is only used if the table turns out empty. */
function adminHash(password: string): Promise<string> {
  if (cachedHash?.password !== password) cachedHash = { password, hash: hashPassword(password) };
  return cachedHash.hash;
}

export async function ensureAdminStatement(db: Db, env: Bindings): Promise<BatchStatement | null> {
  const { ADMIN_USERNAME: username, ADMIN_EMAIL: email, ADMIN_PASSWORD: password } = env;
  if (!username || !email || !password) return null;
  const hash = await adminHash(password);
  const time = now();
  // For async drivers `db.run` builds a lazy, batchable query; its declared type is the awaited result.
  return db.run(sql`INSERT INTO users (username, email, password, role, create_time, update_time)
    SELECT ${username}, ${email}, ${hash}, 'admin', ${time}, ${time}
    WHERE NOT EXISTS (SELECT 1 FROM users)`) as unknown as BatchStatement;
}

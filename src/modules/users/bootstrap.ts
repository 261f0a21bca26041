/**
 * The first administrator (docs/decisions.md#administrators-are-a-role): created from ADMIN_USERNAME, ADMIN_EMAIL and
 * ADMIN_PASSWORD when the users table is empty. The insert is a guarded `INSERT ... SELECT ... WHERE NOT EXISTS`,
 * batched in front of every statement that could create or look up the first account (login and registration), so it
 * costs no round trip of its own and nobody can register before the administrator exists.
 */
import { getTableColumns, sql } from "drizzle-orm";
import type { Bindings } from "../../core/env";
import type { BatchStatement, Db } from "../../db/client";
import { users } from "../../db/schema";
import { hashPassword } from "../../lib/password";
import { now } from "../../lib/time";
import { indexNewUser } from "./repo";

let cachedHash: { password: string; pepper?: string; hash: Promise<string> } | undefined;

/** One PBKDF2 per isolate, not per request: the salted hash is only used if the table turns out empty. */
function adminHash(password: string, pepper: string | undefined): Promise<string> {
  if (cachedHash?.password !== password || cachedHash.pepper !== pepper) {
    cachedHash = { password, pepper, hash: hashPassword(password, pepper) };
  }
  return cachedHash.hash;
}

/** The guarded insert, as a list to spread into a batch: empty when the ADMIN_* settings are missing. */
export async function ensureAdminStatements(db: Db, env: Bindings): Promise<BatchStatement[]> {
  const { ADMIN_USERNAME: username, ADMIN_EMAIL: email, ADMIN_PASSWORD: password } = env;
  if (!username || !email || !password) return [];
  const time = now();
  const row: Record<string, unknown> = {
    username,
    email,
    password: await adminHash(password, env.PASSWORD_PEPPER),
    role: "admin",
    create_time: time,
    update_time: time,
  };
  // drizzle's D1 batch cannot carry a raw `db.run(sql)` with parameters, so this is an insert builder. Given a
  // SELECT as SQL it inserts every column in table order: the select lists them all, the rest at their defaults.
  const values = Object.entries(getTableColumns(users)).map(
    ([key, column]) => sql`${key in row ? row[key] : (column.default ?? null)}`,
  );
  return [
    db.insert(users).select(sql`SELECT ${sql.join(values, sql`, `)} WHERE NOT EXISTS (SELECT 1 FROM ${users})`),
    indexNewUser(db, username),
  ];
}

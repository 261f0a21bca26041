/**
 * Test data built straight into D1, one set per test (storage is reset after each). Users get a known
 * password and a ready token, so tests start from the state they need without going through mail.
 */
import { env } from "cloudflare:workers";
import { randomToken, sha256Hex } from "../../src/lib/crypto";
import { hashPassword } from "../../src/lib/password";
import { now } from "../../src/lib/time";
import { claimedToken } from "../../src/lib/token-claims";

export const DEFAULT_PASSWORD = "correct horse battery";
let defaultHash: Promise<string> | undefined;
let sequence = 0;

export interface TestUser {
  user_id: number;
  username: string;
  email: string;
  password: string;
  token: string;
}

export function uniqueName(prefix = "u"): string {
  sequence += 1;
  return `${prefix}${Date.now().toString(36)}${sequence}`.slice(0, 20);
}

/** A token as a login issues it, naming its holder (src/lib/token-claims.ts). */
export async function createToken(userId: number, lifetime = 15 * 86400): Promise<string> {
  const { role } = (await env.DB.prepare("SELECT role FROM users WHERE user_id = ?")
    .bind(userId)
    .first<{ role: string }>())!;
  const time = now();
  const claim = { userId, admin: role === "admin", issuedAt: time };
  const token = await claimedToken(claim, randomToken(), env.PASSWORD_PEPPER);
  await env.DB.prepare(
    "INSERT INTO tokens (token, user_id, device, create_time, update_time, expire_time) VALUES (?, ?, '', ?, ?, ?)",
  )
    .bind(await sha256Hex(token), userId, time, time, time + lifetime)
    .run();
  return token;
}

export async function createUser(
  fields: {
    username?: string;
    email?: string;
    password?: string;
    role?: "user" | "admin";
    disabled?: boolean;
    create_time?: number;
  } = {},
): Promise<TestUser> {
  const username = fields.username ?? uniqueName();
  const email = fields.email ?? `${username.toLowerCase()}@example.test`;
  const password = fields.password ?? DEFAULT_PASSWORD;
  const pepper = env.PASSWORD_PEPPER;
  let hash: string;
  if (password === DEFAULT_PASSWORD) {
    defaultHash ??= hashPassword(password, pepper);
    hash = await defaultHash;
  } else hash = await hashPassword(password, pepper);
  const time = fields.create_time ?? now();
  const row = await env.DB.prepare(
    `INSERT INTO users (username, email, password, role, create_time, update_time, last_login_time, disable_time)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING user_id`,
  )
    .bind(username, email, hash, fields.role ?? "user", time, time, time, fields.disabled ? time : 0)
    .first<{ user_id: number }>();
  const user_id = row!.user_id;
  return { user_id, username, email, password, token: fields.disabled ? "" : await createToken(user_id) };
}

export const createAdmin = (fields: Parameters<typeof createUser>[0] = {}) => createUser({ ...fields, role: "admin" });

export async function setOptions(values: Record<string, unknown>): Promise<void> {
  await env.DB.batch(
    Object.entries(values).map(([name, value]) =>
      env.DB.prepare(
        "INSERT INTO options (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
      ).bind(name, JSON.stringify(value)),
    ),
  );
  await env.KV.delete("options:v1");
}

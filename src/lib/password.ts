/**
 * Passwords (docs/auth.md#passwords). The official MDClub SDK sends the SHA-1 hex of the password, plain clients send
 * the password itself; both are normalised to that digest. The digest is keyed with the server's secret pepper
 * (HMAC-SHA-256 with PASSWORD_PEPPER), then stretched by salted PBKDF2-SHA-256, stored with its parameters
 * (`pbkdf2_sha256_hmac$<iterations>$<salt>$<hash>`) so the cost can rise later: a leaked database alone cannot
 * be cracked. Hashes from before the pepper (`pbkdf2_sha256$…`) still verify and are flagged for an upgrade.
 * 100 000 iterations is the most Workers' WebCrypto accepts in production.
 *
 * Accounts imported from MDClub (docs/migrating-from-mdclub.md#logins) keep MDClub's `password_hash(sha1(password))`,
 * a bcrypt string (`$2y$10$…`), until their first login: it verifies against the same digest and is flagged for an
 * upgrade, so the login's write batch replaces it. bcrypt costs ~120 ms in workerd, paid only by such rows.
 */
import { compare as bcryptCompare } from "bcryptjs";
import { validationError } from "../core/errors";
import { isCommonDigest } from "./common-passwords";
import { sha1Hex, timingSafeEqual, toHex } from "./crypto";

const ITERATIONS = 100_000;
const SCHEME = "pbkdf2_sha256_hmac";
const UNPEPPERED_SCHEME = "pbkdf2_sha256";
export const MIN_PASSWORD_LENGTH = 8;
const encoder = new TextEncoder();
const DIGEST = /^[0-9a-f]{40}$/i;
/** PHP's `password_hash` (MDClub): `$2y$`, and the `$2a$`/`$2b$` spellings of the same bcrypt. */
const BCRYPT = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;

export async function passwordDigest(password: string): Promise<string> {
  return DIGEST.test(password) ? password.toLowerCase() : sha1Hex(password);
}

/**
 * The pepper, or an error: without it a hash would be crackable from the database alone, and the hashes already
 * stored could not be checked, so the server refuses to hash or check passwords at all (a 500, logged).
 */
function requirePepper(pepper: string | undefined): string {
  if (!pepper) {
    throw new Error("PASSWORD_PEPPER is not set: refusing to hash or check passwords (docs/auth.md#passwords)");
  }
  return pepper;
}

let hmacKey: { pepper: string; key: Promise<CryptoKey> } | undefined;

async function peppered(digest: string, pepper: string): Promise<Uint8Array> {
  if (hmacKey?.pepper !== pepper) {
    const algorithm = { name: "HMAC", hash: "SHA-256" };
    const key = crypto.subtle.importKey("raw", encoder.encode(pepper), algorithm, false, ["sign"]);
    hmacKey = { pepper, key };
  }
  return new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey.key, encoder.encode(digest)));
}

async function pbkdf2(secret: Uint8Array, salt: Uint8Array, iterations: number): Promise<string> {
  const key = await crypto.subtle.importKey("raw", secret, "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, 256);
  return toHex(bits);
}

export async function hashPassword(password: string, pepper: string | undefined): Promise<string> {
  const secret = await peppered(await passwordDigest(password), requirePepper(pepper));
  const salt = crypto.getRandomValues(new Uint8Array(16));
  return `${SCHEME}$${ITERATIONS}$${toHex(salt)}$${await pbkdf2(secret, salt, ITERATIONS)}`;
}

export interface Verification {
  valid: boolean;
  /** The password is right and its hash should be replaced by `hashPassword`'s (no pepper, fewer iterations). */
  outdated: boolean;
}

export async function verifyPassword(
  password: string,
  stored: string,
  pepper: string | undefined,
): Promise<Verification> {
  const key = requirePepper(pepper);
  if (BCRYPT.test(stored)) {
    const valid = await bcryptCompare(await passwordDigest(password), stored);
    return { valid, outdated: valid };
  }
  const [scheme, iterations, saltHex, hash] = stored.split("$");
  const invalid = { valid: false, outdated: false };
  if ((scheme !== SCHEME && scheme !== UNPEPPERED_SCHEME) || !iterations || !saltHex || !hash) return invalid;
  const salt = new Uint8Array(saltHex.match(/../g)?.map((h) => Number.parseInt(h, 16)) ?? []);
  const digest = await passwordDigest(password);
  const secret = scheme === SCHEME ? await peppered(digest, key) : encoder.encode(digest);
  if (!timingSafeEqual(await pbkdf2(secret, salt, Number(iterations)), hash)) return invalid;
  return { valid: true, outdated: scheme !== SCHEME || Number(iterations) < ITERATIONS };
}

/**
 * Refuses a new password (registration, reset) that is short or common, as 200001 `errors.password`. A plain
 * password is compared as typed and lower-cased (the list is lower-case, so `Password1` counts as `password1`);
 * the SDK's digest can only be compared as sent. The length of a digest cannot be measured. Logins never apply
 * this: accounts with older, weaker passwords must still get in.
 */
export async function assertAcceptablePassword(password: string): Promise<void> {
  const plain = !DIGEST.test(password);
  if (plain && [...password].length < MIN_PASSWORD_LENGTH) {
    throw validationError({ password: `must be at least ${MIN_PASSWORD_LENGTH} characters` });
  }
  const digests = plain ? [await sha1Hex(password), await sha1Hex(password.toLowerCase())] : [password.toLowerCase()];
  if (digests.some(isCommonDigest)) {
    throw validationError({ password: "is one of the most common passwords: choose another" });
  }
}

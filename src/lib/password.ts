/**
 * Passwords (DECISIONS.md): the official MDClub SDK sends the SHA-1 hex of the password, plain clients send the
 * password itself. Both are normalised to that digest, and the digest is stored as salted PBKDF2-SHA-256 with
 * its parameters in the string (`pbkdf2_sha256$<iterations>$<salt>$<hash>`) so the cost can rise later.
 * 100 000 iterations is the most Workers' WebCrypto accepts in production.
 */
import { sha1Hex, timingSafeEqual, toHex } from "./crypto";

const ITERATIONS = 100_000;
const encoder = new TextEncoder();

export async function passwordDigest(password: string): Promise<string> {
  return /^[0-9a-f]{40}$/i.test(password) ? password.toLowerCase() : sha1Hex(password);
}

async function pbkdf2(digest: string, salt: Uint8Array, iterations: number): Promise<string> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(digest), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, 256);
  return toHex(bits);
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hash = await pbkdf2(await passwordDigest(password), salt, ITERATIONS);
  return `pbkdf2_sha256$${ITERATIONS}$${toHex(salt)}$${hash}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, iterations, saltHex, hash] = stored.split("$");
  if (scheme !== "pbkdf2_sha256" || !iterations || !saltHex || !hash) return false;
  const salt = new Uint8Array(saltHex.match(/../g)?.map((h) => Number.parseInt(h, 16)) ?? []);
  const actual = await pbkdf2(await passwordDigest(password), salt, Number(iterations));
  return timingSafeEqual(actual, hash);
}

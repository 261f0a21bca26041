/**
 * Tokens that name their holder (docs/auth.md#what-a-claim-may-do): `<user_id>.<a|u>.<issued>.<random>.<mac>`, the
 * issue time in Unix seconds, the MAC an HMAC-SHA-256 (truncated to 128 bits) of the rest under a key derived from
 * PASSWORD_PEPPER. The claim lets a request build its queries for its caller before D1 has confirmed the token (the
 * check rides in the same batch, and a claim it contradicts costs a second try, never a wrong answer), and lets the
 * write limits count a caller without a round trip. A claim lasts as long as a token unused since its login would:
 * it cannot outlive its token, and one past that time, or issued in the future, names nobody. A token without a
 * valid claim (one imported from MDClub, an older shape, another key) is still a token: it is checked first.
 */
import { timingSafeEqual, toHex } from "./crypto";

/** Tokens last 15 days from their last use (docs/decisions.md#tokens-are-stored-hashed-and-expire). */
export const TOKEN_LIFETIME = 15 * 86400;

/** How far ahead of this Worker's clock an issue time may be (another machine's clock issued it). */
const CLOCK_SKEW = 300;

export interface TokenClaim {
  userId: number;
  admin: boolean;
  /** Unix seconds of the login that issued the token. */
  issuedAt: number;
}

const encoder = new TextEncoder();
const MAC_HEX = 32;
const keys = new Map<string, Promise<CryptoKey>>();

/** A key for `purpose`: the pepper's HMAC of a fixed label, so that it is no password hash's key. */
export function derivedKey(pepper: string, purpose: string): Promise<CryptoKey> {
  const name = `${purpose}\u0000${pepper}`;
  let key = keys.get(name);
  if (!key) {
    key = (async () => {
      const pepperKey = await crypto.subtle.importKey(
        "raw",
        encoder.encode(pepper),
        { name: "HMAC", hash: "SHA-256" },
        false,
        ["sign"],
      );
      const derived = await crypto.subtle.sign("HMAC", pepperKey, encoder.encode(purpose));
      return crypto.subtle.importKey("raw", derived, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    })();
    keys.set(name, key);
  }
  return key;
}

/** The truncated HMAC of `body` under `key`, as hex. */
export async function macHex(key: Promise<CryptoKey>, body: string): Promise<string> {
  return toHex(await crypto.subtle.sign("HMAC", await key, encoder.encode(body))).slice(0, MAC_HEX);
}

const claimKey = (pepper: string) => derivedKey(pepper, "mdclub-edge token claims v1");

/** `random` (the token's secret part) under a claim; the random part alone when there is no pepper to sign with. */
export async function claimedToken(claim: TokenClaim, random: string, pepper: string | undefined): Promise<string> {
  if (!pepper) return random;
  const body = `${claim.userId}.${claim.admin ? "a" : "u"}.${claim.issuedAt}.${random}`;
  return `${body}.${await macHex(claimKey(pepper), body)}`;
}

const SHAPE = /^([1-9][0-9]{0,15})\.([au])\.([0-9]{1,12})\.([0-9a-f]{16,128})\.([0-9a-f]{32})$/;

/** The claim a token makes at `time`, when its MAC holds and it is within its lifetime; null for any other token. */
export async function readClaim(token: string, pepper: string | undefined, time: number): Promise<TokenClaim | null> {
  const parts = pepper ? SHAPE.exec(token) : null;
  if (!parts || !pepper) return null;
  const [, id, role, issued, random, given] = parts;
  const issuedAt = Number(issued);
  if (issuedAt > time + CLOCK_SKEW || issuedAt + TOKEN_LIFETIME <= time) return null;
  const valid = timingSafeEqual(await macHex(claimKey(pepper), `${id}.${role}.${issued}.${random}`), given as string);
  return valid ? { userId: Number(id), admin: role === "a", issuedAt } : null;
}

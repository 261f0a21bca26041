/**
 * Tokens that name their holder (docs/performance.md#one-round-trip): `<user_id>.<a|u>.<random>.<mac>`, the MAC an
 * HMAC-SHA-256 (truncated to 128 bits) of the rest under a key derived from PASSWORD_PEPPER. The claim lets a
 * request build its queries for its caller before D1 has confirmed the token: the check rides in the same batch,
 * and a claim it contradicts (a revoked or expired token, a disabled user, a changed role) costs a second try,
 * never a wrong answer. Forging a claim needs the key, so nobody can spend another user's write limits with one.
 * A token without a valid claim (an older token, another key) is still a token: it is checked first, as before.
 */
import { timingSafeEqual, toHex } from "./crypto";

export interface TokenClaim {
  userId: number;
  admin: boolean;
}

const encoder = new TextEncoder();
const MAC_HEX = 32;
const keys = new Map<string, Promise<CryptoKey>>();

/** The claims key: the pepper's HMAC of a fixed label, so that it is no password hash's key. */
function claimKey(pepper: string): Promise<CryptoKey> {
  let key = keys.get(pepper);
  if (!key) {
    key = (async () => {
      const pepperKey = await crypto.subtle.importKey(
        "raw",
        encoder.encode(pepper),
        { name: "HMAC", hash: "SHA-256" },
        false,
        ["sign"],
      );
      const derived = await crypto.subtle.sign("HMAC", pepperKey, encoder.encode("mdclub-edge token claims v1"));
      return crypto.subtle.importKey("raw", derived, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    })();
    keys.set(pepper, key);
  }
  return key;
}

async function mac(body: string, pepper: string): Promise<string> {
  const signature = await crypto.subtle.sign("HMAC", await claimKey(pepper), encoder.encode(body));
  return toHex(signature).slice(0, MAC_HEX);
}

/** `random` (the token's secret part) under a claim; the random part alone when there is no pepper to sign with. */
export async function claimedToken(claim: TokenClaim, random: string, pepper: string | undefined): Promise<string> {
  if (!pepper) return random;
  const body = `${claim.userId}.${claim.admin ? "a" : "u"}.${random}`;
  return `${body}.${await mac(body, pepper)}`;
}

const SHAPE = /^([1-9][0-9]{0,15})\.([au])\.([0-9a-f]{16,128})\.([0-9a-f]{32})$/;

/** The claim a token makes, when its MAC holds; null for any other token. */
export async function readClaim(token: string, pepper: string | undefined): Promise<TokenClaim | null> {
  const parts = pepper ? SHAPE.exec(token) : null;
  if (!parts || !pepper) return null;
  const [, id, role, random, given] = parts;
  const valid = timingSafeEqual(await mac(`${id}.${role}.${random}`, pepper), given as string);
  return valid ? { userId: Number(id), admin: role === "a" } : null;
}

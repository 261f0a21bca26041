/**
 * The most common passwords (README, Security): a sorted set of the first 32 bits of their SHA-1 digests, built
 * by scripts/build-common-passwords.mjs. Every password reaches the server as its SHA-1 hex or is turned into
 * it (lib/password.ts), so one lookup of the digest's prefix covers both. A strong password shares a prefix
 * with one of the 10 000 by chance with a probability of about 2e-6.
 */
import { COMMON_PASSWORD_COUNT, COMMON_PASSWORD_PREFIXES, RICE_BITS } from "./common-passwords.data";

let prefixes: Uint32Array | undefined;

/** Decodes the Rice-coded differences once per isolate (about 10 000 numbers). */
function decode(): Uint32Array {
  const bytes = Uint8Array.from(atob(COMMON_PASSWORD_PREFIXES), (ch) => ch.charCodeAt(0));
  const out = new Uint32Array(COMMON_PASSWORD_COUNT);
  let bit = 0;
  const next = () => ((bytes[bit >> 3] as number) >> (7 - (bit++ & 7))) & 1;
  let value = 0;
  for (let n = 0; n < COMMON_PASSWORD_COUNT; n++) {
    let high = 0;
    while (next()) high++;
    let low = 0;
    for (let i = 0; i < RICE_BITS; i++) low = low * 2 + next();
    value += high * 2 ** RICE_BITS + low;
    out[n] = value;
  }
  return out;
}

/** True when the SHA-1 hex `digest` starts like the digest of a common password. */
export function isCommonDigest(digest: string): boolean {
  const list = (prefixes ??= decode());
  const key = Number.parseInt(digest.slice(0, 8), 16);
  let [low, high] = [0, list.length - 1];
  while (low <= high) {
    const middle = (low + high) >> 1;
    const value = list[middle] as number;
    if (value === key) return true;
    if (value < key) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

/**
 * The most common passwords (docs/security.md#common-passwords): a sorted set of the first 32 bits of their SHA-1
 * digests, built by scripts/build-common-passwords.mjs. Every password reaches the server as its SHA-1 hex or is turned
 * into it (lib/password.ts), so one lookup of the digest's prefix covers both. A strong password shares a prefix with
 * one of the 10 000 by chance with a probability of about 2e-6.
 */
import { COMMON_PASSWORD_COUNT, COMMON_PASSWORD_PREFIXES, RICE_BITS } from "./common-passwords.data";

let prefixes: Uint32Array | undefined;

/** Decodes the Rice-coded differences, once per isolate and only when a new password is checked. */
function decode(): Uint32Array {
  const text = atob(COMMON_PASSWORD_PREFIXES);
  // Padded, so that reading 4 bytes from the last bit never runs past the end.
  const bytes = new Uint8Array(text.length + 4);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  const byte = (i: number) => bytes[i] as number;
  /** The 32 bits from bit `at` on, as an unsigned number (the last up to 7 of them are zeros). */
  const word = (at: number) => {
    const i = at >> 3;
    return (((byte(i) << 24) | (byte(i + 1) << 16) | (byte(i + 2) << 8) | byte(i + 3)) << (at & 7)) >>> 0;
  };
  const out = new Uint32Array(COMMON_PASSWORD_COUNT);
  let bit = 0;
  let value = 0;
  for (let n = 0; n < COMMON_PASSWORD_COUNT; n++) {
    let high = 0;
    while (word(bit) >= 0x8000_0000) {
      high++;
      bit++;
    }
    const low = word(bit + 1) >>> (32 - RICE_BITS);
    bit += 1 + RICE_BITS;
    value += high * 2 ** RICE_BITS + low;
    out[n] = value;
  }
  return out;
}

/** True when the SHA-1 hex `digest` starts like the digest of a common password. */
export function isCommonDigest(digest: string): boolean {
  prefixes ??= decode();
  const list = prefixes;
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

/** WebCrypto helpers: digests, unguessable tokens and codes, constant-time comparison. */
const encoder = new TextEncoder();

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

/** Lower-case hex; every request hashes its token and its answer, so this is a table lookup per byte. */
export function toHex(bytes: ArrayBuffer | Uint8Array): string {
  let hex = "";
  for (const byte of new Uint8Array(bytes)) hex += HEX[byte];
  return hex;
}

export async function sha256Hex(value: string): Promise<string> {
  return toHex(await crypto.subtle.digest("SHA-256", encoder.encode(value)));
}

export async function sha1Hex(value: string): Promise<string> {
  return toHex(await crypto.subtle.digest("SHA-1", encoder.encode(value)));
}

/** 32 random bytes as hex: the token a client holds. */
export function randomToken(): string {
  return toHex(crypto.getRandomValues(new Uint8Array(32)));
}

/** A random string over `alphabet`, without modulo bias. */
export function randomString(length: number, alphabet: string): string {
  const out: string[] = [];
  const limit = 256 - (256 % alphabet.length);
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < limit && out.length < length) out.push(alphabet[byte % alphabet.length] as string);
    }
  }
  return out.join("");
}

export function timingSafeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

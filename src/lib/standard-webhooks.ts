/**
 * Standard Webhooks signing (https://www.standardwebhooks.com, docs/events.md#verifying-a-signature): a secret is
 * `whsec_` and the base64 of its key; a signature is `v1,` and the base64 HMAC-SHA-256, under that key, of
 * `<webhook-id>.<webhook-timestamp>.<body>`. The specification's libraries verify what this makes.
 */
const encoder = new TextEncoder();

const PREFIX = "whsec_";

const toBase64 = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes));

/** A new secret: 32 random bytes (the specification asks for 24 to 64). */
export const newSecret = (): string => PREFIX + toBase64(crypto.getRandomValues(new Uint8Array(32)));

async function keyOf(secret: string): Promise<CryptoKey> {
  const raw = Uint8Array.from(atob(secret.slice(PREFIX.length)), (char) => char.charCodeAt(0));
  return crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

/** `v1,<base64>` for one secret. */
export async function sign(secret: string, id: string, timestamp: number, body: string): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", await keyOf(secret), encoder.encode(`${id}.${timestamp}.${body}`));
  return `v1,${toBase64(new Uint8Array(mac))}`;
}

/** The `webhook-signature` header: one signature per secret, space-separated (two while a rotation runs). */
export async function signatureHeader(secrets: string[], id: string, timestamp: number, body: string): Promise<string> {
  return (await Promise.all(secrets.map((secret) => sign(secret, id, timestamp, body)))).join(" ");
}

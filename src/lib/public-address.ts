/**
 * Where webhooks may be sent (docs/events.md#where-webhooks-may-go): a request made on an administrator's behalf
 * must not reach the Worker's own network. Only https, to a name or a public address: no loopback, private,
 * link-local, shared (CGNAT), multicast or reserved address, no local name (`localhost`, `*.local`, `*.internal`, a
 * name without a dot), no credentials in the URL. The URL parser has already turned other spellings of an address
 * (`2130706433`, `0x7f.1`, `[::ffff:127.0.0.1]`) into the standard ones checked here. `allowLocal` (the development
 * switch WEBHOOK_ALLOW_LOCAL) permits http and local addresses, for a receiver on the developer's machine.
 */

/** IPv4 ranges that are not the public internet: [first octets as a number, prefix length]. */
const PRIVATE_V4: [number, number][] = [
  [0x00000000, 8], // "this" network
  [0x0a000000, 8], // private
  [0x64400000, 10], // shared address space (CGNAT)
  [0x7f000000, 8], // loopback
  [0xa9fe0000, 16], // link-local (cloud metadata services live here)
  [0xac100000, 12], // private
  [0xc0000000, 24], // IETF protocol assignments
  [0xc0000200, 24], // documentation
  [0xc0a80000, 16], // private
  [0xc6120000, 15], // benchmarking
  [0xc6336400, 24], // documentation
  [0xcb007100, 24], // documentation
  [0xe0000000, 3], // multicast and reserved, up to the broadcast address
];

function v4Number(host: string): number | null {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return null;
  return parts.reduce((value, part) => value * 256 + Number(part), 0);
}

const inV4Range = (value: number, [base, bits]: [number, number]) =>
  Math.floor(value / 2 ** (32 - bits)) === Math.floor(base / 2 ** (32 - bits));

const privateV4 = (value: number) => PRIVATE_V4.some((range) => inV4Range(value, range));

/** An IPv6 literal (without brackets) that is not a global unicast address, or that maps a private IPv4 one. */
function privateV6(host: string): boolean {
  const lower = host.toLowerCase();
  if (lower === "::" || lower === "::1") return true;
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (mapped)
    return privateV4(Number.parseInt(mapped[1] as string, 16) * 65536 + Number.parseInt(mapped[2] as string, 16));
  const first = Number.parseInt(lower.split(":")[0] || "0", 16);
  // Only 2000::/3 is global unicast; within it, documentation (2001:db8::/32) is not reachable either.
  return (first & 0xe000) !== 0x2000 || lower.startsWith("2001:db8:");
}

const LOCAL_NAMES = /(^|\.)(localhost|local|internal|localdomain|home\.arpa|lan)$/i;

/** Why `url` may not receive webhooks, or null when it may. */
export function refusedUrl(url: string, allowLocal: boolean): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "not a URL";
  }
  if (parsed.protocol !== "https:" && !(allowLocal && parsed.protocol === "http:")) return "must be an https URL";
  if (parsed.username || parsed.password) return "must not carry a user name or password";
  if (allowLocal) return null;
  const host = parsed.hostname;
  if (host.startsWith("[")) return privateV6(host.slice(1, -1)) ? "must not be a private or local address" : null;
  const v4 = v4Number(host);
  if (v4 !== null) return privateV4(v4) ? "must not be a private or local address" : null;
  if (!host.includes(".") || LOCAL_NAMES.test(host)) return "must not be a local name";
  return null;
}

/**
 * Where a request comes from (docs/decisions.md#client-address-and-location): the IP Cloudflare saw
 * (`CF-Connecting-IP`, which Cloudflare sets and overwrites; `X-Forwarded-For` only matters where no Cloudflare edge is
 * in front, as in local runs) and a place from the request's geo data instead of the original's Chinese IP database.
 */

export interface ClientInfo {
  ip: string;
  /** "country region city", the parts that are known, or ''. */
  location: string;
}

// The reference's column sizes (docs/data-model.md#users): headers are client input and end up in rows.
const MAX_IP = 80;
const MAX_LOCATION = 100;

export function clientInfo(request: Request): ClientInfo {
  const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0];
  const ip = (request.headers.get("cf-connecting-ip") ?? forwarded ?? "").trim().slice(0, MAX_IP);
  const cf = request.cf as { country?: unknown; region?: unknown; city?: unknown } | undefined;
  const parts = [cf?.country, cf?.region, cf?.city].filter(
    (part): part is string => typeof part === "string" && part !== "",
  );
  return { ip, location: parts.join(" ").slice(0, MAX_LOCATION) };
}

/**
 * The key under which an IP's requests are counted (docs/security.md#guessing). An IPv6 client usually holds a whole
 * /64 and can change address within it at will, so IPv6 addresses count by their /64 (`2001:db8:0:1::/64`);
 * IPv4 addresses (also when written IPv4-mapped, `::ffff:192.0.2.1`) count one by one. Anything unparsable
 * is its own key.
 */
export function throttleKey(ip: string): string {
  const address = ip.trim().toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(address);
  if (mapped) return mapped[1] as string;
  if (!address.includes(":") || !/^[0-9a-f:.]+$/.test(address)) return address;
  const halves = address.split("::");
  if (halves.length > 2) return address;
  const groups = (half: string | undefined) => (half ? half.split(":") : []);
  const [head, tail] = [groups(halves[0]), groups(halves[1])];
  // An embedded IPv4 tail (`64:ff9b::192.0.2.1`) is two groups; only the first four groups matter here.
  const missing = 8 - head.length - tail.length - (tail.at(-1)?.includes(".") || head.at(-1)?.includes(".") ? 1 : 0);
  if (halves.length === 1 ? missing !== 0 : missing < 1) return address;
  const full = [...head, ...Array.from({ length: halves.length === 2 ? missing : 0 }, () => "0"), ...tail];
  const prefix = full.slice(0, 4);
  if (prefix.some((group) => !/^[0-9a-f]{1,4}$/.test(group))) return address;
  return `${prefix.map((group) => Number.parseInt(group, 16).toString(16)).join(":")}::/64`;
}

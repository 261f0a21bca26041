/**
 * Where a request comes from (DECISIONS.md): the IP Cloudflare saw (`CF-Connecting-IP`, which Cloudflare sets
 * and overwrites; `X-Forwarded-For` only matters where no Cloudflare edge is in front, as in local runs) and a
 * place from the request's geo data instead of the original's Chinese IP database.
 */

export interface ClientInfo {
  ip: string;
  /** "country region city", the parts that are known, or ''. */
  location: string;
}

// The reference's column sizes (behaviour.md section 1): headers are client input and end up in rows.
const MAX_IP = 80;
const MAX_LOCATION = 100;

export function clientInfo(request: Request): ClientInfo {
  const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0];
  const ip = (request.headers.get("cf-connecting-ip") ?? forwarded ?? "").trim().slice(0, MAX_IP);
  const cf = request.cf as { country?: unknown; region?: unknown; city?: unknown } | undefined;
  const parts = [cf?.country, cf?.region, cf?.city].filter((part): part is string => typeof part === "string" && part !== "");
  return { ip, location: parts.join(" ").slice(0, MAX_LOCATION) };
}

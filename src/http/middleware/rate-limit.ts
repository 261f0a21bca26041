/**
 * Applies the write limits of lib/rate-limit.ts, and its limits of the reads it lists (docs/security.md#write-limits):
 * before the body is read and before the route runs, so a refused request is 429 (100002) with `Retry-After` and
 * changes and reads nothing. Limits count only callers that were checked (docs/auth.md#what-a-claim-may-do): a caller
 * D1 confirmed, or a claim whose MAC and issue time hold and that KV does not list as revoked. A revoked claim is
 * checked by D1 before it counts; anyone else is counted by their address alone, whatever token they send.
 * Administrators are not counted: they clean up after a spam wave in bursts, and a stolen administrator token can do
 * worse than write fast. An address is counted only when the request has one (on Cloudflare it always has).
 */
import type { Context, MiddlewareHandler } from "hono";
import { type CallerId, isAdmin } from "../../core/caller";
import { ApiError } from "../../core/errors";
import { settle } from "../../db/client";
import { clientInfo, throttleKey } from "../../lib/client-info";
import { CATEGORY_OF_ROUTE, LIMIT_PERIOD, LIMITERS, limitCategory } from "../../lib/rate-limit";
import type { AppEnv } from "../app-env";
import { claimRevoked } from "../auth/revocation";
import { confirmedCaller, isClaimed } from "../auth/token-check";
import { isRead, routeKey, writeRoute } from "./route-key";

/** A read that lib/rate-limit.ts counts (a search): its route key; null for every other read. */
function countedRead(c: Context<AppEnv>): string | null {
  if (!isRead(c.req.method)) return null;
  const route = routeKey(c);
  return route && CATEGORY_OF_ROUTE.has(route) ? route : null;
}

/** The caller the limits may count: checked, by D1 or against the revocations; null for anyone else. */
async function countedCaller(c: Context<AppEnv>): Promise<CallerId | null> {
  const caller = c.get("caller");
  const claim = c.get("credential")?.claim;
  if (!isClaimed(caller) || !claim) return caller;
  if (!(await claimRevoked(c.env, c.get("tokenHash") as string, claim))) return caller;
  // Almost always a dead token: D1 says who it is, if anyone, before anything counts it.
  await settle(c.get("db"));
  return confirmedCaller(c);
}

export const rateLimit: MiddlewareHandler<AppEnv> = async (c, next) => {
  const route = writeRoute(c) ?? countedRead(c);
  if (!route) return next();
  const caller = await countedCaller(c);
  if (isAdmin(caller)) return next();
  const limiters = LIMITERS[limitCategory(route)];
  const ip = clientInfo(c.req.raw).ip;
  const outcomes = await Promise.all([
    caller && limiters.user ? c.env[limiters.user]?.limit({ key: `user:${caller.user_id}` }) : undefined,
    ip ? c.env[limiters.ip]?.limit({ key: `ip:${throttleKey(ip)}` }) : undefined,
  ]);
  if (outcomes.some((outcome) => outcome && !outcome.success)) {
    throw new ApiError("TOO_MANY_REQUESTS", { headers: { "Retry-After": String(LIMIT_PERIOD) } });
  }
  await next();
};

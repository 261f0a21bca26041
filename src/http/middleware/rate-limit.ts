/**
 * Applies the write limits of lib/rate-limit.ts, and its limits of the reads it lists: after the caller is known,
 * before the body is read and before the route runs, so a refused request is 429 (100002) with `Retry-After` and
 * changes and reads nothing. Administrators
 * are not counted: they clean up after a spam wave in bursts, and a stolen administrator token can do worse
 * than write fast. An address is counted only when the request has one (on Cloudflare it always has).
 */
import type { Context, MiddlewareHandler } from "hono";
import { isAdmin } from "../../core/caller";
import { ApiError } from "../../core/errors";
import { clientInfo, throttleKey } from "../../lib/client-info";
import { CATEGORY_OF_ROUTE, LIMIT_PERIOD, LIMITERS, limitCategory } from "../../lib/rate-limit";
import type { AppEnv } from "../app-env";
import { isRead, routeKey, writeRoute } from "./route-key";

/** A read that lib/rate-limit.ts counts (a search): its route key; null for every other read. */
function countedRead(c: Context<AppEnv>): string | null {
  if (!isRead(c.req.method)) return null;
  const route = routeKey(c);
  return route && CATEGORY_OF_ROUTE.has(route) ? route : null;
}

export const rateLimit: MiddlewareHandler<AppEnv> = async (c, next) => {
  const route = writeRoute(c) ?? countedRead(c);
  const caller = c.get("caller");
  if (!route || isAdmin(caller)) return next();
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

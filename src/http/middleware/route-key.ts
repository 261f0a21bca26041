/** Which route a write will reach, before its handler runs: the key the write tables below are indexed by. */
import type { Context } from "hono";
import { matchedRoutes } from "hono/route";

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Methods that change nothing: no write limit, no body, and the cookie may authenticate them. */
export const isRead = (method: string): boolean => READS.has(method);

/** The route a request reached (its handler, not a middleware), as registered: `/api/questions/:question_id`. */
export function matchedRoute(c: Context): { method: string; path: string } | null {
  return matchedRoutes(c).findLast((candidate) => candidate.method !== "ALL") ?? null;
}

/**
 * `"POST /api/questions/:question_id/comments"` for a write to a known route (the method after
 * `X-Http-Method-Override`); null for reads and for paths no route serves (they answer 100004 or 100005).
 */
export function writeRoute(c: Context): string | null {
  return isRead(c.req.method) ? null : routeKey(c);
}

/** `"GET /api/search"`: the method and path of the route a request reaches, whatever its method; null for none. */
export function routeKey(c: Context): string | null {
  const route = matchedRoute(c);
  return route ? `${route.method} ${route.path}` : null;
}

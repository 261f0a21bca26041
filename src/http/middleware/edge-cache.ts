/**
 * The anonymous edge cache (docs/decisions.md#anonymous-reads-are-cached-at-the-edge): an anonymous GET or HEAD
 * under /api is answered from the data centre's Cache API for `EDGE_CACHE_SECONDS`, and a successful write that
 * changes what anonymous readers see purges every answer cached in its data centre. It runs before the request's
 * context is resolved, so a hit costs no D1 and no KV, and it tells anonymous requests by their headers alone. An
 * answer is kept under its path and the query parameters its route reads, so a parameter the route ignores cannot
 * make a request miss.
 */
import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { etagMatches } from "../../lib/etag";
import { type LimitCategory, limitCategory } from "../../lib/rate-limit";
import type { AppEnv } from "../app-env";
import { credentialOf } from "../credential";
import { matchedRoute, writeRoute } from "./route-key";

/**
 * The Cache API deletes only exact URLs, and a list has one for every query string, so an answer is kept under
 * its URL plus the current generation, stored at this path of the same origin. A write replaces the generation
 * with a fresh random one, which orphans every answer at once; they expire unread.
 */
const GENERATION = "/api/edge-cache/generation";

export const openEdgeCache = () => caches.open("edge-cache");

/** The query parameters a GET route reads, by its Hono path (`/api/questions/:question_id`). */
export type QueryNames = (path: string) => ReadonlySet<string> | undefined;

/**
 * The URL an answer is kept under: the path and the parameters the route reads, sorted by name (each name's values
 * in the order sent). A route whose parameters are not known keeps the query as sent.
 */
export function cacheUrl(url: string, names: ReadonlySet<string> | undefined): string {
  const parsed = new URL(url);
  if (!names) return parsed.href;
  const kept = [...parsed.searchParams].filter(([name]) => names.has(name));
  kept.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  parsed.search = new URLSearchParams(kept).toString();
  return parsed.href;
}

/** Where the answer to `url` is kept now ("0" is the generation before the first write, or once the cache lost it). */
export async function entryKey(cache: Cache, url: string): Promise<string> {
  const generation = (await (await cache.match(new URL(GENERATION, url).href))?.text()) ?? "0";
  return `${url}${url.includes("?") ? "&" : "?"}edge-cache=${generation}`;
}

/**
 * A token in any form means an answer for one caller; a D1 bookmark asks for a state at least as new as that
 * client's last write. Either way D1 answers, and nothing is stored.
 */
const personal = (c: Context) =>
  credentialOf(c.req.raw.headers) !== null || c.req.header("x-d1-bookmark") !== undefined;

/** A copy with only what every caller may get: cookies, timings, CORS and bookmarks belong to one request. */
function shared(from: Response, body: ReadableStream | null, headers: Record<string, string> = {}): Response {
  for (const name of ["content-type", "etag"]) {
    const value = from.headers.get(name);
    if (value) headers[name] = value;
  }
  return new Response(body, { headers });
}

/** A 200 of a route (an error sent as 200 under LEGACY_ERROR_STATUS has `c.error`) that no one made private. */
const storable = (c: Context, res: Response) =>
  res.status === 200 &&
  !c.error &&
  res.headers.has("etag") &&
  !res.headers.has("set-cookie") &&
  !/private|no-store|no-cache/i.test(res.headers.get("cache-control") ?? "");

/**
 * Writes that purge nothing. Captchas and code mails change nothing that anyone reads, and anyone may ask for them:
 * were they to purge, any visitor could keep a data centre's cache empty. Reports are read by administrators only.
 * Votes and follows, the most frequent writes, change counters only: an anonymous reader sees them once the copies
 * expire, as readers in other data centres do anyway (docs/decisions.md#anonymous-reads-are-cached-at-the-edge).
 * Private messages, read-marks and blocks change nothing an anonymous reader sees (docs/messages.md#privacy), nor
 * does a live ticket.
 */
const UNSEEN: ReadonlySet<LimitCategory> = new Set([
  "captchas",
  "mails",
  "reports",
  "votes",
  "follows",
  "messages",
  "inbox",
  "live",
]);

/**
 * Route middleware that marks a write of the other categories as changing only what its own caller reads (a login,
 * a logout, notifications marked read or deleted): it does nothing itself, the cache reads the mark.
 */
export const unseenWrite: MiddlewareHandler<AppEnv> = (_c, next) => next();

const purges = (c: Context, route: string) =>
  !UNSEEN.has(limitCategory(route)) && !matchedRoutes(c).some((match) => match.handler === unseenWrite);

/**
 * Awaited by the write, so its client learns of it only once anonymous readers here see it. A failed purge
 * leaves answers stale for at most their lifetime, and must not fail a write that is already committed.
 */
async function purge(url: string): Promise<void> {
  const generation = new Response(crypto.randomUUID(), { headers: { "cache-control": "max-age=86400" } });
  await (await openEdgeCache()).put(new URL(GENERATION, url).href, generation).catch((e) => console.error("purge", e));
}

/** The edge cache, keyed by the query parameters each route reads (`queryNames`, from the OpenAPI routes). */
export const edgeCache =
  (queryNames: QueryNames): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const seconds = Math.floor(Number(c.env.EDGE_CACHE_SECONDS) || 0);
    if (seconds <= 0) return next();
    if (c.req.method !== "GET" && c.req.method !== "HEAD") {
      await next();
      const route = writeRoute(c);
      if (route && c.res.status < 400 && !c.error && purges(c, route)) await purge(c.req.url);
      return;
    }
    if (personal(c)) return next();

    const cache = await openEdgeCache();
    const route = matchedRoute(c);
    const key = await entryKey(cache, cacheUrl(c.req.url, route ? queryNames(route.path) : undefined));
    const hit = await cache.match(key);
    if (!hit) {
      await next();
      if (storable(c, c.res)) {
        // Only the stored copy has a lifetime: the client's answer has no Cache-Control, as with the cache off.
        const copy = shared(c.res, c.res.clone().body, { "cache-control": `max-age=${seconds}` });
        c.executionCtx.waitUntil(cache.put(key, copy));
      }
    } else {
      const etag = hit.headers.get("etag") ?? "";
      if (etagMatches(c.req.header("if-none-match"), etag)) {
        await hit.body?.cancel();
        c.res = new Response(null, { status: 304, headers: { etag } });
      } else c.res = shared(hit, hit.body);
    }
    if (c.env.SERVER_TIMING !== "false")
      c.res.headers.append("Server-Timing", `edge-cache;desc="${hit ? "hit" : "miss"}"`);
  };

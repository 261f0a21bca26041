/**
 * The anonymous edge cache (docs/decisions.md#anonymous-reads-are-cached-at-the-edge): an anonymous GET or HEAD
 * under /api is answered from the data centre's Cache API for `EDGE_CACHE_SECONDS`, and a successful write purges
 * every answer cached in its data centre. It runs before `requestContext`, so a hit costs no D1 and no KV, and it
 * tells anonymous requests by their headers alone.
 */
import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { etagMatches } from "../../lib/etag";
import { type LimitCategory, limitCategory } from "../../lib/rate-limit";
import type { AppEnv } from "../app-env";
import { writeRoute } from "./route-key";

/**
 * The Cache API deletes only exact URLs, and a list has one for every query string, so an answer is kept under
 * its URL plus the current generation, stored at this path of the same origin. A write replaces the generation
 * with a fresh random one, which orphans every answer at once; they expire unread.
 */
const GENERATION = "/api/edge-cache/generation";

export const openEdgeCache = () => caches.open("edge-cache");

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
  ["token", "authorization", "x-d1-bookmark"].some((name) => c.req.header(name)) || getCookie(c, "token") !== undefined;

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
 * Captchas and code mails change nothing that anyone reads, and anyone may ask for them: were they to purge, any
 * visitor could keep a data centre's cache empty.
 */
const UNSEEN: ReadonlySet<LimitCategory> = new Set(["captchas", "mails"]);

/**
 * Awaited by the write, so its client learns of it only once anonymous readers here see it. A failed purge
 * leaves answers stale for at most their lifetime, and must not fail a write that is already committed.
 */
async function purge(url: string): Promise<void> {
  const generation = new Response(crypto.randomUUID(), { headers: { "cache-control": "max-age=86400" } });
  await (await openEdgeCache()).put(new URL(GENERATION, url).href, generation).catch((e) => console.error("purge", e));
}

export const edgeCache: MiddlewareHandler<AppEnv> = async (c, next) => {
  const seconds = Math.floor(Number(c.env.EDGE_CACHE_SECONDS) || 0);
  if (seconds <= 0) return next();
  if (c.req.method !== "GET" && c.req.method !== "HEAD") {
    await next();
    const route = writeRoute(c);
    if (route && c.res.status < 400 && !c.error && !UNSEEN.has(limitCategory(route))) await purge(c.req.url);
    return;
  }
  if (personal(c)) return next();

  const cache = await openEdgeCache();
  const key = await entryKey(cache, c.req.url);
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

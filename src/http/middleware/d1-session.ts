/**
 * D1 read replication through the Sessions API (docs/performance.md#read-replicas-and-bookmarks). Every request
 * runs in a session: a read starts at the nearest replica (`first-unconstrained`), a write at the primary, and a
 * request that names a bookmark reads a state at least as new as it. The bookmark comes from the `x-d1-bookmark`
 * header a client echoes, or else from the caller's last write, kept in KV for a minute under the token's hash, so
 * that a client that knows nothing of bookmarks (the MDClub SDK) still reads its own writes. Only a replica can be
 * behind that write: a read the primary answered needs no look at KV, and one a replica answered is served again
 * from the write's bookmark when there is one. An isolate that has seen a replica answer looks the bookmark up
 * before reading instead. Every answer carries its session's bookmark in `x-d1-bookmark`, signed, so that the only
 * bookmarks that reach D1 are ones it gave out.
 */
import type { Context, MiddlewareHandler } from "hono";
import { validationError } from "../../core/errors";
import { createDb } from "../../db/client";
import { timingSafeEqual } from "../../lib/crypto";
import { derivedKey, macHex } from "../../lib/token-claims";
import type { AppEnv } from "../app-env";
import { confirmedCaller } from "../auth/token-check";

export const BOOKMARK_HEADER = "x-d1-bookmark";

/** A bookmark as this API hands it out: D1's (letters, digits and `-`) and a MAC of it. */
const SIGNED_BOOKMARK = /^([0-9A-Za-z-]{1,200})\.([0-9a-f]{32})$/;

/** A write's bookmark outlives the time a replica takes to catch up (KV keeps nothing for less than a minute). */
const LAST_WRITE_SECONDS = 60;

const isRead = (c: Context) => c.req.method === "GET" || c.req.method === "HEAD";

/** The D1 bindings a replica has answered in this isolate: those reads look the caller's last write up first. */
const replicated = new WeakSet<object>();

const bookmarkKey = (pepper: string) => derivedKey(pepper, "mdclub-edge d1 bookmarks v1");

/** The bookmark signed for a client; null without a pepper to sign with (none is then handed out). */
async function signBookmark(bookmark: string, pepper: string | undefined): Promise<string | null> {
  return pepper ? `${bookmark}.${await macHex(bookmarkKey(pepper), bookmark)}` : null;
}

/** The bookmark the client sent, checked against its MAC; null when it sent none. */
async function sentBookmark(c: Context<AppEnv>): Promise<string | null> {
  const sent = c.req.header(BOOKMARK_HEADER)?.trim();
  if (!sent) return null;
  const parts = SIGNED_BOOKMARK.exec(sent);
  const pepper = c.env.PASSWORD_PEPPER;
  const valid =
    parts && pepper && timingSafeEqual(await macHex(bookmarkKey(pepper), parts[1] as string), parts[2] as string);
  if (!valid) throw validationError({ [BOOKMARK_HEADER]: "not a bookmark this API answered" });
  return parts[1] as string;
}

/**
 * Whether this request must read at least the caller's own last write: a read with a token, on a session not already
 * at the primary, whose client sent no bookmark of its own.
 */
const readsOwnWrites = (c: Context<AppEnv>, tokenHash: string | null, onPrimary: boolean): tokenHash is string =>
  tokenHash !== null && !onPrimary && isRead(c) && !c.req.header(BOOKMARK_HEADER);

/** The KV key of the bookmark of the last write made with this token, kept for a minute. */
export const lastWriteKey = (tokenHash: string) => `d1-bookmark:${tokenHash}`;

/**
 * After a read a replica answered (`meter.servedByReplica`) for a token whose last write was not looked up before
 * it: that write's bookmark if it is less than a minute old, to serve the request again from it; null when the
 * answer stands. A read the primary answered, or one that started at a bookmark, is never behind the caller's writes.
 */
async function ownWriteToRead(c: Context<AppEnv>, tokenHash: string | null, lookedUp: boolean): Promise<string | null> {
  const attempt = c.get("attempt");
  // A session started at the primary stays there: the meter's guess for a statement that reports no meta (one a
  // route awaits alone, such as a delete's RETURNING) must not mark the isolate, or every read after it would pay a
  // KV read for nothing.
  if (!attempt.meter.servedByReplica || c.get("sessionStart") === "first-primary") return null;
  replicated.add(c.env.DB);
  // Only a first try looks: a second one knows the caller already, and must not need a third (http/attempt.ts).
  if (lookedUp || attempt.known || !readsOwnWrites(c, tokenHash, attempt.onPrimary)) return null;
  return c.env.KV.get(lastWriteKey(tokenHash));
}

/**
 * Where the request's session starts: the primary on a second try that checks the token there, or for a write;
 * else at `bookmark` (the client's, or its last write's); else the nearest replica.
 */
function sessionStart(c: Context<AppEnv>, onPrimary: boolean, bookmark: string | null): string {
  if (onPrimary || !isRead(c)) return "first-primary";
  return bookmark ?? "first-unconstrained";
}

/**
 * Hands the session's bookmark to the client, and, after a write that went through, keeps it for the tokens that
 * made it (the caller's, and one a login has just issued).
 */
async function shareBookmark(c: Context<AppEnv>, session: D1DatabaseSession): Promise<void> {
  const bookmark = session.getBookmark();
  if (!bookmark) return;
  const signed = await signBookmark(bookmark, c.env.PASSWORD_PEPPER);
  if (signed) c.res.headers.set(BOOKMARK_HEADER, signed);
  if (isRead(c) || c.res.status >= 400 || c.error) return;
  for (const hash of [c.get("tokenHash"), c.get("issuedTokenHash")]) {
    if (!hash) continue;
    // KV takes one write a second per key: a faster writer's later bookmarks may be lost, never its writes.
    const kept = c.env.KV.put(lastWriteKey(hash), bookmark, { expirationTtl: LAST_WRITE_SECONDS });
    c.executionCtx.waitUntil(kept.catch((error) => console.error("keeping a D1 bookmark failed:", error)));
  }
}

/** Opens the request's D1 session and its metered client; after the route, a read behind the caller's own write. */
export const d1Session: MiddlewareHandler<AppEnv> = async (c, next) => {
  const attempt = c.get("attempt");
  const tokenHash = c.get("credential")?.tokenHash ?? null;
  const sent = await sentBookmark(c);
  // Where a replica has answered in this isolate, the caller's last write is looked up before reading.
  const looksFirst = readsOwnWrites(c, tokenHash, attempt.onPrimary) && !attempt.bookmark && replicated.has(c.env.DB);
  const lastWrite = looksFirst ? await c.env.KV.get(lastWriteKey(tokenHash as string)) : null;
  const start = sessionStart(c, attempt.onPrimary, sent ?? lastWrite ?? attempt.bookmark);
  const session = c.env.DB.withSession(start);
  c.set("sessionStart", start);
  c.set("db", createDb(session, attempt.meter));
  await next();
  const ownWrite = attempt.retry ? null : await ownWriteToRead(c, c.get("tokenHash"), looksFirst);
  if (ownWrite) {
    // A replica answered before the caller's own last write: served again from that write (http/attempt.ts).
    attempt.retry = {
      known: { caller: confirmedCaller(c), options: c.get("options") },
      onPrimary: false,
      bookmark: ownWrite,
    };
    return;
  }
  await shareBookmark(c, session);
};

/**
 * Resolves what every request needs, the caller (from the `token` header, `Authorization: Bearer` or the `token`
 * cookie) and the site settings, inside the request's first D1 round trip rather than before it
 * (docs/performance.md#one-round-trip). A token that names its holder (lib/token-claims.ts) is taken at its word
 * while the route builds its queries; the token check rides in front of the route's first batch (db/client.ts,
 * `precede`), and a check that contradicts the claim has the request served again (http/attempt.ts). Settings come
 * from KV, or from D1 in that same round trip when KV has lost them.
 */
import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { type Caller, isAdmin } from "../../core/caller";
import { ApiError } from "../../core/errors";
import { createDb, preambleWaits, precede, settle } from "../../db/client";
import type { SiteOptions } from "../../domain/site-options";
import { readCachedOptions } from "../../domain/site-options-store";
import { sha256Hex } from "../../lib/crypto";
import { now } from "../../lib/time";
import { readClaim } from "../../lib/token-claims";
import type { AppEnv } from "../app-env";
import { cookieMayAuthenticate } from "./csrf";
import { lastWriteBeforeRead, ownWriteToRead, sentBookmark, sessionStart, shareBookmark } from "./d1-session";
import { claimedCaller, type Presented, tokenCheck } from "./token-check";

/** The presented token; the cookie only where it may authenticate (http/middleware/csrf.ts). */
export function readToken(c: Context<AppEnv>): string | null {
  const header = c.req.header("token");
  if (header) return header.trim();
  const auth = c.req.header("authorization");
  if (auth && /^bearer\s+/i.test(auth)) return auth.replace(/^bearer\s+/i, "").trim();
  return cookieMayAuthenticate(c) ? (getCookie(c, "token") ?? null) : null;
}

export const requestContext: MiddlewareHandler<AppEnv> = async (c, next) => {
  const attempt = c.get("attempt");
  const { known, onPrimary } = attempt;
  const token = readToken(c);
  const tokenHash = token ? await sha256Hex(token) : null;
  const sent = sentBookmark(c);
  // The settings (unless the isolate holds them) and, where replicas answer, the token's last write: one KV read.
  const lastWriteAt = lastWriteBeforeRead(c, tokenHash, onPrimary);
  const [[stored, lastWrite = null], claim] = await Promise.all([
    known && !lastWriteAt ? [known.options] : readCachedOptions(c.env, lastWriteAt),
    // On the primary the token is checked before anything is built: a second try must not need a third.
    token && !known && !onPrimary ? readClaim(token, c.env.PASSWORD_PEPPER) : null,
  ]);
  const cached = known ? known.options : stored;
  const start = sessionStart(c, onPrimary, sent ?? lastWrite ?? attempt.bookmark);
  const session = c.env.DB.withSession(start);
  const db = createDb(session, attempt.meter);
  c.set("db", db);
  const claimed = claim && claimedCaller(claim);
  const checked = known ? known.caller : null;
  c.set("caller", known ? checked : claimed);
  c.set("tokenHash", known && !checked ? null : tokenHash);
  c.set("options", cached);

  const checksToken = tokenHash !== null && !known;
  const presented: Presented = { db, tokenHash, claim, claimed, cached, start, time: now() };
  precede(db, tokenCheck(c, checksToken ? presented : { ...presented, tokenHash: null }));
  c.set("ignoreCaller", () => {
    c.set("caller", null);
    c.set("tokenHash", null);
    precede(db, tokenCheck(c, { ...presented, tokenHash: null }));
  });
  // A token that names nobody is checked before anything is built for its caller.
  if (checksToken && !claim) await settle(db);
  await next();
  // No answer goes out on a claim D1 has not confirmed: a route that never reached D1 has it checked now.
  if (c.get("caller") && preambleWaits(db)) await settle(db);
  const ownWrite = attempt.retry ? null : await ownWriteToRead(c, c.get("tokenHash"), lastWriteAt !== null);
  if (ownWrite) {
    // A replica answered before the caller's own last write: served again from that write (http/attempt.ts).
    attempt.retry = {
      known: { caller: c.get("caller"), options: c.get("options") },
      onPrimary: false,
      bookmark: ownWrite,
    };
    return;
  }
  // What a logged-in caller sees (their e-mail, unread counts, errors naming them) is theirs alone: no shared
  // cache may keep it, and the browser keeps no copy on disk.
  if (c.get("caller")) c.res.headers.set("Cache-Control", "private, no-store");
  shareBookmark(c, session, [c.get("tokenHash"), c.get("issuedTokenHash") ?? null]);
};

/** The site settings; a route that reads them before its first batch awaits `settled(c)` first. */
export function siteOptions(c: Context<AppEnv>): SiteOptions {
  const options = c.get("options");
  if (!options) throw new Error("site settings read before the request's first D1 round trip");
  return options;
}

/** Completes what the request's first round trip would: the caller confirmed, the settings loaded. */
export async function settled(c: Context<AppEnv>): Promise<void> {
  await settle(c.get("db"));
}

/** The caller, or 201001. */
export function requireUser(c: Context<AppEnv>): Caller {
  const caller = c.get("caller");
  if (!caller) throw new ApiError("LOGIN_REQUIRED");
  return caller;
}

/** The caller if an administrator; 201001 when anonymous, 201002 otherwise. */
export function requireAdmin(c: Context<AppEnv>): Caller {
  const caller = requireUser(c);
  if (!isAdmin(caller)) throw new ApiError("ADMIN_REQUIRED");
  return caller;
}

/**
 * Route middleware of the anonymous flows (login, registration, password reset, captchas): any token sent along is
 * not theirs to check, so it costs them no round trip and no second try.
 */
export const callerIgnored: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.get("ignoreCaller")();
  await next();
};

/** Route middleware: runs before the route's validators, so access errors come before field errors. */
export const loginRequired: MiddlewareHandler<AppEnv> = async (c, next) => {
  requireUser(c);
  await next();
};

export const adminRequired: MiddlewareHandler<AppEnv> = async (c, next) => {
  // A claim of no administrator may be older than a promotion: D1 has the last word before a refusal.
  const caller = c.get("caller");
  if (caller && !isAdmin(caller)) await settled(c);
  requireAdmin(c);
  await next();
};

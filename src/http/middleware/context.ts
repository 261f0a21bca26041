/**
 * Resolves what every request needs, the caller (from the `token` header, `Authorization: Bearer` or the `token`
 * cookie) and the site settings, inside the request's first D1 round trip rather than before it
 * (docs/performance.md#one-round-trip). A token that names its holder (lib/token-claims.ts) is taken at its word
 * while the route builds its queries; the token check rides in front of the route's first batch (db/client.ts,
 * `precede`), and a check that contradicts the claim has the request served again (http/attempt.ts). Settings come
 * from KV, or from D1 in that same round trip when KV has lost them.
 */
import { eq, sql } from "drizzle-orm";
import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { type Caller, isAdmin, userColumns } from "../../core/caller";
import { ApiError } from "../../core/errors";
import { backgroundDb, createDb, type Db, type Preamble, preambleWaits, precede, settle } from "../../db/client";
import { tokens, users } from "../../db/schema";
import { optionsFromRows, type SiteOptions } from "../../domain/site-options";
import { cacheOptions, readCachedOptions, selectOptionRows } from "../../domain/site-options-store";
import { sha256Hex } from "../../lib/crypto";
import { now } from "../../lib/time";
import { readClaim, type TokenClaim } from "../../lib/token-claims";
import type { AppEnv } from "../app-env";
import { StaleClaim } from "../attempt";
import { cookieMayAuthenticate } from "./csrf";
import { lastWriteKey, sentBookmark, sessionStart, shareBookmark } from "./d1-session";

/**
 * Tokens last 15 days and are renewed on use at most once a day
 * (docs/decisions.md#tokens-are-stored-hashed-and-expire).
 */
export const TOKEN_LIFETIME = 15 * 86400;
const RENEW_AFTER = 86400;

/** The presented token; the cookie only where it may authenticate (http/middleware/csrf.ts). */
export function readToken(c: Context<AppEnv>): string | null {
  const header = c.req.header("token");
  if (header) return header.trim();
  const auth = c.req.header("authorization");
  if (auth && /^bearer\s+/i.test(auth)) return auth.replace(/^bearer\s+/i, "").trim();
  return cookieMayAuthenticate(c) ? (getCookie(c, "token") ?? null) : null;
}

/** The token's row with its user, expired or disabled too: only a token no row holds is worth a second look. */
function callerQuery(db: Db, tokenHash: string) {
  return db
    .select({ user: userColumns, expire_time: tokens.expire_time })
    .from(tokens)
    .innerJoin(users, eq(users.user_id, tokens.user_id))
    .where(eq(tokens.token, tokenHash))
    .limit(1);
}

/**
 * The caller a claim names, as routes see it until the check: only `user_id` and `role` are known, and the check
 * fills in the rest of the row in place (the routes read nothing else before their first batch).
 */
const claimedCaller = (claim: TokenClaim): Caller =>
  ({ user_id: claim.userId, role: claim.admin ? "admin" : "user" }) as Caller;

/**
 * A statement that fails, and with it its batch, unless the token is live for the user and role it claims: `json()`
 * of anything but JSON is an error, and SQLite evaluates only the CASE branch it takes.
 */
function claimGuard(db: Db, tokenHash: string, claim: TokenClaim, time: number) {
  const live = sql`EXISTS (SELECT 1 FROM ${tokens} JOIN ${users} ON ${users.user_id} = ${tokens.user_id}
    WHERE ${tokens.token} = ${tokenHash} AND ${tokens.expire_time} > ${time} AND ${users.disable_time} = 0
    AND ${users.user_id} = ${claim.userId} AND ${users.role} = ${claim.admin ? "admin" : "user"})`;
  return db
    .select({ ok: sql<string>`json(CASE WHEN ${live} THEN '1' ELSE 'stale token claim' END)` })
    .from(sql`(SELECT 1)`);
}

const holds = (claim: TokenClaim, found: Caller) => found.user_id === claim.userId && isAdmin(found) === claim.admin;

export const requestContext: MiddlewareHandler<AppEnv> = async (c, next) => {
  const attempt = c.get("attempt");
  const { known, onPrimary } = attempt;
  const token = readToken(c);
  const tokenHash = token ? await sha256Hex(token) : null;
  const sent = sentBookmark(c);
  // The settings and the token's last write, in one KV read.
  const lastWriteAt = tokenHash && !sent && !onPrimary ? lastWriteKey(tokenHash) : null;
  const [[stored, lastWrite = null], claim] = await Promise.all([
    known && !lastWriteAt ? [known.options] : readCachedOptions(c.env.KV, [lastWriteAt]),
    // On the primary the token is checked before anything is built: a second try must not need a third.
    token && !known && !onPrimary ? readClaim(token, c.env.PASSWORD_PEPPER) : null,
  ]);
  const cached = known ? known.options : stored;
  const start = sessionStart(c, onPrimary, sent ?? lastWrite);
  const session = c.env.DB.withSession(start);
  const db = createDb(session, attempt.meter);
  c.set("db", db);
  const time = now();
  const claimed = claim && claimedCaller(claim);
  const checked = known ? known.caller : null;
  c.set("caller", known ? checked : claimed);
  c.set("tokenHash", known && !checked ? null : tokenHash);
  c.set("options", cached);

  const checksToken = tokenHash !== null && !known;
  /** The statements in front of the first batch, and what their results settle. */
  const preamble = (checkToken: boolean): Preamble | null =>
    checkToken || !cached
      ? {
          entry: {
            callers: checkToken && tokenHash ? callerQuery(db, tokenHash) : undefined,
            options: cached ? undefined : selectOptionRows(db),
          },
          confirmsCaller: checkToken,
          guard: checkToken && claim && tokenHash ? claimGuard(db, tokenHash, claim, time) : undefined,
          settle: (found: {
            callers?: { user: Caller; expire_time: number }[];
            options?: { name: string; value: string }[];
          }) => {
            let record = cached;
            if (found.options) {
              record = optionsFromRows(found.options);
              c.set("options", record);
              c.executionCtx.waitUntil(cacheOptions(c.env.KV, record));
            }
            if (checkToken && tokenHash) settleCaller(found.callers?.[0], record);
          },
        }
      : null;
  const settleCaller = (row: { user: Caller; expire_time: number } | undefined, record: SiteOptions | null) => {
    // A replica may not have a token issued a moment ago: one that names its holder and that no row holds is
    // looked for again on the primary (a token that names nobody is older than any replica's lag).
    if (!row && claim && start !== "first-primary") throw new StaleClaim({ known: null, onPrimary: true });
    const live = row && row.expire_time > time && row.user.disable_time === 0 ? row : undefined;
    if (live && tokenHash && TOKEN_LIFETIME - (live.expire_time - time) > RENEW_AFTER) {
      // Sliding expiry: off the response path, so it costs the client no round trip.
      c.executionCtx.waitUntil(
        backgroundDb(c.env.DB)
          .update(tokens)
          .set({ expire_time: time + TOKEN_LIFETIME, update_time: time })
          .where(eq(tokens.token, tokenHash))
          .run(),
      );
    }
    const caller = live?.user ?? null;
    if (claim && claimed) {
      if (!caller || !holds(claim, caller))
        throw new StaleClaim({ known: { caller, options: record }, onPrimary: false });
      Object.assign(claimed, caller);
      return;
    }
    c.set("caller", caller);
    c.set("tokenHash", caller ? tokenHash : null);
  };
  precede(db, preamble(checksToken));
  c.set("ignoreCaller", () => {
    c.set("caller", null);
    c.set("tokenHash", null);
    precede(db, preamble(false));
  });
  // A token that names nobody is checked before anything is built for its caller.
  if (checksToken && !claim) await settle(db);
  await next();
  // No answer goes out on a claim D1 has not confirmed: a route that never reached D1 has it checked now.
  if (c.get("caller") && preambleWaits(db)) await settle(db);
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

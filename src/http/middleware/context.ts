/**
 * Loads what every request needs before its handler runs, in at most one D1 round trip: the caller (from the
 * `token` header, `Authorization: Bearer` or the `token` cookie) and, when KV has lost them, the site settings.
 */
import { and, eq, gt } from "drizzle-orm";
import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { type Caller, isAdmin, userColumns } from "../../core/caller";
import { ApiError } from "../../core/errors";
import { backgroundDb, batch, type Db } from "../../db/client";
import { tokens, users } from "../../db/schema";
import { optionsFromRows } from "../../domain/site-options";
import { cacheOptions, readCachedOptions, selectOptionRows } from "../../domain/site-options-store";
import { sha256Hex } from "../../lib/crypto";
import { now } from "../../lib/time";
import type { AppEnv } from "../app-env";
import { cookieMayAuthenticate } from "./csrf";

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

function callerQuery(db: Db, tokenHash: string, time: number) {
  return db
    .select({ user: userColumns, expire_time: tokens.expire_time })
    .from(tokens)
    .innerJoin(users, eq(users.user_id, tokens.user_id))
    .where(and(eq(tokens.token, tokenHash), gt(tokens.expire_time, time), eq(users.disable_time, 0)))
    .limit(1);
}

export const requestContext: MiddlewareHandler<AppEnv> = async (c, next) => {
  const db = c.get("db");
  const token = readToken(c);
  const [cached, tokenHash] = await Promise.all([readCachedOptions(c.env.KV), token ? sha256Hex(token) : null]);
  const time = now();

  const found = await batch(db, {
    callers: tokenHash ? callerQuery(db, tokenHash, time) : undefined,
    options: cached ? undefined : selectOptionRows(db),
  });

  let caller: Caller | null = null;
  if (tokenHash) {
    const row = found.callers?.[0];
    if (row) {
      caller = row.user;
      if (TOKEN_LIFETIME - (row.expire_time - time) > RENEW_AFTER) {
        // Sliding expiry: off the response path, so it costs the client no round trip.
        c.executionCtx.waitUntil(
          backgroundDb(c.env.DB)
            .update(tokens)
            .set({ expire_time: time + TOKEN_LIFETIME, update_time: time })
            .where(eq(tokens.token, tokenHash))
            .run(),
        );
      }
    }
  }
  if (cached) {
    c.set("options", cached);
  } else {
    const record = optionsFromRows(found.options ?? []);
    c.set("options", record);
    c.executionCtx.waitUntil(cacheOptions(c.env.KV, record));
  }
  c.set("caller", caller);
  c.set("tokenHash", caller ? tokenHash : null);
  await next();
  // What a logged-in caller sees (their e-mail, unread counts, errors naming them) is theirs alone: no shared
  // cache may keep it, and the browser keeps no copy on disk.
  if (caller) c.res.headers.set("Cache-Control", "private, no-store");
};

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

/** Route middleware: runs before the route's validators, so access errors come before field errors. */
export const loginRequired: MiddlewareHandler<AppEnv> = async (c, next) => {
  requireUser(c);
  await next();
};

export const adminRequired: MiddlewareHandler<AppEnv> = async (c, next) => {
  requireAdmin(c);
  await next();
};

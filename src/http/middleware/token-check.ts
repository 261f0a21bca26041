/**
 * The token check of a request (docs/performance.md#one-round-trip): the statements that ride in front of the
 * request's first batch (the token's row with its user, the settings when KV has lost them, and for writes a guard
 * that fails the batch if the token's claim does not hold), and what their results settle: the caller confirmed,
 * filled in, or a StaleClaim that has the request served again.
 */
import { eq, sql } from "drizzle-orm";
import type { Context } from "hono";
import { type Caller, isAdmin, userColumns } from "../../core/caller";
import { backgroundDb, type Db, type Preamble, Prebuilt } from "../../db/client";
import { tokens, users } from "../../db/schema";
import { optionsFromRows, type SiteOptions } from "../../domain/site-options";
import { cacheOptions, selectOptionRows } from "../../domain/site-options-store";
import type { TokenClaim } from "../../lib/token-claims";
import type { AppEnv } from "../app-env";
import { StaleClaim } from "../attempt";

/**
 * Tokens last 15 days and are renewed on use at most once a day
 * (docs/decisions.md#tokens-are-stored-hashed-and-expire).
 */
export const TOKEN_LIFETIME = 15 * 86400;
const RENEW_AFTER = 86400;

/**
 * The token's row with its user, expired or disabled too: only a token no row holds is worth a second look. Every
 * request with a token sends it, so its SQL is built once (db/client.ts, Prebuilt).
 */
const callerQuery = new Prebuilt((db) =>
  db
    .select({ user: userColumns, expire_time: tokens.expire_time })
    .from(tokens)
    .innerJoin(users, eq(users.user_id, tokens.user_id))
    .where(eq(tokens.token, sql.placeholder("token")))
    .limit(1),
);

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

/**
 * The caller a claim names, as routes see it until the check: only `user_id` and `role` are known, and the check
 * fills in the rest of the row in place (the routes read nothing else before their first batch).
 */
export const claimedCaller = (claim: TokenClaim): Caller =>
  ({ user_id: claim.userId, role: claim.admin ? "admin" : "user" }) as Caller;

const holds = (claim: TokenClaim, found: Caller) => found.user_id === claim.userId && isAdmin(found) === claim.admin;

/** What a request knows before its first batch. */
export interface Presented {
  db: Db;
  /** SHA-256 of the token, when one came and is to be checked. */
  tokenHash: string | null;
  /** What the token claims, and the caller the routes were handed for it. */
  claim: TokenClaim | null;
  claimed: Caller | null;
  /** The settings from KV (or a first try), null when they must come from D1. */
  cached: SiteOptions | null;
  /** Where the request's D1 session started. */
  start: string;
  time: number;
}

/** The preamble of the request's first batch; null when there is nothing to check or load. */
export function tokenCheck(c: Context<AppEnv>, presented: Presented): Preamble | null {
  const { db, tokenHash, claim, cached, time } = presented;
  if (!tokenHash && cached) return null;
  return {
    entry: {
      callers: tokenHash ? callerQuery.statement({ token: tokenHash }) : undefined,
      options: cached ? undefined : selectOptionRows(db),
    },
    confirmsCaller: tokenHash !== null,
    guard: tokenHash && claim ? () => claimGuard(db, tokenHash, claim, time) : undefined,
    settle: (found: {
      callers?: { user: Caller; expire_time: number }[];
      options?: { name: string; value: string }[];
    }) => {
      let record = cached;
      if (found.options) {
        record = optionsFromRows(found.options);
        c.set("options", record);
        c.executionCtx.waitUntil(cacheOptions(c.env, record));
      }
      if (tokenHash) settleCaller(c, presented, tokenHash, found.callers?.[0], record);
    },
  };
}

function settleCaller(
  c: Context<AppEnv>,
  { claim, claimed, start, time }: Presented,
  tokenHash: string,
  row: { user: Caller; expire_time: number } | undefined,
  record: SiteOptions | null,
): void {
  // A replica may not have a token issued a moment ago: one that names its holder and that no row holds is
  // looked for again on the primary (a token that names nobody is older than any replica's lag).
  if (!row && claim && start !== "first-primary") throw new StaleClaim({ known: null, onPrimary: true });
  const live = row && row.expire_time > time && row.user.disable_time === 0 ? row : undefined;
  if (live && TOKEN_LIFETIME - (live.expire_time - time) > RENEW_AFTER) {
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
}

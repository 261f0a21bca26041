/**
 * The token check of a request (docs/performance.md#one-round-trip): a lead that rides in front of the request's
 * first batch (db/batch.ts), the token's row with its user and whether it is live and holds the claim
 * (http/auth/liveness.ts), with a guard for a batch that writes, and what its result settles: the caller confirmed,
 * or a StaleClaim that has the request served again.
 */
import { eq, sql } from "drizzle-orm";
import type { Context } from "hono";
import { type Caller, type ClaimedCaller, userColumns } from "../../core/caller";
import { backgroundDb, type Db, type Lead, Prebuilt } from "../../db/client";
import { tokens, users } from "../../db/schema";
import { TOKEN_LIFETIME, type TokenClaim } from "../../lib/token-claims";
import type { AppEnv } from "../app-env";
import { StaleClaim } from "../attempt";
import { claimHolds, claimLetter, tokenLive } from "./liveness";
import { revokeContradicted } from "./revocation";

/** A live token is renewed on use at most once a day (docs/decisions.md#tokens-are-stored-hashed-and-expire). */
const RENEW_AFTER = 86400;

const placeholder = sql.placeholder;

/**
 * The token's row with its user, expired or disabled too: only a token no row holds is worth a second look. Every
 * request with a token sends it, so its SQL is built once (db/row-mapping.ts, Prebuilt).
 */
const callerQuery = new Prebuilt((db) =>
  db
    .select({
      user: userColumns,
      expire_time: tokens.expire_time,
      live: sql<number>`${tokenLive(placeholder("time"))}`,
      holds: sql<number>`${claimHolds(placeholder("claim_user"), placeholder("claim_role"))}`,
    })
    .from(tokens)
    .innerJoin(users, eq(users.user_id, tokens.user_id))
    .where(eq(tokens.token, placeholder("token")))
    .limit(1),
);

interface Found {
  user: Caller;
  expire_time: number;
  live: number;
  holds: number;
}

/**
 * A statement that fails, and with it its batch, unless the token is live for the caller its claim names: `json()`
 * of anything but JSON is an error, and SQLite evaluates only the CASE branch it takes.
 */
function claimGuard(db: Db, tokenHash: string, claim: TokenClaim, time: number) {
  const holds = claimHolds(claim.userId, claimLetter(claim.admin));
  const live = sql`EXISTS (SELECT 1 FROM ${tokens} JOIN ${users} ON ${users.user_id} = ${tokens.user_id}
    WHERE ${tokens.token} = ${tokenHash} AND ${tokenLive(time)} AND ${holds})`;
  return db
    .select({ ok: sql<string>`json(CASE WHEN ${live} THEN '1' ELSE 'stale token claim' END)` })
    .from(sql`(SELECT 1)`);
}

/** The caller a claim names, as routes see it until the check: who and in what role, nothing else. */
export const claimedCaller = (claim: TokenClaim): ClaimedCaller => ({
  user_id: claim.userId,
  role: claim.admin ? "admin" : "user",
  claimed: true,
});

/** Whether the caller is a claim D1 has not confirmed yet. */
export const isClaimed = (caller: Caller | ClaimedCaller | null): caller is ClaimedCaller =>
  caller !== null && "claimed" in caller;

/** The token a request presents, as the check needs it. */
export interface Presented {
  db: Db;
  /** SHA-256 of the token. */
  tokenHash: string;
  /** What the token claims, when it claims its holder (lib/token-claims.ts). */
  claim: TokenClaim | null;
  /** Where the request's D1 session started. */
  start: string;
  time: number;
}

/** The lead of the request's first batch that checks its token. */
export function tokenCheck(c: Context<AppEnv>, presented: Presented): Lead {
  const { db, tokenHash, claim, time } = presented;
  return {
    entry: callerQuery.statement({
      token: tokenHash,
      time,
      claim_user: claim?.userId ?? 0,
      claim_role: claim ? claimLetter(claim.admin) : "",
    }),
    gatesWrites: true,
    guard: claim ? () => claimGuard(db, tokenHash, claim, time) : undefined,
    settle: (rows: Found[]) => settleCaller(c, presented, rows[0]),
  };
}

function settleCaller(c: Context<AppEnv>, { claim, tokenHash, start, time }: Presented, row: Found | undefined): void {
  // A replica may not have a token issued a moment ago: one that names its holder and that no row holds is
  // looked for again on the primary (a token that names nobody is older than any replica's lag).
  if (!row && claim && start !== "first-primary") throw new StaleClaim({ known: null, onPrimary: true });
  const live = row?.live ? row : undefined;
  // Sliding expiry, for tokens that name their holder: a token that names nobody (imported from MDClub, or of an
  // older shape) ends 15 days after its last renewal (docs/auth.md#tokens). Off the response path.
  if (live && claim && TOKEN_LIFETIME - (live.expire_time - time) > RENEW_AFTER) {
    c.executionCtx.waitUntil(
      backgroundDb(c.env.DB)
        .update(tokens)
        .set({ expire_time: time + TOKEN_LIFETIME, update_time: time })
        .where(eq(tokens.token, tokenHash))
        .run(),
    );
  }
  const caller = live?.user ?? null;
  if (claim && !(live && row?.holds)) {
    if (start === "first-primary") {
      const user = row && { disabled: row.user.disable_time > 0, live: Boolean(live) };
      revokeContradicted(c, { tokenHash, claim, time, user });
    }
    throw new StaleClaim({ known: { caller, options: c.get("options") }, onPrimary: false });
  }
  c.set("caller", caller);
  c.set("tokenHash", caller ? tokenHash : null);
}

/** The caller once D1 has confirmed them (null: anonymous); it is an error to ask while a claim still waits. */
export function confirmedCaller(c: Context<AppEnv>): Caller | null {
  const caller = c.get("caller");
  if (isClaimed(caller)) throw new Error("the caller was read before D1 confirmed the token's claim");
  return caller;
}

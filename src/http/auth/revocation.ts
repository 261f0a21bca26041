/**
 * Ending what a token's claim can do, at once (docs/auth.md#what-a-claim-may-do). The write limits count a claimed
 * caller before D1 has checked the token (a refused request does no D1 work), so a claim needs a check that is not
 * D1's: its MAC and issue time (lib/token-claims.ts), and this list of revocations in KV, written when a token ends
 * before its claim would: a logout (that token), a password reset or an administrator disabling the user (every
 * claim issued until then). A claim D1 finds contradicted (a role changed by hand, a user disabled in SQL) is
 * revoked too, so it stops counting from then on. An entry lives as long as the claims it revokes could.
 */
import type { Context } from "hono";
import type { Bindings } from "../../core/env";
import { TOKEN_LIFETIME, type TokenClaim } from "../../lib/token-claims";
import type { AppEnv } from "../app-env";

/** KV keeps nothing for less than a minute; an entry outlives every claim it can revoke. */
const ENTRY_SECONDS = TOKEN_LIFETIME + 3600;

const tokenKey = (tokenHash: string) => `claims-revoked:token:${tokenHash}`;
const userKey = (userId: number) => `claims-revoked:user:${userId}`;

type Store = Pick<Bindings, "KV">;

function revokeToken(env: Store, tokenHash: string): Promise<void> {
  return env.KV.put(tokenKey(tokenHash), "1", { expirationTtl: ENTRY_SECONDS });
}

function revokeUser(env: Store, userId: number, time: number): Promise<void> {
  return env.KV.put(userKey(userId), String(time), { expirationTtl: ENTRY_SECONDS });
}

/**
 * After D1 has ended sessions (their rows deleted, or the users disabled): one token's (a logout), or every one of
 * some users up to `time` (a password reset, disabled accounts). Awaited, so the answer that reports the end comes
 * after it; a failure is logged, not answered, since D1 has already committed the end and refuses those tokens.
 */
export async function sessionsEnded(
  env: Store,
  ended: { tokenHash: string } | { userIds: number[]; time: number },
): Promise<void> {
  const writes =
    "tokenHash" in ended
      ? [revokeToken(env, ended.tokenHash)]
      : ended.userIds.map((userId) => revokeUser(env, userId, ended.time));
  const failed = (await Promise.allSettled(writes)).filter((result) => result.status === "rejected");
  if (failed.length > 0) console.error(`revoking claims failed ${failed.length} times:`, failed[0]?.reason);
}

/** Whether a claim has been revoked: one KV read of both entries. */
export async function claimRevoked(env: Store, tokenHash: string, claim: TokenClaim): Promise<boolean> {
  const found = await env.KV.get([tokenKey(tokenHash), userKey(claim.userId)], "text");
  if (found.get(tokenKey(tokenHash))) return true;
  const before = Number(found.get(userKey(claim.userId)) ?? 0);
  return before > 0 && claim.issuedAt <= before;
}

/**
 * Revocations this isolate has written for contradicted claims, and when: a claim issued before then and used again
 * does not write again.
 */
const written = new Map<string, number>();
const MAX_WRITTEN = 1000;

/**
 * After the primary contradicted a claim: the token's row is gone or expired (that token), or its user is disabled or
 * no longer in the role it names (every claim of theirs until now). A replica may be behind, so what it says revokes
 * nothing. Off the response path.
 */
export function revokeContradicted(
  c: Context<AppEnv>,
  found: { tokenHash: string; claim: TokenClaim; time: number; user: { disabled: boolean; live: boolean } | undefined },
): void {
  const { tokenHash, claim, time, user } = found;
  const wholeUser = user && (user.disabled || user.live);
  const key = wholeUser ? userKey(claim.userId) : tokenKey(tokenHash);
  if (claim.issuedAt <= (written.get(key) ?? -1)) return;
  if (written.size >= MAX_WRITTEN) written.clear();
  written.set(key, time);
  const write = wholeUser ? revokeUser(c.env, claim.userId, time) : revokeToken(c.env, tokenHash);
  c.executionCtx.waitUntil(write.catch((error) => console.error("revoking a contradicted claim failed:", error)));
}

/**
 * Who the request comes from (docs/performance.md#one-round-trip). A token that claims its holder is taken at its
 * word while the route builds its queries, and its check rides in front of the route's first batch as a lead
 * (http/auth/token-check.ts); a token that names nobody is checked before anything is built. A check that
 * contradicts the claim has the request served again (http/attempt.ts). What a logged-in caller sees is theirs
 * alone: no shared cache may keep it, and the browser keeps no copy on disk.
 */
import type { MiddlewareHandler } from "hono";
import { leadWaits, precede, settle } from "../../db/client";
import { now } from "../../lib/time";
import type { AppEnv } from "../app-env";
import { claimedCaller, isClaimed, tokenCheck } from "../auth/token-check";

export const resolveCaller: MiddlewareHandler<AppEnv> = async (c, next) => {
  const { known } = c.get("attempt");
  const credential = c.get("credential");
  const db = c.get("db");
  if (known || !credential) {
    c.set("caller", known?.caller ?? null);
    c.set("tokenHash", known?.caller ? (credential?.tokenHash ?? null) : null);
  } else {
    const { tokenHash, claim } = credential;
    c.set("caller", claim ? claimedCaller(claim) : null);
    c.set("tokenHash", tokenHash);
    precede(db, tokenCheck(c, { db, tokenHash, claim, start: c.get("sessionStart"), time: now() }));
    // A token that names nobody is checked before anything is built for its caller.
    if (!claim) await settle(db);
  }
  await next();
  if (c.get("caller")) c.res.headers.set("Cache-Control", "private, no-store");
};

/**
 * No answer goes out on a claim D1 has not confirmed: a route that never reached D1 (or refused before it did) has
 * the check made now. It runs inside the write limits, whose refusal of a checked claim needs no D1 at all
 * (http/middleware/rate-limit.ts).
 */
export const confirmClaim: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (isClaimed(c.get("caller")) && leadWaits(c.get("db"))) await settle(c.get("db"));
};

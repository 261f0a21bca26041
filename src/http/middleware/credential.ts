/**
 * The request's credential (http/credential.ts), as the rest of the request uses it: the hash of its token, which is
 * all the database and KV ever see, and the claim the token makes when its MAC and issue time hold
 * (lib/token-claims.ts). The cookie counts only where it may authenticate (http/middleware/csrf.ts). The anonymous
 * flows (login, registration, password reset, captchas, code mails) declare `anonymousFlow`: a token sent along with
 * them is not theirs, so for them, and for the write limits that count them, the request carries none.
 */
import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { sha256Hex } from "../../lib/crypto";
import { now } from "../../lib/time";
import { readClaim } from "../../lib/token-claims";
import type { AppEnv } from "../app-env";
import { credentialOf } from "../credential";
import { cookieMayAuthenticate } from "./csrf";

/** Route middleware that marks an anonymous flow: it does nothing itself, the middleware below reads the mark. */
export const anonymousFlow: MiddlewareHandler<AppEnv> = (_c, next) => next();

const isAnonymousFlow = (c: Context) => matchedRoutes(c).some((route) => route.handler === anonymousFlow);

export const readCredential: MiddlewareHandler<AppEnv> = async (c, next) => {
  const credential = isAnonymousFlow(c) ? null : credentialOf(c.req.raw.headers);
  if (!credential || (credential.via === "cookie" && !cookieMayAuthenticate(c))) {
    c.set("credential", null);
    return next();
  }
  const attempt = c.get("attempt");
  // A second try knows its caller already (http/attempt.ts), and one that checks on the primary checks first.
  const claims = !attempt.known && !attempt.onPrimary;
  const [tokenHash, claim] = await Promise.all([
    sha256Hex(credential.token),
    claims ? readClaim(credential.token, c.env.PASSWORD_PEPPER, now()) : null,
  ]);
  c.set("credential", { tokenHash, claim });
  await next();
};

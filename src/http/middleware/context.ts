/**
 * What routes read of the request's context: the settings, the caller and the access rules built on it. The
 * middleware that resolves them runs before every route under /api (src/app.ts): the credential
 * (credential.ts), the D1 session (d1-session.ts), the settings (site-settings.ts), the caller (caller.ts) and the
 * write limits (rate-limit.ts).
 */
import type { Context, MiddlewareHandler } from "hono";
import { type Caller, type CallerId, isAdmin } from "../../core/caller";
import { mailToLog } from "../../core/env";
import { ApiError } from "../../core/errors";
import { settle } from "../../db/client";
import type { SiteOptions } from "../../domain/site-options";
import type { MailOptions } from "../../lib/mail";
import type { AppEnv } from "../app-env";
import { confirmedCaller } from "../auth/token-check";

export { anonymousFlow } from "./credential";

/** The site settings; a route that reads them before its first batch awaits `settled(c)` first. */
export function siteOptions(c: Context<AppEnv>): SiteOptions {
  const options = c.get("options");
  if (!options) throw new Error("site settings read before the request's first D1 round trip");
  return options;
}

/** The settings as mail needs them: with MAIL_TO_LOG, the development switch that logs mail (lib/mail.ts). */
export const mailSettings = (c: Context<AppEnv>): SiteOptions & MailOptions => ({
  ...siteOptions(c),
  mail_to_log: mailToLog(c.env),
});

/** Completes what the request's first round trip would: the caller confirmed, the settings loaded. */
export async function settled(c: Context<AppEnv>): Promise<void> {
  await settle(c.get("db"));
}

/** The caller's whole row as D1 confirmed it, or 201001; at the cost of the token check if it still waits. */
export async function requireCheckedUser(c: Context<AppEnv>): Promise<Caller> {
  await settled(c);
  const caller = confirmedCaller(c);
  if (!caller) throw new ApiError("LOGIN_REQUIRED");
  return caller;
}

/** The caller, or 201001. */
export function requireUser(c: Context<AppEnv>): CallerId {
  const caller = c.get("caller");
  if (!caller) throw new ApiError("LOGIN_REQUIRED");
  return caller;
}

/** The caller if an administrator; 201001 when anonymous, 201002 otherwise. */
export function requireAdmin(c: Context<AppEnv>): CallerId {
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
  // A claim of no administrator may be older than a promotion: D1 has the last word before a refusal.
  const caller = c.get("caller");
  if (caller && !isAdmin(caller)) await settled(c);
  requireAdmin(c);
  await next();
};

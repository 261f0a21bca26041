/**
 * Cross-site request forgery (docs/security.md#cross-site-requests): a browser attaches the `token` cookie to a request
 * whatever page sent it, so a form on any site could write as a logged-in visitor. The cookie therefore authenticates a
 * write only when the browser says the request comes from a trusted page. The `token` header and Bearer tokens are
 * never attached by a browser on its own, so they need no such proof.
 */
import type { Context } from "hono";
import type { AppEnv } from "../app-env";
import { isRead } from "./route-key";

/** The origins in TRUSTED_ORIGINS, in the form browsers send them; entries that are no URL are skipped. */
function trustedOrigins(list: string | undefined): Set<string> {
  const origins = new Set<string>();
  for (const entry of (list ?? "").split(",")) {
    if (!URL.canParse(entry.trim())) continue;
    const origin = new URL(entry.trim()).origin;
    // An opaque origin ("null") would trust sandboxed frames and redirected forms of any site.
    if (origin !== "null") origins.add(origin);
  }
  return origins;
}

/**
 * Whether the `token` cookie may authenticate this request: always for reads; for a write (the method after
 * `X-Http-Method-Override`, index.ts) only when `Origin` is the API's own origin or a trusted one, or
 * `Sec-Fetch-Site` is `same-origin` or `none`. A write with neither header (an old browser, or a non-browser
 * client holding a cookie) is refused: such a client can send the token as a header instead.
 */
export function cookieMayAuthenticate(c: Context<AppEnv>): boolean {
  if (isRead(c.req.method)) return true;
  const site = c.req.header("sec-fetch-site");
  if (site === "same-origin" || site === "none") return true;
  const origin = c.req.header("origin");
  if (!origin || origin === "null") return false;
  return origin === new URL(c.req.url).origin || trustedOrigins(c.env.TRUSTED_ORIGINS).has(origin);
}

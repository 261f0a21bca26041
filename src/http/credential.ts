/**
 * Which credential a request carries (docs/auth.md#credentials): the `token` header, an `Authorization: Bearer`
 * token, or the `token` cookie, in that order. The one place that says so: the Worker's entry (whether a body is
 * kept for a second try), the anonymous edge cache (whether an answer may be shared) and the caller's resolution all
 * ask here, so a new way to send a token cannot reach one of them only.
 */
import { parse } from "hono/utils/cookie";

export interface Credential {
  token: string;
  /** The cookie authenticates a write only from a trusted page (http/middleware/csrf.ts); the others always do. */
  via: "header" | "bearer" | "cookie";
}

const BEARER = /^bearer\s+/i;

export function credentialOf(headers: Headers): Credential | null {
  const header = headers.get("token")?.trim();
  if (header) return { token: header, via: "header" };
  const authorization = headers.get("authorization");
  if (authorization && BEARER.test(authorization)) {
    const token = authorization.replace(BEARER, "").trim();
    if (token) return { token, via: "bearer" };
  }
  const cookies = headers.get("cookie");
  const cookie = cookies ? parse(cookies, "token").token : undefined;
  return cookie ? { token: cookie, via: "cookie" } : null;
}

/**
 * Request bodies, before any route sees them (DECISIONS.md, wire format): a missing or empty body counts as
 * `{}` (official clients send `Content-Type: application/json` with no body on some POSTs); the body is
 * read as JSON whatever its Content-Type says, unless it is a form upload; a body over the limit is 413.
 * Bad JSON is left for the route to refuse (100006: its validator, app.ts, or its handler, lib/late-body.ts),
 * so an unknown route still answers 100004 and a caller without access still gets 201001/201002 first.
 */
import type { MiddlewareHandler } from "hono";
import { ApiError } from "../lib/errors";
import { readLimited } from "../lib/read-limited";

export const JSON_BODY_LIMIT = 1024 * 1024;
export const UPLOAD_BODY_LIMIT = 20 * 1024 * 1024;

const isForm = (type: string) => /^(multipart\/form-data|application\/x-www-form-urlencoded)/i.test(type);

function tooLarge(limit: number): ApiError {
  return new ApiError("BODY_TOO_LARGE", { errors: { body: `at most ${limit} bytes` } });
}

export const normaliseBody: MiddlewareHandler = async (c, next) => {
  const method = c.req.method;
  if (method === "GET" || method === "HEAD" || method === "OPTIONS") return next();
  const type = c.req.header("content-type") ?? "";
  const limit = isForm(type) ? UPLOAD_BODY_LIMIT : JSON_BODY_LIMIT;
  const declared = Number(c.req.header("content-length") ?? 0);
  if (declared > limit) throw tooLarge(limit);
  if (isForm(type)) return next();

  const text = new TextDecoder().decode(await readLimited(c.req.raw.body, limit, () => tooLarge(limit))).trim() || "{}";
  const headers = new Headers(c.req.raw.headers);
  headers.set("content-type", "application/json");
  headers.delete("content-length");
  c.req.raw = new Request(c.req.raw.url, { method, headers, body: text });
  await next();
};

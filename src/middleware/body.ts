/**
 * Request bodies, before any route sees them (DECISIONS.md, wire format): a missing or empty body counts as
 * `{}` (official clients send `Content-Type: application/json` with no body on some POSTs); the body is
 * parsed as JSON whatever its Content-Type says, unless it is a form upload; bad JSON is 100006; a body over
 * the limit is 413.
 */
import type { MiddlewareHandler } from "hono";
import { ApiError } from "../lib/errors";

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

  const bytes = new Uint8Array(await c.req.raw.arrayBuffer());
  if (bytes.byteLength > limit) throw tooLarge(limit);
  const text = new TextDecoder().decode(bytes).trim() || "{}";
  try {
    JSON.parse(text);
  } catch {
    throw new ApiError("JSON_MALFORMED");
  }
  const headers = new Headers(c.req.raw.headers);
  headers.set("content-type", "application/json");
  headers.delete("content-length");
  c.req.raw = new Request(c.req.raw.url, { method, headers, body: text });
  await next();
};

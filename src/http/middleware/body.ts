/**
 * Request bodies, before any route sees them (docs/conventions.md#request-bodies). Every body of a write is held to
 * 1 MiB, whatever its Content-Type or transfer encoding, except a multipart form on an upload route (20 MiB; the upload
 * reader holds each file to its own limit). A body is JSON: sent as `application/json` (as every adapter of the
 * official SDK sends it) or without a Content-Type; another type is 415, since reading JSON from `text/plain` or a
 * urlencoded form is what lets a plain HTML form on another site post to the API. A missing or blank body counts as
 * `{}` (official clients send `Content-Type: application/json` with no body on some POSTs). Bad JSON is left for the
 * route to refuse (100006: its validator, app.ts, or its handler, http/late-body.ts), so a caller without access still
 * gets 201001/201002 first; a path no route serves is not read at all and answers 100004.
 */
import type { MiddlewareHandler } from "hono";
import { ApiError } from "../../core/errors";
import { readLimited } from "../../lib/read-limited";
import { writeRoute } from "./route-key";

export const JSON_BODY_LIMIT = 1024 * 1024;
export const UPLOAD_BODY_LIMIT = 20 * 1024 * 1024;

/** The routes that take a file (http/middleware/route-key.ts names them). */
export const UPLOAD_ROUTES: ReadonlySet<string> = new Set([
  "POST /api/images",
  "POST /api/user/avatar",
  "POST /api/user/cover",
  "POST /api/topics",
  "POST /api/topics/:topic_id",
  "PATCH /api/topics/:topic_id",
]);

const isMultipart = (type: string) => /^multipart\/form-data/i.test(type);
/** `application/json`, `application/json; charset=utf-8`, `application/merge-patch+json`, or no type at all. */
const isJson = (type: string) => type === "" || /^application\/([\w.-]+\+)?json\s*(;|$)/i.test(type);

function tooLarge(limit: number): ApiError {
  return new ApiError("BODY_TOO_LARGE", { errors: { body: `at most ${limit} bytes` } });
}

export const normaliseBody: MiddlewareHandler = async (c, next) => {
  const route = writeRoute(c);
  if (!route) return next();
  const type = (c.req.header("content-type") ?? "").trim();
  const upload = UPLOAD_ROUTES.has(route) && isMultipart(type);
  const limit = upload ? UPLOAD_BODY_LIMIT : JSON_BODY_LIMIT;
  const declared = Number(c.req.header("content-length") ?? 0);
  if (declared > limit) throw tooLarge(limit);
  if (upload) return next();

  const text = new TextDecoder().decode(await readLimited(c.req.raw.body, limit, () => tooLarge(limit))).trim() || "{}";
  if (text !== "{}" && !isJson(type)) {
    const errors = { body: "must be JSON sent as Content-Type: application/json" };
    throw new ApiError("VALIDATION", { status: 415, errors });
  }
  const headers = new Headers(c.req.raw.headers);
  headers.set("content-type", "application/json");
  headers.delete("content-length");
  c.req.raw = new Request(c.req.raw.url, { method: c.req.method, headers, body: text });
  await next();
};

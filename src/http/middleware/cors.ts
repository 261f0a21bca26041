/** CORS as the reference describes (docs/conventions.md), plus `Authorization` for bearer tokens. */
import type { MiddlewareHandler } from "hono";

const headers: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "OPTIONS, GET, POST, PATCH, PUT, DELETE",
  "Access-Control-Allow-Headers":
    "Token, Authorization, Origin, X-Requested-With, X-Http-Method-Override, Accept, Content-Type, Connection, " +
    "User-Agent, X-D1-Bookmark, X-Request-Id",
  // A page on another origin reads the bookmark to echo it (docs/performance.md#read-replicas-and-bookmarks), and
  // the request id to quote it (docs/decisions.md#request-ids-and-one-log-line-per-request).
  "Access-Control-Expose-Headers": "X-D1-Bookmark, X-Request-Id",
  "Access-Control-Max-Age": "86400",
  // Lets browsers show the Server-Timing entry to pages on other origins.
  "Timing-Allow-Origin": "*",
};

export const cors: MiddlewareHandler = async (c, next) => {
  if (c.req.method === "OPTIONS") return new Response(null, { status: 200, headers });
  await next();
  for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
};

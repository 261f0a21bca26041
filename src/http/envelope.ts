/**
 * The one module that builds success bodies: `{code: 0, data}` or `{code: 0, data, pagination}`. A GET's body
 * carries its `ETag`, the SHA-1 of its bytes, made here where the bytes are at hand: the app's etag middleware
 * (src/app.ts) then only compares it with `If-None-Match`, instead of copying the body's stream to hash it.
 */
import type { Context, TypedResponse } from "hono";
import type { JSONParsed } from "hono/utils/types";
import { toHex } from "../lib/crypto";
import type { Pagination } from "../lib/pagination";

const encoder = new TextEncoder();

/** What `c.json(body, 200)` would answer, typed the same for the routes' OpenAPI responses. */
type Json<T> = Promise<Response & TypedResponse<JSONParsed<T>, 200, "json">>;

async function json<T>(c: Context, body: T): Json<T> {
  const text = JSON.stringify(body);
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  let response: Response;
  if (c.req.method !== "GET" && c.req.method !== "HEAD") response = c.body(text, 200, headers);
  else {
    const bytes = encoder.encode(text) as Uint8Array<ArrayBuffer>;
    headers.ETag = `"${toHex(await crypto.subtle.digest("SHA-1", bytes))}"`;
    response = c.body(bytes, 200, headers);
  }
  // The body is `body` as JSON, as c.json would have written it: only the type says so.
  return response as Awaited<Json<T>>;
}

export const ok = <T>(c: Context, data: T) => json(c, { code: 0 as const, data });

export const page = <T>(c: Context, data: T[], pagination: Pagination) =>
  json(c, { code: 0 as const, data, pagination });

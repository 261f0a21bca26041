/**
 * Calls the real Worker the way a client would, through HTTP semantics, and waits for its `waitUntil` work
 * (cache writes, token renewal) so each test sees the state a later request would.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../src/index";

export interface ApiResponse {
  status: number;
  // Tests read and assert on arbitrary JSON shapes; `unknown` would need a cast at each of over a thousand reads.
  // biome-ignore lint/suspicious/noExplicitAny: see above
  body: any;
  headers: Headers;
  /** D1 round trips the request made, from its Server-Timing header. */
  roundTrips: number;
}

export interface RequestOptions {
  token?: string;
  bearer?: string;
  body?: unknown;
  /** A raw body sent as is (for malformed JSON tests). */
  rawBody?: string | FormData;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  /** Bindings in place of the test's own, e.g. a D1 that fails on purpose (test/helpers/faulty-db.ts). */
  env?: typeof env;
}

export const BASE = "http://mdclub.test";

/** One request to the Worker's fetch handler, answered once its `waitUntil` work is done. */
export async function fetchWorker(request: Request, bindings: typeof env = env): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(request, bindings, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

export async function call(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
  const url = new URL(path, BASE);
  for (const [key, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined) url.searchParams.set(key, String(value));
  }
  const headers = new Headers(options.headers);
  if (options.token) headers.set("token", options.token);
  if (options.bearer) headers.set("authorization", `Bearer ${options.bearer}`);
  let body: BodyInit | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers.set("content-type", "application/json");
  }
  const res = await fetchWorker(new Request(url, { method, headers, body }), options.env);
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON: the test sees the text.
  }
  const timing = res.headers.get("server-timing") ?? "";
  const roundTrips = Number(/desc="(\d+) round trips"/.exec(timing)?.[1] ?? Number.NaN);
  return { status: res.status, body: parsed, headers: res.headers, roundTrips };
}

export const get = (path: string, options?: RequestOptions) => call("GET", path, options);
export const post = (path: string, options?: RequestOptions) => call("POST", path, options);
export const patch = (path: string, options?: RequestOptions) => call("PATCH", path, options);
export const put = (path: string, options?: RequestOptions) => call("PUT", path, options);
export const del = (path: string, options?: RequestOptions) => call("DELETE", path, options);

/**
 * Names every response with its request's id (`X-Request-Id`) and writes one JSON log line per request
 * (docs/decisions.md#request-ids-and-one-log-line-per-request). A try whose work is void (http/attempt.ts) writes
 * nothing: the try that answers writes the line for the whole request, its duration and D1 cost spanning both.
 * The line holds no header, query string or body, so no token, password or text a user wrote reaches the logs.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env";
import { matchedRoute } from "./route-key";

/** The fields of the line, in the order written; Workers Logs indexes each one. */
interface RequestLogLine {
  id: string;
  method: string;
  /** The route template (`/api/questions/:question_id`), never the path with its ids; null when none matched. */
  route: string | null;
  status: number;
  duration_ms: number;
  d1_round_trips: number;
  d1_rows_read: number;
  caller_id: number | null;
  /** The body's `code` when the answer is an error (also under LEGACY_ERROR_STATUS, where the status is 200). */
  error_code: number | null;
}

export const requestLog: MiddlewareHandler<AppEnv> = async (c, next) => {
  const attempt = c.get("attempt");
  await next();
  if (attempt.retry) return;
  c.res.headers.set("X-Request-Id", attempt.id);
  // Off for a deployment that reads Cloudflare's own request logs instead, and for the load benchmark, where
  // `wrangler dev` itself spends about 1 ms per printed line (docs/performance.md#the-load-benchmark).
  if (c.env.REQUEST_LOG === "false") return;
  const line: RequestLogLine = {
    id: attempt.id,
    method: c.req.method,
    route: matchedRoute(c)?.path ?? null,
    status: c.res.status,
    duration_ms: Math.round((performance.now() - attempt.started) * 10) / 10,
    d1_round_trips: attempt.meter.roundTrips,
    d1_rows_read: attempt.meter.rowsRead,
    caller_id: c.get("caller")?.user_id ?? null,
    error_code: c.get("errorCode") ?? null,
  };
  console.log(JSON.stringify(line));
};

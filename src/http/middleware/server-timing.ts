/**
 * Gives each request its D1 meter (its Drizzle client, on the request's D1 session, comes with the caller:
 * http/middleware/context.ts) and reports its round trips in `Server-Timing`.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env";
import { attemptOf } from "../attempt";

export const meteredDb: MiddlewareHandler<AppEnv> = async (c, next) => {
  // A second try of the request (http/attempt.ts) counts in the first one's meter.
  const attempt = attemptOf(c.req.raw);
  c.set("attempt", attempt);
  c.set("meter", attempt.meter);
  await next();
  if (c.env.SERVER_TIMING !== "false") c.res.headers.append("Server-Timing", attempt.meter.header());
};

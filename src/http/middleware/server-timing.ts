/** Gives each request its own metered Drizzle client and reports its D1 round trips in `Server-Timing`. */
import type { MiddlewareHandler } from "hono";
import { createDb } from "../../db/client";
import type { AppEnv } from "../app-env";
import { attemptOf } from "../attempt";

export const meteredDb: MiddlewareHandler<AppEnv> = async (c, next) => {
  // A second try of the request (http/attempt.ts) counts in the first one's meter.
  const attempt = attemptOf(c.req.raw);
  c.set("attempt", attempt);
  c.set("meter", attempt.meter);
  c.set("db", createDb(c.env.DB, attempt.meter));
  await next();
  if (c.env.SERVER_TIMING !== "false") c.res.headers.append("Server-Timing", attempt.meter.header());
};

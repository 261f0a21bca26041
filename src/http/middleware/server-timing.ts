/** Gives each request its own metered Drizzle client and reports its D1 round trips in `Server-Timing`. */
import type { MiddlewareHandler } from "hono";
import { createDb, D1Meter } from "../../db/client";
import type { AppEnv } from "../app-env";

export const meteredDb: MiddlewareHandler<AppEnv> = async (c, next) => {
  const meter = new D1Meter();
  c.set("meter", meter);
  c.set("db", createDb(c.env.DB, meter));
  await next();
  if (c.env.SERVER_TIMING !== "false") c.res.headers.append("Server-Timing", meter.header());
};

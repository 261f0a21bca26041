/** Worker entry: the HTTP API and the hourly clean-up of expired tokens, codes and throttle events. */
import { createApp } from "./app";
import type { Bindings } from "./core/env";
import { backgroundDb } from "./db/client";
import { overrideMethod } from "./lib/method-override";
import { purgeExpired } from "./modules/auth/cleanup";

const app = createApp();

export default {
  fetch: (request: Request, env: Bindings, ctx: ExecutionContext) => app.fetch(overrideMethod(request), env, ctx),
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(purgeExpired(backgroundDb(env.DB)));
  },
} satisfies ExportedHandler<Bindings>;

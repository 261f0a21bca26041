/**
 * Worker entry: the HTTP API, the hourly clean-up of expired tokens, codes, throttle events and old webhook attempts,
 * the webhook queues' consumer, and the live hubs' Durable Object class (docs/events.md).
 */
import { createApp } from "./app";
import type { Bindings } from "./core/env";
import { backgroundDb } from "./db/client";
import { beginAttempt } from "./http/attempt";
import { credentialOf } from "./http/credential";
import { overrideMethod } from "./lib/method-override";
import { purgeExpired } from "./modules/auth/cleanup";
import { purgeDeliveryLog } from "./modules/webhooks/cleanup";
import { consumeWebhooks } from "./modules/webhooks/delivery";
import type { DeliveryMessage } from "./modules/webhooks/messages";

export { LiveHub } from "./modules/live/hub";

const app = createApp();

const carriesBody = (request: Request) => request.body !== null && request.method !== "GET";

/**
 * Serves a request, and once more when its token check contradicted what the token claimed (http/attempt.ts): the
 * second try knows the caller and the settings, so it cannot need a third. A body is read once per try, so a
 * request that may need a second one keeps a copy of its body for it.
 */
async function serve(request: Request, env: Bindings, ctx: ExecutionContext): Promise<Response> {
  // Only a request with a token can need a second try.
  const spare = credentialOf(request.headers) && carriesBody(request) ? request.clone() : request;
  const attempt = beginAttempt(request);
  const response = await app.fetch(request, env, ctx);
  if (!attempt.retry) return response;
  beginAttempt(spare, attempt.retry, attempt);
  return app.fetch(spare, env, ctx);
}

export default {
  fetch: (request: Request, env: Bindings, ctx: ExecutionContext) => serve(overrideMethod(request), env, ctx),
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(purgeExpired(backgroundDb(env.DB)));
    ctx.waitUntil(purgeDeliveryLog(backgroundDb(env.DB)));
  },
  queue: (batch, env) => consumeWebhooks(batch, env),
} satisfies ExportedHandler<Bindings, DeliveryMessage>;

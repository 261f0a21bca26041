/**
 * What goes through the webhook queue (docs/events.md#webhooks): one message per event and endpoint, carrying the
 * body as it is signed and sent on every attempt, so that a retry sends the same bytes under the same `webhook-id`.
 */
import type { Bindings } from "../../core/env";

export interface DeliveryMessage {
  webhook_id: number;
  event_id: string;
  event_type: string;
  /** `{type, timestamp, data}` as JSON: the request body. */
  body: string;
  /** Asked for again by an administrator (POST …/redeliver). */
  redelivery?: boolean;
}

/** The development switch that lets webhooks go to http and local addresses (docs/events.md#where-webhooks-may-go). */
export const allowLocal = (env: Pick<Bindings, "WEBHOOK_ALLOW_LOCAL">): boolean => env.WEBHOOK_ALLOW_LOCAL === "true";

/** Queues' limits on one `sendBatch`: 100 messages and 256 KB. A body is at most 20 KB, so 10 always fit. */
const PER_BATCH = 10;

export async function enqueue(env: Pick<Bindings, "WEBHOOK_QUEUE">, messages: DeliveryMessage[]): Promise<void> {
  for (let at = 0; at < messages.length; at += PER_BATCH) {
    await env.WEBHOOK_QUEUE.sendBatch(messages.slice(at, at + PER_BATCH).map((body) => ({ body })));
  }
}

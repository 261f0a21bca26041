/**
 * Webhooks in tests (docs/events.md#webhooks): endpoints written straight into D1 with a known secret, a queue that
 * records what the publisher sends it, the queue consumer run on given messages, and the loopback receiver of
 * test/global-setup.ts.
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../src/index";
import { newSecret } from "../../src/lib/standard-webhooks";
import { now } from "../../src/lib/time";
import { DEAD_LETTER_QUEUE } from "../../src/modules/webhooks/delivery";
import type { DeliveryMessage } from "../../src/modules/webhooks/messages";

export interface TestWebhook {
  webhook_id: number;
  url: string;
  secret: string;
}

/** The receiver's URL for `name`: what it gets is kept under that name. */
export const receiverUrl = (name: string) => `${env.TEST_WEBHOOK_RECEIVER}/hooks/${name}`;

export async function createWebhook(
  fields: { url?: string; event_types?: string[]; active?: boolean; failing_since?: number; name?: string } = {},
): Promise<TestWebhook> {
  const secret = newSecret();
  const url = fields.url ?? receiverUrl(fields.name ?? `hook${Math.random().toString(36).slice(2)}`);
  const time = now();
  const row = await env.DB.prepare(
    `INSERT INTO webhooks (url, event_types, active, secret, failing_since, create_time, update_time)
     VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING webhook_id`,
  )
    .bind(
      url,
      JSON.stringify(fields.event_types ?? []),
      fields.active === false ? 0 : 1,
      secret,
      fields.failing_since ?? 0,
      time,
      time,
    )
    .first<{ webhook_id: number }>();
  return { webhook_id: row!.webhook_id, url, secret };
}

/** The receiver answers `name`'s requests with these statuses in turn, the last one from then on. */
export async function script(name: string, statuses: number[]): Promise<void> {
  await fetch(`${env.TEST_WEBHOOK_RECEIVER}/scripts/${name}`, { method: "PUT", body: JSON.stringify(statuses) });
}

export interface Received {
  headers: Record<string, string>;
  body: string;
  status: number;
}

/** What the receiver got for `name`, once it has at least `count` requests (or after 5 s). */
export async function receivedBy(name: string, count = 1): Promise<Received[]> {
  return (await fetch(`${env.TEST_WEBHOOK_RECEIVER}/received/${name}?count=${count}`)).json();
}

/** Bindings whose webhook queue records what is sent to it, and that may deliver to the loopback receiver. */
export function recordingQueue(extra: Partial<typeof env> = {}) {
  const sent: DeliveryMessage[] = [];
  const queue = {
    send: async (body: DeliveryMessage) => void sent.push(body),
    sendBatch: async (messages: Iterable<{ body: DeliveryMessage }>) => {
      for (const message of messages) sent.push(message.body);
    },
  } as unknown as Queue;
  return { bindings: { ...env, WEBHOOK_QUEUE: queue, WEBHOOK_ALLOW_LOCAL: "true", ...extra }, sent };
}

/** Runs the queue consumer on messages (each with its attempt number), and answers what it acked or retried. */
export async function consume(
  messages: { body: DeliveryMessage; attempts?: number }[],
  bindings: typeof env = recordingQueue().bindings,
  queue = "mdclub-webhooks",
) {
  const batch = createMessageBatch<DeliveryMessage>(
    queue,
    messages.map((message, i) => ({
      id: `m${i}`,
      timestamp: new Date(),
      attempts: message.attempts ?? 1,
      body: message.body,
    })),
  );
  // The pool's result names retried messages without their delay: each retry's options are kept here.
  const delays: Record<string, number | undefined> = {};
  for (const message of batch.messages) {
    const retry = message.retry.bind(message);
    message.retry = (options) => {
      delays[message.id] = options?.delaySeconds;
      retry(options);
    };
  }
  const ctx = createExecutionContext();
  await worker.queue(batch, bindings);
  const result = await getQueueResult(batch, ctx);
  return {
    ...result,
    retryMessages: result.retryMessages.map((retried) => ({ ...retried, delaySeconds: delays[retried.msgId] })),
  };
}

export const consumeDeadLetters = (messages: { body: DeliveryMessage }[], bindings?: typeof env) =>
  consume(messages, bindings, DEAD_LETTER_QUEUE);

export async function deliveries(webhookId: number): Promise<Record<string, unknown>[]> {
  return (
    await env.DB.prepare("SELECT * FROM webhook_deliveries WHERE webhook_id = ? ORDER BY delivery_id")
      .bind(webhookId)
      .all<Record<string, unknown>>()
  ).results;
}

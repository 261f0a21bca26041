/**
 * Webhook delivery (docs/events.md#delivery-and-retries), the queue's consumer. Each message is one event for one
 * endpoint: its body is sent signed (Standard Webhooks), with no redirect followed and a short timeout, and the attempt
 * logged. A failure is retried later, the delays growing to Queues' most (12 hours) over about three days; after the
 * last one Queues moves the message to the dead-letter queue, whose consumer logs that it gave up. An endpoint that
 * answers 410, or has failed every attempt for three days, is stopped and the administrators are notified.
 */
import { webhookDisabled } from "../../behaviours/notification-events";
import { type Bindings, mdclubCompat } from "../../core/env";
import { type BatchStatement, backgroundDb, batch, type Db } from "../../db/client";
import { refusedUrl } from "../../lib/public-address";
import { signatureHeader } from "../../lib/standard-webhooks";
import { now } from "../../lib/time";
import { emitNotified, takeOutbox } from "../events/outbox";
import { publicView, publish } from "../events/publish";
import { allowLocal, type DeliveryMessage } from "./messages";
import { type DeliveryTarget, logAttempt, recordHealth, stopWebhook, webhooksForDelivery } from "./repo";

/** Seconds before each retry: after attempt n fails, the n-th (wrangler.toml's `max_retries` is their number). */
export const RETRY_DELAYS = [5, 300, 1800, 7200, 18_000, 36_000, 43_200, 43_200, 43_200, 43_200, 43_200];
/** An endpoint whose attempts have all failed for this long is stopped. */
export const FAILING_SECONDS = 3 * 86_400;
/** The dead-letter queue's name in wrangler.toml: its messages are deliveries given up. */
export const DEAD_LETTER_QUEUE = "mdclub-webhook-dead-letters";

const TIMEOUT_MS = 10_000;

interface Outcome {
  status: number;
  error: string;
  duration: number;
  time: number;
  /** The address is refused: no later attempt can do better. */
  refused?: boolean;
}

const delivered = (outcome: Outcome) => outcome.status >= 200 && outcome.status < 300;

/** The secrets that sign now: the current one, and the previous one while a rotation overlaps. */
const secretsOf = (target: DeliveryTarget, time: number) =>
  target.previous_secret && target.previous_secret_expire_time > time
    ? [target.secret, target.previous_secret]
    : [target.secret];

async function attempt(target: DeliveryTarget, message: DeliveryMessage, allowLocal: boolean): Promise<Outcome> {
  const time = now();
  const started = Date.now();
  const elapsed = () => Date.now() - started;
  const refused = refusedUrl(target.url, allowLocal);
  if (refused) return { status: 0, error: `address refused: ${refused}`, duration: 0, time, refused: true };
  const headers = {
    "content-type": "application/json",
    "user-agent": "mdclub-edge-webhooks/1",
    "webhook-id": message.event_id,
    "webhook-timestamp": String(time),
    "webhook-signature": await signatureHeader(secretsOf(target, time), message.event_id, time, message.body),
  };
  try {
    const response = await fetch(target.url, {
      method: "POST",
      headers,
      body: message.body,
      redirect: "manual",
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    await response.body?.cancel();
    const { status } = response;
    const error =
      status >= 200 && status < 300 ? "" : status >= 300 && status < 400 ? "redirect not followed" : `HTTP ${status}`;
    return { status, error, duration: elapsed(), time };
  } catch (error) {
    const timedOut = error instanceof Error && error.name === "TimeoutError";
    const reason = timedOut ? `timed out after ${TIMEOUT_MS / 1000} s` : `network error: ${String(error)}`;
    return { status: 0, error: reason, duration: elapsed(), time };
  }
}

/** Why an endpoint is stopped after this outcome, if it is. */
function stopReason(target: DeliveryTarget, outcome: Outcome): "gone" | "failing" | null {
  if (outcome.status === 410) return "gone";
  if (delivered(outcome)) return null;
  return target.failing_since > 0 && outcome.time - target.failing_since >= FAILING_SECONDS ? "failing" : null;
}

/** Stops endpoints and notifies the administrators, in the batch of the attempts; then tells their live streams. */
function stopStatements(db: Db, env: Bindings, stops: Map<number, "gone" | "failing">, time: number): BatchStatement[] {
  return [...stops].flatMap(([id, reason]) => [
    stopWebhook(db, id, reason, time),
    ...webhookDisabled(db, id, time, mdclubCompat(env)),
  ]);
}

async function finish(db: Db, env: Bindings, writes: BatchStatement[], stops: Map<number, unknown>, time: number) {
  if (writes.length) await batch(db, writes);
  if (stops.size === 0 || mdclubCompat(env)) return;
  const ids = [...stops.keys()];
  emitNotified(db, {
    type: "webhook_disabled",
    column: "webhook_id",
    ids,
    receivers: { administrators: true },
    sender_id: 0,
    create_time: time,
  });
  const outbox = takeOutbox(db);
  if (outbox) await publish(env, outbox, await publicView(env, "", null));
}

/** The endpoints of a batch of deliveries, in one read. */
const targetsOf = (db: Db, messages: readonly Message<DeliveryMessage>[]) =>
  batch(db, webhooksForDelivery(db, [...new Set(messages.map((m) => m.body.webhook_id))]));

/** The delivery log's columns that name an attempt of a queued delivery. */
const attemptOf = ({ webhook_id, event_id, event_type, redelivery }: DeliveryMessage, attempt: number) => ({
  webhook_id,
  event_id,
  event_type,
  attempt,
  redelivery: redelivery ? 1 : 0,
});

/** Attempts a batch of deliveries: one read of their endpoints, then one batch logging them all. */
async function deliver(messages: readonly Message<DeliveryMessage>[], env: Bindings): Promise<void> {
  const db = backgroundDb(env.DB);
  const targets = await targetsOf(db, messages);
  const byId = new Map(targets.map((target) => [target.webhook_id, target]));
  const local = allowLocal(env);
  const writes: BatchStatement[] = [];
  const stops = new Map<number, "gone" | "failing">();
  const time = now();
  await Promise.all(
    messages.map(async (message) => {
      const target = byId.get(message.body.webhook_id);
      // Deleted or stopped since it was queued: nothing to send, nothing to log.
      if (target?.active !== 1 || stops.has(target.webhook_id)) return message.ack();
      const outcome = await attempt(target, message.body, local);
      const { body, webhook_id } = message.body;
      const result = { status_code: outcome.status, duration_ms: outcome.duration, error: outcome.error };
      const row = { ...attemptOf(message.body, message.attempts), ...result, create_time: outcome.time };
      writes.push(...logAttempt(db, row, body));
      writes.push(recordHealth(db, webhook_id, delivered(outcome), outcome.time));
      const stop = stopReason(target, outcome);
      if (stop) stops.set(webhook_id, stop);
      if (delivered(outcome) || stop || outcome.refused) message.ack();
      else message.retry({ delaySeconds: RETRY_DELAYS[Math.min(message.attempts, RETRY_DELAYS.length) - 1] });
    }),
  );
  writes.push(...stopStatements(db, env, stops, time));
  await finish(db, env, writes, stops, time);
}

/** Deliveries given up after every retry: logged so (attempt 0), and their endpoint stopped if failing for days. */
async function giveUp(messages: readonly Message<DeliveryMessage>[], env: Bindings): Promise<void> {
  const db = backgroundDb(env.DB);
  const targets = await targetsOf(db, messages);
  const time = now();
  const stops = new Map<number, "gone" | "failing">();
  const error = `given up after ${RETRY_DELAYS.length + 1} attempts`;
  const writes = messages.flatMap((message) =>
    logAttempt(db, { ...attemptOf(message.body, 0), error, create_time: time }, message.body.body),
  );
  for (const target of targets) {
    const failing = { status: 0, error: "", duration: 0, time };
    if (target.active === 1 && stopReason(target, failing)) stops.set(target.webhook_id, "failing");
  }
  writes.push(...stopStatements(db, env, stops, time));
  await finish(db, env, writes, stops, time);
  for (const message of messages) message.ack();
}

/** The Worker's queue handler: deliveries, or dead letters. */
export async function consumeWebhooks(batchOf: MessageBatch<DeliveryMessage>, env: Bindings): Promise<void> {
  if (batchOf.queue === DEAD_LETTER_QUEUE) await giveUp(batchOf.messages, env);
  else await deliver(batchOf.messages, env);
}

/**
 * Webhook delivery (docs/events.md#delivery-and-retries), end to end: a write's events queued for the endpoints that
 * want them, the queue consumer sending them to a receiver on loopback, signatures checked with the Standard Webhooks
 * library, every attempt logged, retries and their delays, the dead-letter queue, stopping an endpoint (410, days of
 * failure) with the administrators notified, rotation, redirects, refused addresses, redelivery, and size.
 */
import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { now } from "../src/lib/time";
import { FAILING_SECONDS, RETRY_DELAYS } from "../src/modules/webhooks/delivery";
import type { DeliveryMessage } from "../src/modules/webhooks/messages";
import { get, patch, post } from "./helpers/api";
import { createQuestion, createTopic } from "./helpers/content";
import { createAdmin, createUser } from "./helpers/factories";
import { openLive, ticketFor } from "./helpers/live";
import {
  consume,
  consumeDeadLetters,
  createWebhook,
  deliveries,
  type Received,
  receivedBy,
  receiverUrl,
  recordingQueue,
  script,
} from "./helpers/webhooks";

/** A receiver name no other test uses (the receiver keeps what it got for the whole run). */
const hookName = () => `delivery${crypto.randomUUID()}`;

/** An answer by `answerer` to a new question of `asker`, with the queue recording what was sent. */
async function answered(extra: Partial<typeof env> = {}) {
  const [asker, answerer] = [await createUser(), await createUser()];
  const question = await createQuestion(asker.user_id);
  const queue = recordingQueue(extra);
  const res = await post(`/api/questions/${question}/answers`, {
    token: answerer.token,
    body: { content_markdown: "an answer" },
    env: queue.bindings,
  });
  expect(res.status).toBe(200);
  return { ...queue, asker, answerer, question, answerId: res.body.data.answer_id as number };
}

const verified = (secret: string, received: Received) =>
  new Webhook(secret).verify(received.body, received.headers) as { type: string; timestamp: string; data: unknown };

describe("queued deliveries", () => {
  it("queues each public event once per endpoint that wants it, never a member's private ones", async () => {
    const all = await createWebhook({ url: "https://hooks.example.com/all" });
    const some = await createWebhook({ url: "https://hooks.example.com/some", event_types: ["question.created"] });
    await createWebhook({ url: "https://hooks.example.com/off", active: false });
    const { sent, answerId } = await answered();
    expect(sent.map((message) => [message.webhook_id, message.event_type])).toEqual([
      [all.webhook_id, "answer.created"],
    ]);
    const body = JSON.parse(sent[0]!.body);
    expect(Object.keys(body)).toEqual(["type", "timestamp", "data"]);
    expect(body.type).toBe("answer.created");
    expect(new Date(body.timestamp).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(body.data).toMatchObject({ answer_id: answerId });
    expect(body.data.relationships.user).not.toHaveProperty("email");
    expect(sent[0]!.event_id).toMatch(/^evt_/);
    expect(some.webhook_id).not.toBe(all.webhook_id);
  });

  it("cuts an event over 20 KB down to what fits, saying so", async () => {
    await createWebhook({ url: "https://hooks.example.com/all" });
    const user = await createUser();
    const topic = await createTopic();
    const queue = recordingQueue();
    const markdown = "A long article. ".repeat(2000);
    const res = await post("/api/articles", {
      token: user.token,
      body: { title: "Long", content_markdown: markdown, topic_ids: [topic] },
      env: queue.bindings,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [message] = queue.sent;
    expect(new TextEncoder().encode(message!.body).byteLength).toBeLessThanOrEqual(20 * 1024);
    const { data } = JSON.parse(message!.body);
    expect(data).toMatchObject({ article_id: res.body.data.article_id, title: "Long", truncated: true });
    expect(data).not.toHaveProperty("content_markdown");
  });
});

describe("the consumer", () => {
  it("delivers signed (Standard Webhooks) to the endpoint and logs the attempt", async () => {
    const name = hookName();
    const hook = await createWebhook({ url: receiverUrl(name) });
    const { sent, bindings } = await answered();
    const result = await consume(
      sent.map((body) => ({ body })),
      bindings,
    );
    expect(result.explicitAcks).toEqual(["m0"]);
    const [received] = await receivedBy(name);
    expect(received!.headers["webhook-id"]).toBe(sent[0]!.event_id);
    expect(received!.headers["content-type"]).toBe("application/json");
    expect(verified(hook.secret, received!)).toMatchObject({ type: "answer.created" });
    expect(() =>
      new Webhook(`whsec_${btoa("another key, not this hook's")}`).verify(received!.body, received!.headers),
    ).toThrow();
    const [logged] = await deliveries(hook.webhook_id);
    expect(logged).toMatchObject({
      event_id: sent[0]!.event_id,
      event_type: "answer.created",
      attempt: 1,
      redelivery: 0,
      status_code: 200,
      error: "",
    });
  });

  it("retries a failure with the same webhook-id, then delivers and clears the failing run", async () => {
    const name = hookName();
    await script(name, [500, 200]);
    const hook = await createWebhook({ url: receiverUrl(name) });
    const { sent, bindings } = await answered();
    const first = await consume([{ body: sent[0]! }], bindings);
    expect(first.retryMessages).toEqual([{ msgId: "m0", delaySeconds: RETRY_DELAYS[0] }]);
    const failing = await env.DB.prepare("SELECT failing_since FROM webhooks WHERE webhook_id = ?")
      .bind(hook.webhook_id)
      .first<number>("failing_since");
    expect(failing).toBeGreaterThan(0);
    const second = await consume([{ body: sent[0]!, attempts: 2 }], bindings);
    expect(second.explicitAcks).toEqual(["m0"]);
    const received = await receivedBy(name, 2);
    expect(received.map((request) => request.headers["webhook-id"])).toEqual([sent[0]!.event_id, sent[0]!.event_id]);
    expect((await deliveries(hook.webhook_id)).map((row) => [row.attempt, row.status_code, row.error])).toEqual([
      [1, 500, "HTTP 500"],
      [2, 200, ""],
    ]);
    const after = await env.DB.prepare("SELECT failing_since FROM webhooks WHERE webhook_id = ?")
      .bind(hook.webhook_id)
      .first("failing_since");
    expect(after).toBe(0);
  });

  it("waits longer after each failure, at most Queues' 12 hours, over about three days", async () => {
    const name = hookName();
    await script(name, [503]);
    await createWebhook({ url: receiverUrl(name) });
    const { sent, bindings } = await answered();
    const delays: number[] = [];
    for (let attempts = 1; attempts <= RETRY_DELAYS.length + 1; attempts++) {
      const result = await consume([{ body: sent[0]!, attempts }], bindings);
      delays.push(result.retryMessages[0]!.delaySeconds!);
    }
    expect(delays.slice(0, 6)).toEqual([5, 300, 1800, 7200, 18_000, 36_000]);
    expect(Math.max(...delays)).toBe(43_200);
    const days = RETRY_DELAYS.reduce((sum, delay) => sum + delay, 0) / 86_400;
    expect(days).toBeGreaterThan(2.5);
    expect(days).toBeLessThan(3.5);
  });

  it("logs a dead letter as given up", async () => {
    const hook = await createWebhook({ url: receiverUrl(hookName()) });
    const body: DeliveryMessage = {
      webhook_id: hook.webhook_id,
      event_id: "evt_x",
      event_type: "vote.updated",
      body: "{}",
    };
    const result = await consumeDeadLetters([{ body }]);
    expect(result.explicitAcks).toEqual(["m0"]);
    expect(await deliveries(hook.webhook_id)).toEqual([
      expect.objectContaining({ event_id: "evt_x", attempt: 0, status_code: 0, error: "given up after 12 attempts" }),
    ]);
  });

  it("stops an endpoint that answers 410 and notifies every administrator", async () => {
    const name = hookName();
    await script(name, [410]);
    const [admin, otherAdmin] = [await createAdmin(), await createAdmin()];
    const hook = await createWebhook({ url: receiverUrl(name) });
    const { sent, bindings, asker } = await answered();
    const result = await consume([{ body: sent[0]! }], bindings);
    expect(result.explicitAcks).toEqual(["m0"]);
    expect(result.retryMessages).toEqual([]);
    const row = await env.DB.prepare("SELECT active, disabled_reason FROM webhooks WHERE webhook_id = ?")
      .bind(hook.webhook_id)
      .first();
    expect(row).toEqual({ active: 0, disabled_reason: "gone" });
    for (const user of [admin, otherAdmin]) {
      const notifications = (
        await env.DB.prepare("SELECT type, webhook_id, sender_id FROM notifications WHERE receiver_id = ?")
          .bind(user.user_id)
          .all()
      ).results;
      expect(notifications).toEqual([{ type: "webhook_disabled", webhook_id: hook.webhook_id, sender_id: 0 }]);
    }
    const askers = await env.DB.prepare("SELECT type FROM notifications WHERE receiver_id = ?")
      .bind(asker.user_id)
      .all();
    expect(askers.results).toEqual([{ type: "question_answered" }]);
    // A message queued before the stop is dropped unsent and unlogged.
    await consume([{ body: sent[0]!, attempts: 2 }], bindings);
    expect(await receivedBy(name)).toHaveLength(1);
    expect(await deliveries(hook.webhook_id)).toHaveLength(1);
  });

  it("shows administrators the webhook_disabled notification through the API and on their live stream", async () => {
    const name = hookName();
    await script(name, [410]);
    const admin = await createAdmin();
    const live = await openLive({ ticket: await ticketFor(admin.token) });
    const hook = await createWebhook({ url: receiverUrl(name) });
    const { sent, bindings } = await answered();
    await consume([{ body: sent[0]! }], bindings);
    const list = await get("/api/notifications", { token: admin.token });
    expect(list.body.data).toEqual([
      expect.objectContaining({ type: "webhook_disabled", webhook_id: hook.webhook_id, sender_id: 0 }),
    ]);
    const notified = await live.next((message) => message.type === "notification.created");
    expect(notified.data).toMatchObject({ type: "webhook_disabled", webhook_id: hook.webhook_id });
    expect((await live.next((message) => message.type === "unread.updated")).data.notification_unread).toBe(1);
    live.socket.close();
  });

  it("creates no notification under MDCLUB_COMPAT, whose front ends cannot show it, but still stops", async () => {
    const name = hookName();
    await script(name, [410]);
    await createAdmin();
    const hook = await createWebhook({ url: receiverUrl(name) });
    const { sent, bindings } = await answered({ MDCLUB_COMPAT: "true" });
    await consume([{ body: sent[0]! }], bindings);
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM notifications WHERE type = 'webhook_disabled'").first("n"),
    ).toBe(0);
    expect(
      await env.DB.prepare("SELECT active FROM webhooks WHERE webhook_id = ?").bind(hook.webhook_id).first("active"),
    ).toBe(0);
  });

  it("stops an endpoint whose attempts have all failed for three days", async () => {
    const name = hookName();
    await script(name, [500]);
    await createAdmin();
    const hook = await createWebhook({ url: receiverUrl(name), failing_since: now() - FAILING_SECONDS - 1 });
    const { sent, bindings } = await answered();
    const result = await consume([{ body: sent[0]! }], bindings);
    expect(result.retryMessages).toEqual([]);
    const row = await env.DB.prepare("SELECT active, disabled_reason FROM webhooks WHERE webhook_id = ?")
      .bind(hook.webhook_id)
      .first();
    expect(row).toEqual({ active: 0, disabled_reason: "failing" });
  });

  it("signs with both secrets while a rotation overlaps", async () => {
    const name = hookName();
    const hook = await createWebhook({ url: receiverUrl(name) });
    const admin = await createAdmin();
    const res = await patch(`/api/webhooks/${hook.webhook_id}`, { token: admin.token, body: { rotate_secret: true } });
    const { sent, bindings } = await answered();
    await consume([{ body: sent[0]! }], bindings);
    const [received] = await receivedBy(name);
    expect(received!.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(verified(res.body.data.secret, received!)).toMatchObject({ type: "answer.created" });
    expect(verified(hook.secret, received!)).toMatchObject({ type: "answer.created" });
  });

  it("follows no redirect", async () => {
    const name = hookName();
    await script(name, [302]);
    const hook = await createWebhook({ url: receiverUrl(name) });
    const { sent, bindings } = await answered();
    const result = await consume([{ body: sent[0]! }], bindings);
    expect(result.retryMessages).toHaveLength(1);
    expect((await deliveries(hook.webhook_id))[0]).toMatchObject({ status_code: 302, error: "redirect not followed" });
  });

  it("sends nothing to a local address without the development switch, logging why", async () => {
    const name = hookName();
    const hook = await createWebhook({ url: receiverUrl(name) });
    const { sent, bindings } = await answered();
    const result = await consume([{ body: sent[0]! }], { ...bindings, WEBHOOK_ALLOW_LOCAL: undefined });
    expect(result.explicitAcks).toEqual(["m0"]);
    expect((await deliveries(hook.webhook_id))[0]).toMatchObject({
      status_code: 0,
      error: "address refused: must be an https URL",
    });
    expect(await receivedBy(name, 0)).toEqual([]);
  });

  it("logs a network failure and retries it", async () => {
    const hook = await createWebhook({ url: "http://127.0.0.1:9/closed" });
    const { sent, bindings } = await answered();
    const result = await consume([{ body: sent[0]! }], bindings);
    expect(result.retryMessages).toHaveLength(1);
    expect((await deliveries(hook.webhook_id))[0]).toMatchObject({
      status_code: 0,
      error: expect.stringMatching(/^network error/),
    });
  });
});

describe("redelivery", () => {
  it("sends a delivered event again on request, same webhook-id, logged as a redelivery", async () => {
    const name = hookName();
    const hook = await createWebhook({ url: receiverUrl(name) });
    const admin = await createAdmin();
    const { sent, bindings } = await answered();
    await consume([{ body: sent[0]! }], bindings);
    const [attempt] = await deliveries(hook.webhook_id);
    const again = recordingQueue();
    const res = await post(`/api/webhooks/${hook.webhook_id}/deliveries/${attempt!.delivery_id}/redeliver`, {
      token: admin.token,
      env: again.bindings,
    });
    expect(res.status).toBe(200);
    await consume(
      again.sent.map((body) => ({ body })),
      again.bindings,
    );
    const received = await receivedBy(name, 2);
    expect(received.map((request) => request.headers["webhook-id"])).toEqual([sent[0]!.event_id, sent[0]!.event_id]);
    expect(received[1]!.body).toBe(received[0]!.body);
    expect(verified(hook.secret, received[1]!)).toMatchObject({ type: "answer.created" });
    expect((await deliveries(hook.webhook_id)).map((row) => [row.attempt, row.redelivery])).toEqual([
      [1, 0],
      [1, 1],
    ]);
  });
});

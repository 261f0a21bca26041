/**
 * The webhooks routes (docs/events.md#webhooks), for administrators: creating an endpoint (where it may be, what it
 * receives, its secret shown once), the limit, editing (restart, rotation), deleting, the delivery log, redelivery.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { now } from "../src/lib/time";
import { del, get, patch, post } from "./helpers/api";
import { createAdmin, createUser } from "./helpers/factories";
import { createWebhook, recordingQueue } from "./helpers/webhooks";

const URL = "https://hooks.example.com/mdclub";

async function logAttempt(webhookId: number, eventId: string, body = '{"type":"x"}') {
  const time = now();
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO webhook_deliveries (webhook_id, event_id, event_type, attempt, status_code, duration_ms, error,
       create_time) VALUES (?, ?, 'question.created', 1, 500, 12, 'HTTP 500', ?)`,
    ).bind(webhookId, eventId, time),
    env.DB.prepare(
      "INSERT OR IGNORE INTO webhook_events (event_id, event_type, body, create_time) VALUES (?, 'question.created', ?, ?)",
    ).bind(eventId, body, time),
  ]);
  return (await env.DB.prepare("SELECT max(delivery_id) AS id FROM webhook_deliveries").first<{ id: number }>())!.id;
}

describe("POST /api/webhooks", () => {
  it("adds an active endpoint for every type, answering its secret once", async () => {
    const admin = await createAdmin();
    const res = await post("/api/webhooks", { token: admin.token, body: { url: URL } });
    expect(res.status).toBe(200);
    const { secret, ...record } = res.body.data;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(record).toEqual({
      webhook_id: expect.any(Number),
      url: URL,
      event_types: [],
      active: true,
      disabled_reason: "",
      failing_since: 0,
      previous_secret_expire_time: 0,
      create_time: expect.any(Number),
      update_time: expect.any(Number),
    });
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    const listed = await get("/api/webhooks", { token: admin.token });
    expect(listed.body.data).toEqual([record]);
    expect(JSON.stringify(listed.body)).not.toContain("whsec_");
    expect((await get(`/api/webhooks/${record.webhook_id}`, { token: admin.token })).body.data).toEqual(record);
  });

  it("takes the event types it wants and whether it starts active", async () => {
    const admin = await createAdmin();
    const body = { url: URL, event_types: ["answer.created", "vote.updated"], active: false };
    const res = await post("/api/webhooks", { token: admin.token, body });
    expect(res.body.data).toMatchObject({ event_types: ["answer.created", "vote.updated"], active: false });
  });

  it("refuses types a webhook may not receive, repeated types, and a missing url, naming the field", async () => {
    const admin = await createAdmin();
    for (const [body, field] of [
      [{ url: URL, event_types: ["notification.created"] }, "event_types"],
      [{ url: URL, event_types: ["unread.updated"] }, "event_types"],
      [{ url: URL, event_types: ["answer.created", "answer.created"] }, "event_types"],
      [{}, "url"],
      [{ url: `https://example.com/${"x".repeat(2000)}` }, "url"],
    ] as const) {
      const res = await post("/api/webhooks", { token: admin.token, body });
      expect([res.status, res.body.code, Object.keys(res.body.errors)]).toEqual([400, 200001, [field]]);
    }
    expect(await env.DB.prepare("SELECT count(*) AS n FROM webhooks").first("n")).toBe(0);
  });

  it("refuses a URL that is not https to a public address", async () => {
    const admin = await createAdmin();
    for (const url of [
      "http://hooks.example.com/x",
      "ftp://hooks.example.com/x",
      "https://127.0.0.1/x",
      "https://2130706433/x",
      "https://10.1.2.3/x",
      "https://172.20.0.1/x",
      "https://192.168.1.1/x",
      "https://169.254.169.254/latest/meta-data",
      "https://100.64.0.1/x",
      "https://0.0.0.0/x",
      "https://[::1]/x",
      "https://[fe80::1]/x",
      "https://[fd00::1]/x",
      "https://[::ffff:127.0.0.1]/x",
      "https://localhost/x",
      "https://api.localhost/x",
      "https://printer.local/x",
      "https://db.internal/x",
      "https://intranet/x",
      "https://user:pass@hooks.example.com/x",
      "not a url",
    ]) {
      const res = await post("/api/webhooks", { token: admin.token, body: { url } });
      expect([url, res.status, res.body.code, Object.keys(res.body.errors ?? {})]).toEqual([url, 400, 200001, ["url"]]);
    }
    for (const url of ["https://93.184.215.14/x", "https://[2606:4700::1111]/x", "https://hooks.example.com:8443/x"]) {
      expect((await post("/api/webhooks", { token: admin.token, body: { url } })).status, url).toBe(200);
    }
  });

  it("lets WEBHOOK_ALLOW_LOCAL (development) register an http receiver on this machine", async () => {
    const admin = await createAdmin();
    const { bindings } = recordingQueue();
    const res = await post("/api/webhooks", {
      token: admin.token,
      body: { url: "http://127.0.0.1:8805/hook" },
      env: bindings,
    });
    expect(res.status).toBe(200);
  });

  it("refuses a 21st endpoint with 211003", async () => {
    const admin = await createAdmin();
    for (let i = 0; i < 20; i++) await createWebhook({ url: `${URL}/${i}` });
    const res = await post("/api/webhooks", { token: admin.token, body: { url: URL } });
    expect([res.status, res.body.code]).toEqual([409, 211003]);
  });

  it("is for administrators only", async () => {
    const user = await createUser();
    expect((await post("/api/webhooks", { body: { url: URL } })).body.code).toBe(201001);
    expect((await post("/api/webhooks", { token: user.token, body: { url: URL } })).body.code).toBe(201002);
    expect((await get("/api/webhooks", { token: user.token })).status).toBe(403);
  });
});

describe("PATCH /api/webhooks/{webhook_id}", () => {
  it("changes only the fields sent; active again forgets why it stopped", async () => {
    const admin = await createAdmin();
    const hook = await createWebhook({ url: URL, active: false, failing_since: now() - 100 });
    await env.DB.prepare("UPDATE webhooks SET disabled_reason = 'gone' WHERE webhook_id = ?")
      .bind(hook.webhook_id)
      .run();
    const res = await patch(`/api/webhooks/${hook.webhook_id}`, {
      token: admin.token,
      body: { active: true, event_types: ["question.created"] },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      url: URL,
      active: true,
      disabled_reason: "",
      failing_since: 0,
      event_types: ["question.created"],
    });
    expect(res.body.data.secret).toBeUndefined();
    const url = await patch(`/api/webhooks/${hook.webhook_id}`, {
      token: admin.token,
      body: { url: "https://127.0.0.1/" },
    });
    expect([url.status, Object.keys(url.body.errors)]).toEqual([400, ["url"]]);
  });

  it("rotates the secret: the new one answered once, the previous one signing for 24 hours", async () => {
    const admin = await createAdmin();
    const hook = await createWebhook({ url: URL });
    const res = await patch(`/api/webhooks/${hook.webhook_id}`, { token: admin.token, body: { rotate_secret: true } });
    expect(res.body.data.secret).toMatch(/^whsec_/);
    expect(res.body.data.secret).not.toBe(hook.secret);
    expect(res.body.data.previous_secret_expire_time - now()).toBeGreaterThan(86_390);
    const row = await env.DB.prepare("SELECT secret, previous_secret FROM webhooks WHERE webhook_id = ?")
      .bind(hook.webhook_id)
      .first();
    expect(row).toEqual({ secret: res.body.data.secret, previous_secret: hook.secret });
  });

  it("answers 211001 for an endpoint that does not exist", async () => {
    const admin = await createAdmin();
    const res = await patch("/api/webhooks/999", { token: admin.token, body: { active: false } });
    expect([res.status, res.body.code]).toEqual([404, 211001]);
  });
});

describe("DELETE /api/webhooks/{webhook_id}", () => {
  it("removes the endpoint and its log", async () => {
    const admin = await createAdmin();
    const hook = await createWebhook({ url: URL });
    await logAttempt(hook.webhook_id, "evt_a");
    expect((await del(`/api/webhooks/${hook.webhook_id}`, { token: admin.token })).body).toEqual({
      code: 0,
      data: null,
    });
    expect((await get(`/api/webhooks/${hook.webhook_id}`, { token: admin.token })).body.code).toBe(211001);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM webhook_deliveries").first("n")).toBe(0);
    expect((await del(`/api/webhooks/${hook.webhook_id}`, { token: admin.token })).body.code).toBe(211001);
  });
});

describe("GET /api/webhooks/{webhook_id}/deliveries", () => {
  it("lists an endpoint's attempts newest first, paginated; 211001 for no endpoint", async () => {
    const admin = await createAdmin();
    const [hook, other] = [await createWebhook({ url: URL }), await createWebhook({ url: URL })];
    const ids = [await logAttempt(hook.webhook_id, "evt_a"), await logAttempt(hook.webhook_id, "evt_b")];
    await logAttempt(other.webhook_id, "evt_c");
    const res = await get(`/api/webhooks/${hook.webhook_id}/deliveries`, {
      token: admin.token,
      query: { per_page: 1 },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      {
        delivery_id: ids[1],
        webhook_id: hook.webhook_id,
        event_id: "evt_b",
        event_type: "question.created",
        attempt: 1,
        redelivery: false,
        status_code: 500,
        duration_ms: 12,
        error: "HTTP 500",
        create_time: expect.any(Number),
      },
    ]);
    expect(res.body.pagination).toMatchObject({ total: 2, pages: 2, next: 2 });
    expect(res.roundTrips).toBe(1);
    expect((await get("/api/webhooks/999/deliveries", { token: admin.token })).body.code).toBe(211001);
  });
});

describe("POST /api/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver", () => {
  it("queues the attempt's event again, same id and body", async () => {
    const admin = await createAdmin();
    const hook = await createWebhook({ url: URL });
    const delivery = await logAttempt(hook.webhook_id, "evt_a", '{"type":"question.created"}');
    const { bindings, sent } = recordingQueue();
    const res = await post(`/api/webhooks/${hook.webhook_id}/deliveries/${delivery}/redeliver`, {
      token: admin.token,
      env: bindings,
    });
    expect(res.body).toEqual({ code: 0, data: { event_id: "evt_a", webhook_id: hook.webhook_id } });
    expect(sent).toEqual([
      {
        webhook_id: hook.webhook_id,
        event_id: "evt_a",
        event_type: "question.created",
        body: '{"type":"question.created"}',
        redelivery: true,
      },
    ]);
  });

  it("answers 211002 for another endpoint's attempt or an expired event, 211004 for a stopped endpoint", async () => {
    const admin = await createAdmin();
    const [hook, other] = [await createWebhook({ url: URL }), await createWebhook({ url: URL, active: false })];
    const theirs = await logAttempt(other.webhook_id, "evt_b");
    const { bindings, sent } = recordingQueue();
    const redeliver = (webhookId: number, deliveryId: number) =>
      post(`/api/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`, { token: admin.token, env: bindings });
    expect((await redeliver(hook.webhook_id, theirs)).body.code).toBe(211002);
    expect((await redeliver(other.webhook_id, theirs)).body.code).toBe(211004);
    const expired = await logAttempt(hook.webhook_id, "evt_c");
    await env.DB.prepare("DELETE FROM webhook_events WHERE event_id = 'evt_c'").run();
    expect((await redeliver(hook.webhook_id, expired)).body.code).toBe(211002);
    expect(sent).toEqual([]);
  });
});

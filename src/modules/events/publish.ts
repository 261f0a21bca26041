/**
 * The publisher (docs/events.md#one-event-path): once a request is answered, what its writes emitted (outbox.ts) is
 * built in one D1 batch on the primary (which has the writes), cut to size, and handed on: to the live hubs (public
 * channels, members' own streams, closed sessions) and, one queue message per event and endpoint, to the webhooks
 * that want it. All of it runs under `waitUntil`, after the answer: a write's answer waits for none of it.
 */
import type { MiddlewareHandler } from "hono";
import { type Bindings, mdclubCompat } from "../../core/env";
import { batch, createDb, D1Meter } from "../../db/client";
import { defaultOptions, type SiteOptions } from "../../domain/site-options";
import { readCachedOptions } from "../../domain/site-options-store";
import type { AppEnv } from "../../http/app-env";
import type { View } from "../../http/view";
import { toHex } from "../../lib/crypto";
import { sendToHubs } from "../live/hubs";
import { type DeliveryMessage, enqueue } from "../webhooks/messages";
import { activeWebhooks } from "../webhooks/repo";
import { type EventType, entryOf, type Loaded } from "./catalogue";
import { type Outbox, takeOutbox } from "./outbox";

/** The most a webhook body `{type, timestamp, data}` may weigh (docs/events.md#limits). */
const MAX_EVENT_BYTES = 20 * 1024;

/** An event as it is sent: `{id, type, time, data}`, the socket message, and the webhook body. */
export interface Built {
  event: { id: string; type: EventType; time: number; data: Record<string, unknown> };
  /** `{type, timestamp, data}`, as webhooks are sent it. */
  body: string;
  loaded: Loaded;
}

const encoder = new TextEncoder();

/** Unique, and in the order they were made within one isolate: the time in base 36, then 64 random bits. */
const eventId = (at: number) => `evt_${at.toString(36)}${toHex(crypto.getRandomValues(new Uint8Array(8)))}`;

const bodyOf = (type: string, at: number, data: Record<string, unknown>) =>
  JSON.stringify({ type, timestamp: new Date(at).toISOString(), data });

const weight = (text: string) => encoder.encode(text).byteLength;

/**
 * An event's data within MAX_EVENT_BYTES, with the webhook body it makes: as built; else without its markdown and
 * HTML; else its ids alone (every `*_id` and `*_type` field). A cut event says `truncated: true`: the receiver reads
 * the item through the API.
 */
function fitted(
  type: string,
  at: number,
  data: Record<string, unknown>,
): { data: Record<string, unknown>; body: string } {
  const body = bodyOf(type, at, data);
  if (weight(body) <= MAX_EVENT_BYTES) return { data, body };
  const keep = (test: (key: string) => boolean) =>
    Object.fromEntries([...Object.entries(data).filter(([key]) => test(key)), ["truncated", true]]);
  const lighter = keep((key) => key !== "content_markdown" && key !== "content_rendered");
  const lighterBody = bodyOf(type, at, lighter);
  if (weight(lighterBody) <= MAX_EVENT_BYTES) return { data: lighter, body: lighterBody };
  const ids = keep((key) => key.endsWith("_id") || key.endsWith("_type"));
  return { data: ids, body: bodyOf(type, at, ids) };
}

/** The public view of the site: what anyone reading the API would see (no viewer, no administrator). */
export async function publicView(env: Bindings, origin: string, options: SiteOptions | null): Promise<View> {
  const known = options ?? (await readCachedOptions(env)) ?? defaultOptions();
  return { viewer: null, isAdmin: false, options: known, origin, compat: mdclubCompat(env) };
}

/** Reads what the outbox's events say, in one batch, with the active webhooks when any event may go to them. */
async function build(env: Bindings, outbox: Outbox, view: View) {
  const db = createDb(env.DB.withSession("first-primary"), new D1Meter());
  const wanted = outbox.events.some((pending) => entryOf(pending.type).audience.includes("webhooks"));
  const found = await batch(db, {
    loaded: outbox.events.map((pending) => entryOf(pending.type).load(db, view, pending.subject)),
    hooks: wanted ? activeWebhooks(db) : null,
  });
  const events = outbox.events.flatMap((pending, i) =>
    (found.loaded[i] ?? []).map((loaded): Built => {
      const { data, body } = fitted(pending.type, pending.at, loaded.data);
      const event = { id: eventId(pending.at), type: pending.type, time: Math.floor(pending.at / 1000), data };
      return { event, body, loaded };
    }),
  );
  const hooks = (found.hooks ?? []).map((hook) => ({ id: hook.webhook_id, types: JSON.parse(hook.event_types) }));
  return { events, hooks: hooks as { id: number; types: string[] }[] };
}

/** Sends an outbox: to the hubs and to the webhook queue, each to the audiences its types allow. */
export async function publish(env: Bindings, outbox: Outbox, view: View): Promise<void> {
  const { events, hooks } = outbox.events.length ? await build(env, outbox, view) : { events: [], hooks: [] };
  const audience = (built: Built) => entryOf(built.event.type).audience;
  const live = events.map((built) => ({
    id: built.event.id,
    message: JSON.stringify(built.event),
    channels: audience(built).includes("channels") ? (built.loaded.channels ?? []) : [],
    members: audience(built).includes("members") ? (built.loaded.members ?? []) : [],
  }));
  const deliveries: DeliveryMessage[] = events
    .filter((built) => audience(built).includes("webhooks"))
    .flatMap(({ event, body }) =>
      hooks
        .filter((hook) => hook.types.length === 0 || hook.types.includes(event.type))
        .map((hook) => ({ webhook_id: hook.id, event_id: event.id, event_type: event.type, body })),
    );
  const sent = await Promise.allSettled([sendToHubs(env, live, outbox.closings), enqueue(env, deliveries)]);
  for (const result of sent) if (result.status === "rejected") console.error("publishing events:", result.reason);
}

/**
 * Middleware: after the request is answered, publishes what it emitted. Events of a batch that committed go out even
 * when a later step of the request failed.
 */
export const publishEvents: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  const outbox = takeOutbox(c.get("db"));
  if (!outbox) return;
  const origin = new URL(c.req.url).origin;
  const work = publicView(c.env, origin, c.get("options")).then((view) => publish(c.env, outbox, view));
  c.executionCtx.waitUntil(work.catch((error) => console.error("publishing events:", error)));
};

/**
 * Rules of the webhooks routes (docs/events.md#webhooks), for administrators: where an endpoint may be, what it
 * receives, its secret (shown once, rotated with a day of overlap), its delivery log and redelivery. A read is one
 * batch; a write at most two.
 */
import { loadPage, type Page, type PageQuery } from "../../behaviours/content/page";
import type { CallerId } from "../../core/caller";
import type { Bindings } from "../../core/env";
import { ApiError, validationError } from "../../core/errors";
import { batch, type Db } from "../../db/client";
import { parsePage } from "../../lib/pagination";
import { refusedUrl } from "../../lib/public-address";
import { newSecret } from "../../lib/standard-webhooks";
import { now } from "../../lib/time";
import { allowLocal, enqueue } from "./messages";
import {
  countWebhooks,
  type DeliveryRow,
  deleteWebhook,
  deliveriesOf,
  insertWebhook,
  rotateTo,
  selectDelivery,
  selectWebhook,
  updateWebhook,
  type WebhookChanges,
  type WebhookRow,
  webhookList,
} from "./repo";
import { type Delivery, MAX_WEBHOOKS, type Webhook, type WebhookCreate, type WebhookEdit } from "./schema";

/** How long the previous secret signs beside the new one after a rotation. */
const ROTATION_OVERLAP_SECONDS = 86_400;

type Shown = Omit<WebhookRow, "secret" | "previous_secret" | "user_id">;

const presentWebhook = (row: Shown): Webhook => ({
  ...row,
  event_types: JSON.parse(row.event_types) as string[],
  active: row.active === 1,
  disabled_reason: row.disabled_reason as Webhook["disabled_reason"],
});

const presentDelivery = (row: DeliveryRow): Delivery => ({ ...row, redelivery: row.redelivery === 1 });

/** The URL, or 200001 on `url` when webhooks may not go there (docs/events.md#where-webhooks-may-go). */
function checkedUrl(env: Pick<Bindings, "WEBHOOK_ALLOW_LOCAL">, url: string): string {
  const refused = refusedUrl(url, allowLocal(env));
  if (refused) throw validationError({ url: refused });
  return url;
}

export function listWebhooks(db: Db, query: PageQuery): Promise<Page<Webhook>> {
  return loadPage(db, webhookList, parsePage(query), null, presentWebhook);
}

export async function getWebhook(db: Db, id: number): Promise<Webhook> {
  const [row] = await batch(db, selectWebhook(db, id));
  if (!row) throw new ApiError("WEBHOOK_NOT_FOUND");
  return presentWebhook(row);
}

/** A new endpoint, active unless asked otherwise, with its secret (the only time it is shown). */
export async function createWebhook(
  db: Db,
  env: Bindings,
  caller: CallerId,
  body: WebhookCreate,
): Promise<Webhook & { secret: string }> {
  const url = checkedUrl(env, body.url);
  const [{ n } = { n: 0 }] = await batch(db, countWebhooks(db));
  if (n >= MAX_WEBHOOKS) throw new ApiError("WEBHOOK_LIMIT_REACHED");
  const time = now();
  const secret = newSecret();
  const [row] = await batch(
    db,
    insertWebhook(db, {
      url,
      event_types: JSON.stringify(body.event_types ?? []),
      active: body.active === false ? 0 : 1,
      secret,
      user_id: caller.user_id,
      create_time: time,
      update_time: time,
    }),
  );
  if (!row) throw new Error("a webhook insert answered no row");
  return { ...presentWebhook(row), secret };
}

/**
 * Changes the fields sent. `active: true` starts a stopped endpoint afresh (its failures forgotten); `rotate_secret`
 * makes a new secret, answered once, while the previous one signs too for a day, so receivers can switch without a
 * gap. Nothing sent changes nothing.
 */
export async function editWebhook(
  db: Db,
  env: Bindings,
  id: number,
  body: WebhookEdit,
): Promise<Webhook & { secret?: string }> {
  const time = now();
  const changes: WebhookChanges = {};
  if (body.url !== undefined) changes.url = checkedUrl(env, body.url);
  if (body.event_types !== undefined) changes.event_types = JSON.stringify(body.event_types);
  if (body.active !== undefined) Object.assign(changes, { active: body.active ? 1 : 0, disabled_reason: "" });
  if (body.active) changes.failing_since = 0;
  const rotated = body.rotate_secret ? newSecret() : undefined;
  if (Object.keys(changes).length === 0 && !rotated) return getWebhook(db, id);
  const rotation = rotated && rotateTo(rotated, time + ROTATION_OVERLAP_SECONDS);
  const [row] = await batch(db, updateWebhook(db, id, { ...changes, ...rotation, update_time: time }));
  if (!row) throw new ApiError("WEBHOOK_NOT_FOUND");
  return { ...presentWebhook(row), ...(rotated && { secret: rotated }) };
}

export async function removeWebhook(db: Db, id: number): Promise<void> {
  const { deleted } = await batch(db, deleteWebhook(db, id));
  if (deleted.length === 0) throw new ApiError("WEBHOOK_NOT_FOUND");
}

/** An endpoint's attempts, newest first; 211001 when there is no such endpoint. */
export function listDeliveries(db: Db, id: number, query: PageQuery): Promise<Page<Delivery>> {
  const check = { statement: selectWebhook(db, id), notFound: "WEBHOOK_NOT_FOUND" as const };
  return loadPage(db, deliveriesOf(id), parsePage(query), null, presentDelivery, check);
}

/**
 * Queues the event of an attempt again for its endpoint, under the same `webhook-id` (receivers deduplicate by it).
 * 211002 for an attempt the endpoint has not made, or whose event's body has expired; 211004 for a stopped endpoint.
 */
export async function redeliver(
  db: Db,
  env: Bindings,
  webhookId: number,
  deliveryId: number,
): Promise<{ event_id: string; webhook_id: number }> {
  const [found] = await batch(db, selectDelivery(db, webhookId, deliveryId));
  if (!found?.body) throw new ApiError("WEBHOOK_DELIVERY_NOT_FOUND");
  if (found.active !== 1) throw new ApiError("WEBHOOK_INACTIVE");
  const { event_id, event_type, body } = found;
  await enqueue(env, [{ webhook_id: webhookId, event_id, event_type, body, redelivery: true }]);
  return { event_id, webhook_id: webhookId };
}

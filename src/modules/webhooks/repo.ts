/** Queries on webhooks and their delivery log (docs/events.md#webhooks). */
import { and, count, desc, eq, getTableColumns, lt, type SQL, sql } from "drizzle-orm";
import type { ListSource } from "../../behaviours/content/repo";
import { inIds } from "../../behaviours/id-source";
import type { BatchStatement, Db } from "../../db/client";
import { webhook_deliveries, webhook_events, webhooks } from "../../db/webhook-tables";

export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof webhook_deliveries.$inferSelect;
/** Columns to set: values, or SQL over the row as it was (a rotation keeps the secret it replaces). */
export type WebhookChanges = { [K in keyof WebhookRow]?: WebhookRow[K] | SQL<WebhookRow[K]> };

const { secret: _secret, previous_secret: _previous, user_id: _creator, ...shown } = getTableColumns(webhooks);
/** The columns of the record (the secrets never leave the server but once). */
const webhookColumns = shown;

/** Every endpoint, newest first. */
export const webhookList: ListSource = {
  table: webhooks,
  id: webhooks.webhook_id,
  columns: webhookColumns,
  orderBy: [desc(webhooks.create_time), desc(webhooks.webhook_id)],
};

/** An endpoint's delivery attempts, newest first. */
export const deliveriesOf = (webhookId: number): ListSource => ({
  table: webhook_deliveries,
  id: webhook_deliveries.delivery_id,
  columns: getTableColumns(webhook_deliveries),
  where: eq(webhook_deliveries.webhook_id, webhookId),
  orderBy: [desc(webhook_deliveries.delivery_id)],
});

export const selectWebhook = (db: Db, id: number) =>
  db.select(webhookColumns).from(webhooks).where(eq(webhooks.webhook_id, id));

export const countWebhooks = (db: Db) => db.select({ n: count() }).from(webhooks);

export const insertWebhook = (db: Db, values: typeof webhooks.$inferInsert) =>
  db.insert(webhooks).values(values).returning(webhookColumns);

export const updateWebhook = (db: Db, id: number, changes: WebhookChanges) =>
  db.update(webhooks).set(changes).where(eq(webhooks.webhook_id, id)).returning(webhookColumns);

/** A rotation's columns: the new secret, and the one it replaces (an UPDATE reads the row as it was) until `until`. */
export const rotateTo = (secret: string, until: number): WebhookChanges => ({
  secret,
  previous_secret: sql<string>`${webhooks.secret}`,
  previous_secret_expire_time: until,
});

/** The endpoint and its log; the bodies of its events go when they expire (see {@link purgeDeliveries}). */
export const deleteWebhook = (db: Db, id: number) => ({
  deleted: db.delete(webhooks).where(eq(webhooks.webhook_id, id)).returning({ id: webhooks.webhook_id }),
  log: db.delete(webhook_deliveries).where(eq(webhook_deliveries.webhook_id, id)),
});

/** One attempt of an endpoint, with the body of its event (none once it expired) and whether the endpoint is active. */
export const selectDelivery = (db: Db, webhookId: number, deliveryId: number) =>
  db
    .select({
      event_id: webhook_deliveries.event_id,
      event_type: webhook_deliveries.event_type,
      body: webhook_events.body,
      active: webhooks.active,
    })
    .from(webhook_deliveries)
    .innerJoin(webhooks, eq(webhooks.webhook_id, webhook_deliveries.webhook_id))
    .leftJoin(webhook_events, eq(webhook_events.event_id, webhook_deliveries.event_id))
    .where(and(eq(webhook_deliveries.delivery_id, deliveryId), eq(webhook_deliveries.webhook_id, webhookId)));

/** The active endpoints and the types they want: what each write's events are matched against. */
export const activeWebhooks = (db: Db) =>
  db
    .select({ webhook_id: webhooks.webhook_id, event_types: webhooks.event_types })
    .from(webhooks)
    .where(eq(webhooks.active, 1));

/** What an attempt needs of its endpoint. */
export const webhooksForDelivery = (db: Db, ids: number[]) =>
  db
    .select({
      webhook_id: webhooks.webhook_id,
      url: webhooks.url,
      active: webhooks.active,
      secret: webhooks.secret,
      previous_secret: webhooks.previous_secret,
      previous_secret_expire_time: webhooks.previous_secret_expire_time,
      failing_since: webhooks.failing_since,
    })
    .from(webhooks)
    .where(inIds(webhooks.webhook_id, ids));

export type DeliveryTarget = Awaited<ReturnType<typeof webhooksForDelivery>>[number];

/** An attempt in the log, with the body of its event kept for redelivery. */
export function logAttempt(
  db: Db,
  attempt: Omit<typeof webhook_deliveries.$inferInsert, "delivery_id">,
  body: string,
): BatchStatement[] {
  return [
    db.insert(webhook_deliveries).values(attempt),
    db
      .insert(webhook_events)
      .values({ event_id: attempt.event_id, event_type: attempt.event_type, body, create_time: attempt.create_time })
      .onConflictDoNothing(),
  ];
}

/** A success ends the endpoint's run of failures; a failure starts one, unless one is running. */
export const recordHealth = (db: Db, id: number, succeeded: boolean, time: number) =>
  db
    .update(webhooks)
    .set({
      failing_since: succeeded
        ? 0
        : sql`CASE WHEN ${webhooks.failing_since} = 0 THEN ${time} ELSE ${webhooks.failing_since} END`,
    })
    .where(eq(webhooks.webhook_id, id));

/** Stops an active endpoint, for a reason; answers it when this did. */
export const stopWebhook = (db: Db, id: number, reason: "gone" | "failing", time: number) =>
  db
    .update(webhooks)
    .set({ active: 0, disabled_reason: reason, update_time: time })
    .where(and(eq(webhooks.webhook_id, id), eq(webhooks.active, 1)))
    .returning({ id: webhooks.webhook_id });

/** Attempts and event bodies older than `before`: the log is kept for a while, not for ever. */
export const purgeDeliveries = (db: Db, before: number): BatchStatement[] => [
  db.delete(webhook_deliveries).where(lt(webhook_deliveries.create_time, before)),
  db.delete(webhook_events).where(lt(webhook_events.create_time, before)),
];

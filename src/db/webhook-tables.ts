/**
 * The webhook tables (docs/events.md#webhooks, docs/data-model.md#webhooks): the endpoints administrators register,
 * the log of every delivery attempt, and the bodies kept for redelivery. Part of the schema beside db/schema.ts
 * (drizzle.config.ts reads both).
 */
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

const int = (name: string) => integer(name).notNull().default(0);
const str = (name: string) => text(name).notNull().default("");

/** An endpoint events are sent to, signed with its secret (Standard Webhooks). */
export const webhooks = sqliteTable(
  "webhooks",
  {
    webhook_id: integer("webhook_id").primaryKey({ autoIncrement: true }),
    url: text("url").notNull(),
    /** JSON array of the event types it receives; `[]`: every type a webhook may receive. */
    event_types: text("event_types").notNull().default("[]"),
    /** 1 while events are sent to it; 0 when an administrator or a failure (`disabled_reason`) stopped it. */
    active: int("active"),
    /** `gone` (it answered 410) or `failing` (it failed for days); '' while active or stopped by hand. */
    disabled_reason: str("disabled_reason"),
    /** `whsec_` and the base64 key, the one deliveries are signed with. */
    secret: text("secret").notNull(),
    /** The key before the last rotation, signing beside the new one until `previous_secret_expire_time`. */
    previous_secret: str("previous_secret"),
    previous_secret_expire_time: int("previous_secret_expire_time"),
    /** When its current run of failed attempts began; 0 after a success. */
    failing_since: int("failing_since"),
    user_id: int("user_id"),
    create_time: int("create_time"),
    update_time: int("update_time"),
  },
  (t) => [index("webhooks_create_idx").on(t.create_time)],
);

/** One row per attempt to deliver one event to one endpoint (docs/events.md#the-delivery-log). */
export const webhook_deliveries = sqliteTable(
  "webhook_deliveries",
  {
    delivery_id: integer("delivery_id").primaryKey({ autoIncrement: true }),
    webhook_id: integer("webhook_id").notNull(),
    event_id: text("event_id").notNull(),
    event_type: text("event_type").notNull(),
    /** 1 for the first attempt of a delivery (or of a redelivery), counting up with each retry. */
    attempt: int("attempt"),
    /** 1 when an administrator asked for it again. */
    redelivery: int("redelivery"),
    /** The endpoint's HTTP status; 0 when it gave none (refused address, timeout, network error, given up). */
    status_code: int("status_code"),
    duration_ms: int("duration_ms"),
    error: str("error"),
    create_time: int("create_time"),
  },
  (t) => [
    index("webhook_deliveries_webhook_idx").on(t.webhook_id, t.delivery_id),
    index("webhook_deliveries_create_idx").on(t.create_time),
  ],
);

/** The body each event was sent with, kept for redelivery as long as its deliveries are. */
export const webhook_events = sqliteTable(
  "webhook_events",
  {
    event_id: text("event_id").primaryKey(),
    event_type: text("event_type").notNull(),
    body: text("body").notNull(),
    create_time: int("create_time"),
  },
  (t) => [index("webhook_events_create_idx").on(t.create_time)],
);

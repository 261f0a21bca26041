CREATE TABLE `webhook_deliveries` (
	`delivery_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`webhook_id` integer NOT NULL,
	`event_id` text NOT NULL,
	`event_type` text NOT NULL,
	`attempt` integer DEFAULT 0 NOT NULL,
	`redelivery` integer DEFAULT 0 NOT NULL,
	`status_code` integer DEFAULT 0 NOT NULL,
	`duration_ms` integer DEFAULT 0 NOT NULL,
	`error` text DEFAULT '' NOT NULL,
	`create_time` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_webhook_idx` ON `webhook_deliveries` (`webhook_id`,`delivery_id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_create_idx` ON `webhook_deliveries` (`create_time`);--> statement-breakpoint
CREATE TABLE `webhook_events` (
	`event_id` text PRIMARY KEY NOT NULL,
	`event_type` text NOT NULL,
	`body` text NOT NULL,
	`create_time` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_events_create_idx` ON `webhook_events` (`create_time`);--> statement-breakpoint
CREATE TABLE `webhooks` (
	`webhook_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`url` text NOT NULL,
	`event_types` text DEFAULT '[]' NOT NULL,
	`active` integer DEFAULT 0 NOT NULL,
	`disabled_reason` text DEFAULT '' NOT NULL,
	`secret` text NOT NULL,
	`previous_secret` text DEFAULT '' NOT NULL,
	`previous_secret_expire_time` integer DEFAULT 0 NOT NULL,
	`failing_since` integer DEFAULT 0 NOT NULL,
	`user_id` integer DEFAULT 0 NOT NULL,
	`create_time` integer DEFAULT 0 NOT NULL,
	`update_time` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhooks_create_idx` ON `webhooks` (`create_time`);--> statement-breakpoint
ALTER TABLE `notifications` ADD `webhook_id` integer DEFAULT 0 NOT NULL;
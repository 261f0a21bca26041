CREATE TABLE `captchas` (
	`token` text PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`expire_time` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `captchas_expire_idx` ON `captchas` (`expire_time`);
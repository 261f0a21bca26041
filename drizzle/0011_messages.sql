CREATE TABLE `conversation_members` (
	`user_id` integer NOT NULL,
	`other_user_id` integer NOT NULL,
	`conversation_id` integer NOT NULL,
	`update_time` integer DEFAULT 0 NOT NULL,
	`clear_message_id` integer DEFAULT 0 NOT NULL,
	`delete_time` integer DEFAULT 0 NOT NULL,
	`mail_time` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `other_user_id`)
);
--> statement-breakpoint
CREATE INDEX `conversation_members_inbox_idx` ON `conversation_members` (`user_id`,`delete_time`,`update_time`,`conversation_id`);--> statement-breakpoint
CREATE TABLE `conversations` (
	`conversation_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`create_time` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `conversations_user_time_idx` ON `conversations` (`user_id`,`create_time`);--> statement-breakpoint
CREATE TABLE `messages` (
	`message_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`conversation_id` integer NOT NULL,
	`sender_id` integer NOT NULL,
	`receiver_id` integer NOT NULL,
	`content_markdown` text DEFAULT '' NOT NULL,
	`content_rendered` text DEFAULT '' NOT NULL,
	`create_time` integer DEFAULT 0 NOT NULL,
	`read_time` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `messages_conversation_idx` ON `messages` (`conversation_id`,`message_id`);--> statement-breakpoint
CREATE INDEX `messages_receiver_unread_idx` ON `messages` (`receiver_id`,`read_time`,`conversation_id`);--> statement-breakpoint
CREATE INDEX `messages_sender_receiver_idx` ON `messages` (`sender_id`,`receiver_id`);--> statement-breakpoint
CREATE TABLE `user_blocks` (
	`user_id` integer NOT NULL,
	`blocked_user_id` integer NOT NULL,
	`create_time` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `blocked_user_id`)
);
--> statement-breakpoint
CREATE INDEX `user_blocks_user_time_idx` ON `user_blocks` (`user_id`,`create_time`,`blocked_user_id`);--> statement-breakpoint
CREATE INDEX `user_blocks_blocked_idx` ON `user_blocks` (`blocked_user_id`);--> statement-breakpoint
ALTER TABLE `users` ADD `inbox_accept` text DEFAULT 'everyone' NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `inbox_email` integer DEFAULT false NOT NULL;
CREATE TABLE `bookmarks` (
	`user_id` integer NOT NULL,
	`bookmarkable_type` text NOT NULL,
	`bookmarkable_id` integer NOT NULL,
	`create_time` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `bookmarkable_type`, `bookmarkable_id`)
);
--> statement-breakpoint
CREATE INDEX `bookmarks_user_time_idx` ON `bookmarks` (`user_id`,`create_time`);--> statement-breakpoint
CREATE INDEX `bookmarks_target_idx` ON `bookmarks` (`bookmarkable_type`,`bookmarkable_id`);--> statement-breakpoint
CREATE TABLE `revisions` (
	`revisable_type` text NOT NULL,
	`revisable_id` integer NOT NULL,
	`revision` integer NOT NULL,
	`user_id` integer NOT NULL,
	`title` text,
	`content_markdown` text,
	`topic_ids` text,
	`create_time` integer DEFAULT 0 NOT NULL,
	`mention_ids` text,
	PRIMARY KEY(`revisable_type`, `revisable_id`, `revision`)
);
--> statement-breakpoint
ALTER TABLE `questions` ADD `accepted_answer_id` integer DEFAULT 0 NOT NULL;
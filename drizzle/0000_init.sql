CREATE TABLE `answers` (
	`answer_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`question_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`content_markdown` text DEFAULT '' NOT NULL,
	`content_rendered` text DEFAULT '' NOT NULL,
	`comment_count` integer DEFAULT 0 NOT NULL,
	`vote_count` integer DEFAULT 0 NOT NULL,
	`vote_up_count` integer DEFAULT 0 NOT NULL,
	`vote_down_count` integer DEFAULT 0 NOT NULL,
	`create_time` integer DEFAULT 0 NOT NULL,
	`update_time` integer DEFAULT 0 NOT NULL,
	`delete_time` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `answers_question_idx` ON `answers` (`question_id`,`delete_time`);--> statement-breakpoint
CREATE INDEX `answers_user_idx` ON `answers` (`user_id`,`delete_time`);--> statement-breakpoint
CREATE INDEX `answers_delete_create_idx` ON `answers` (`delete_time`,`create_time`);--> statement-breakpoint
CREATE INDEX `answers_delete_vote_idx` ON `answers` (`delete_time`,`vote_count`);--> statement-breakpoint
CREATE TABLE `articles` (
	`article_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`title` text NOT NULL,
	`content_markdown` text DEFAULT '' NOT NULL,
	`content_rendered` text DEFAULT '' NOT NULL,
	`comment_count` integer DEFAULT 0 NOT NULL,
	`follower_count` integer DEFAULT 0 NOT NULL,
	`vote_count` integer DEFAULT 0 NOT NULL,
	`vote_up_count` integer DEFAULT 0 NOT NULL,
	`vote_down_count` integer DEFAULT 0 NOT NULL,
	`create_time` integer DEFAULT 0 NOT NULL,
	`update_time` integer DEFAULT 0 NOT NULL,
	`delete_time` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `articles_user_idx` ON `articles` (`user_id`,`delete_time`);--> statement-breakpoint
CREATE INDEX `articles_delete_create_idx` ON `articles` (`delete_time`,`create_time`);--> statement-breakpoint
CREATE INDEX `articles_delete_update_idx` ON `articles` (`delete_time`,`update_time`);--> statement-breakpoint
CREATE INDEX `articles_delete_vote_idx` ON `articles` (`delete_time`,`vote_count`);--> statement-breakpoint
CREATE TABLE `comments` (
	`comment_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`commentable_id` integer NOT NULL,
	`commentable_type` text NOT NULL,
	`user_id` integer NOT NULL,
	`content` text NOT NULL,
	`reply_count` integer DEFAULT 0 NOT NULL,
	`vote_count` integer DEFAULT 0 NOT NULL,
	`vote_up_count` integer DEFAULT 0 NOT NULL,
	`vote_down_count` integer DEFAULT 0 NOT NULL,
	`create_time` integer DEFAULT 0 NOT NULL,
	`update_time` integer DEFAULT 0 NOT NULL,
	`delete_time` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `comments_target_idx` ON `comments` (`commentable_type`,`commentable_id`,`delete_time`);--> statement-breakpoint
CREATE INDEX `comments_user_idx` ON `comments` (`user_id`,`delete_time`);--> statement-breakpoint
CREATE INDEX `comments_delete_create_idx` ON `comments` (`delete_time`,`create_time`);--> statement-breakpoint
CREATE INDEX `comments_delete_vote_idx` ON `comments` (`delete_time`,`vote_count`);--> statement-breakpoint
CREATE TABLE `email_codes` (
	`purpose` text NOT NULL,
	`email` text NOT NULL,
	`code` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`create_time` integer DEFAULT 0 NOT NULL,
	`expire_time` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`purpose`, `email`)
);
--> statement-breakpoint
CREATE INDEX `email_codes_expire_idx` ON `email_codes` (`expire_time`);--> statement-breakpoint
CREATE TABLE `follows` (
	`user_id` integer NOT NULL,
	`followable_id` integer NOT NULL,
	`followable_type` text NOT NULL,
	`create_time` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`followable_type`, `followable_id`, `user_id`)
);
--> statement-breakpoint
CREATE INDEX `follows_target_time_idx` ON `follows` (`followable_type`,`followable_id`,`create_time`);--> statement-breakpoint
CREATE INDEX `follows_user_time_idx` ON `follows` (`user_id`,`followable_type`,`create_time`);--> statement-breakpoint
CREATE TABLE `images` (
	`key` text PRIMARY KEY NOT NULL,
	`filename` text DEFAULT '' NOT NULL,
	`width` integer DEFAULT 0 NOT NULL,
	`height` integer DEFAULT 0 NOT NULL,
	`create_time` integer DEFAULT 0 NOT NULL,
	`item_type` text,
	`item_id` integer DEFAULT 0 NOT NULL,
	`user_id` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `images_create_idx` ON `images` (`create_time`);--> statement-breakpoint
CREATE INDEX `images_item_idx` ON `images` (`item_type`,`item_id`);--> statement-breakpoint
CREATE INDEX `images_user_idx` ON `images` (`user_id`);--> statement-breakpoint
CREATE TABLE `notifications` (
	`notification_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`receiver_id` integer NOT NULL,
	`sender_id` integer DEFAULT 0 NOT NULL,
	`type` text NOT NULL,
	`article_id` integer DEFAULT 0 NOT NULL,
	`question_id` integer DEFAULT 0 NOT NULL,
	`answer_id` integer DEFAULT 0 NOT NULL,
	`comment_id` integer DEFAULT 0 NOT NULL,
	`reply_id` integer DEFAULT 0 NOT NULL,
	`content_deleted` text DEFAULT '' NOT NULL,
	`create_time` integer DEFAULT 0 NOT NULL,
	`read_time` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `notifications_receiver_time_idx` ON `notifications` (`receiver_id`,`create_time`);--> statement-breakpoint
CREATE INDEX `notifications_receiver_read_idx` ON `notifications` (`receiver_id`,`read_time`,`type`);--> statement-breakpoint
CREATE TABLE `options` (
	`name` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `questions` (
	`question_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`title` text NOT NULL,
	`content_markdown` text DEFAULT '' NOT NULL,
	`content_rendered` text DEFAULT '' NOT NULL,
	`comment_count` integer DEFAULT 0 NOT NULL,
	`answer_count` integer DEFAULT 0 NOT NULL,
	`follower_count` integer DEFAULT 0 NOT NULL,
	`vote_count` integer DEFAULT 0 NOT NULL,
	`vote_up_count` integer DEFAULT 0 NOT NULL,
	`vote_down_count` integer DEFAULT 0 NOT NULL,
	`last_answer_time` integer DEFAULT 0 NOT NULL,
	`create_time` integer DEFAULT 0 NOT NULL,
	`update_time` integer DEFAULT 0 NOT NULL,
	`delete_time` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `questions_user_idx` ON `questions` (`user_id`,`delete_time`);--> statement-breakpoint
CREATE INDEX `questions_delete_update_idx` ON `questions` (`delete_time`,`update_time`);--> statement-breakpoint
CREATE INDEX `questions_delete_create_idx` ON `questions` (`delete_time`,`create_time`);--> statement-breakpoint
CREATE INDEX `questions_delete_vote_idx` ON `questions` (`delete_time`,`vote_count`);--> statement-breakpoint
CREATE TABLE `reports` (
	`report_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`reportable_id` integer NOT NULL,
	`reportable_type` text NOT NULL,
	`user_id` integer NOT NULL,
	`reason` text NOT NULL,
	`create_time` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reports_target_user_unique` ON `reports` (`reportable_type`,`reportable_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `reports_create_idx` ON `reports` (`create_time`);--> statement-breakpoint
CREATE TABLE `throttles` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`action` text NOT NULL,
	`subject` text NOT NULL,
	`create_time` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `throttles_lookup_idx` ON `throttles` (`action`,`subject`,`create_time`);--> statement-breakpoint
CREATE INDEX `throttles_create_idx` ON `throttles` (`create_time`);--> statement-breakpoint
CREATE TABLE `tokens` (
	`token` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`device` text DEFAULT '' NOT NULL,
	`create_time` integer DEFAULT 0 NOT NULL,
	`update_time` integer DEFAULT 0 NOT NULL,
	`expire_time` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `tokens_user_idx` ON `tokens` (`user_id`);--> statement-breakpoint
CREATE INDEX `tokens_expire_idx` ON `tokens` (`expire_time`);--> statement-breakpoint
CREATE TABLE `topicables` (
	`topic_id` integer NOT NULL,
	`topicable_id` integer NOT NULL,
	`topicable_type` text NOT NULL,
	`create_time` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`topicable_type`, `topicable_id`, `topic_id`)
);
--> statement-breakpoint
CREATE INDEX `topicables_topic_idx` ON `topicables` (`topic_id`,`topicable_type`);--> statement-breakpoint
CREATE TABLE `topics` (
	`topic_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`cover` text DEFAULT '' NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`article_count` integer DEFAULT 0 NOT NULL,
	`question_count` integer DEFAULT 0 NOT NULL,
	`follower_count` integer DEFAULT 0 NOT NULL,
	`delete_time` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `topics_name_lower_live_unique` ON `topics` (lower("name")) WHERE "topics"."delete_time" = 0;--> statement-breakpoint
CREATE INDEX `topics_delete_follower_idx` ON `topics` (`delete_time`,`follower_count`);--> statement-breakpoint
CREATE TABLE `users` (
	`user_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text NOT NULL,
	`email` text NOT NULL,
	`password` text NOT NULL,
	`role` text DEFAULT 'user' NOT NULL,
	`avatar` text DEFAULT '' NOT NULL,
	`cover` text DEFAULT '' NOT NULL,
	`create_ip` text DEFAULT '' NOT NULL,
	`create_location` text DEFAULT '' NOT NULL,
	`last_login_time` integer DEFAULT 0 NOT NULL,
	`last_login_ip` text DEFAULT '' NOT NULL,
	`last_login_location` text DEFAULT '' NOT NULL,
	`follower_count` integer DEFAULT 0 NOT NULL,
	`followee_count` integer DEFAULT 0 NOT NULL,
	`following_article_count` integer DEFAULT 0 NOT NULL,
	`following_question_count` integer DEFAULT 0 NOT NULL,
	`following_topic_count` integer DEFAULT 0 NOT NULL,
	`article_count` integer DEFAULT 0 NOT NULL,
	`question_count` integer DEFAULT 0 NOT NULL,
	`answer_count` integer DEFAULT 0 NOT NULL,
	`notification_unread` integer DEFAULT 0 NOT NULL,
	`inbox_unread` integer DEFAULT 0 NOT NULL,
	`headline` text DEFAULT '' NOT NULL,
	`bio` text DEFAULT '' NOT NULL,
	`blog` text DEFAULT '' NOT NULL,
	`company` text DEFAULT '' NOT NULL,
	`location` text DEFAULT '' NOT NULL,
	`create_time` integer DEFAULT 0 NOT NULL,
	`update_time` integer DEFAULT 0 NOT NULL,
	`disable_time` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_lower_unique` ON `users` (lower("username"));--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_lower_unique` ON `users` (lower("email"));--> statement-breakpoint
CREATE INDEX `users_disable_create_idx` ON `users` (`disable_time`,`create_time`);--> statement-breakpoint
CREATE INDEX `users_disable_follower_idx` ON `users` (`disable_time`,`follower_count`);--> statement-breakpoint
CREATE TABLE `votes` (
	`user_id` integer NOT NULL,
	`votable_id` integer NOT NULL,
	`votable_type` text NOT NULL,
	`type` text NOT NULL,
	`create_time` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`votable_type`, `votable_id`, `user_id`)
);
--> statement-breakpoint
CREATE INDEX `votes_user_idx` ON `votes` (`user_id`,`votable_type`);--> statement-breakpoint
CREATE INDEX `votes_target_time_idx` ON `votes` (`votable_type`,`votable_id`,`create_time`);
DROP INDEX `comments_target_idx`;--> statement-breakpoint
CREATE INDEX `comments_target_idx` ON `comments` (`commentable_type`,`commentable_id`,`delete_time`,`create_time`);--> statement-breakpoint
DROP INDEX `follows_user_time_idx`;--> statement-breakpoint
CREATE INDEX `follows_user_time_idx` ON `follows` (`user_id`,`followable_type`,`create_time`,`followable_id`);--> statement-breakpoint
DROP INDEX `topicables_topic_idx`;--> statement-breakpoint
CREATE INDEX `topicables_topic_idx` ON `topicables` (`topic_id`,`topicable_type`,`topicable_id`);
DROP INDEX `answers_question_idx`;--> statement-breakpoint
DROP INDEX `answers_user_idx`;--> statement-breakpoint
CREATE INDEX `answers_question_idx` ON `answers` (`question_id`,`delete_time`,`create_time`);--> statement-breakpoint
CREATE INDEX `answers_user_idx` ON `answers` (`user_id`,`delete_time`,`create_time`);--> statement-breakpoint
DROP INDEX `articles_user_idx`;--> statement-breakpoint
CREATE INDEX `articles_user_idx` ON `articles` (`user_id`,`delete_time`,`create_time`);--> statement-breakpoint
DROP INDEX `questions_user_idx`;--> statement-breakpoint
CREATE INDEX `questions_user_idx` ON `questions` (`user_id`,`delete_time`,`update_time`);
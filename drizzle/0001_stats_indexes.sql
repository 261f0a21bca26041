CREATE INDEX `answers_create_idx` ON `answers` (`create_time`);--> statement-breakpoint
CREATE INDEX `articles_create_idx` ON `articles` (`create_time`);--> statement-breakpoint
CREATE INDEX `comments_create_idx` ON `comments` (`create_time`);--> statement-breakpoint
CREATE INDEX `questions_create_idx` ON `questions` (`create_time`);--> statement-breakpoint
CREATE INDEX `users_create_idx` ON `users` (`create_time`);
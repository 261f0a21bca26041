-- Site-wide totals of live rows (docs/data-model.md#indexes): triggers keep them on every insert, trash or
-- untrash (disable or enable, for users) and delete, whatever statement makes it.
CREATE TABLE `site_totals` (
	`kind` text PRIMARY KEY NOT NULL,
	`live` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO `site_totals` (`kind`, `live`) SELECT 'question', count(*) FROM `questions` WHERE `delete_time` = 0;
--> statement-breakpoint
INSERT INTO `site_totals` (`kind`, `live`) SELECT 'answer', count(*) FROM `answers` WHERE `delete_time` = 0;
--> statement-breakpoint
INSERT INTO `site_totals` (`kind`, `live`) SELECT 'article', count(*) FROM `articles` WHERE `delete_time` = 0;
--> statement-breakpoint
INSERT INTO `site_totals` (`kind`, `live`) SELECT 'comment', count(*) FROM `comments` WHERE `delete_time` = 0;
--> statement-breakpoint
INSERT INTO `site_totals` (`kind`, `live`) SELECT 'topic', count(*) FROM `topics` WHERE `delete_time` = 0;
--> statement-breakpoint
INSERT INTO `site_totals` (`kind`, `live`) SELECT 'user', count(*) FROM `users` WHERE `disable_time` = 0;
--> statement-breakpoint
CREATE TRIGGER `questions_total_insert` AFTER INSERT ON `questions` WHEN NEW.`delete_time` = 0 BEGIN
  UPDATE `site_totals` SET `live` = `live` + 1 WHERE `kind` = 'question';
END;
--> statement-breakpoint
CREATE TRIGGER `questions_total_delete` AFTER DELETE ON `questions` WHEN OLD.`delete_time` = 0 BEGIN
  UPDATE `site_totals` SET `live` = `live` - 1 WHERE `kind` = 'question';
END;
--> statement-breakpoint
CREATE TRIGGER `questions_total_update` AFTER UPDATE OF `delete_time` ON `questions` WHEN (OLD.`delete_time` = 0) <> (NEW.`delete_time` = 0) BEGIN
  UPDATE `site_totals` SET `live` = `live` + (CASE WHEN NEW.`delete_time` = 0 THEN 1 ELSE -1 END) WHERE `kind` = 'question';
END;
--> statement-breakpoint
CREATE TRIGGER `answers_total_insert` AFTER INSERT ON `answers` WHEN NEW.`delete_time` = 0 BEGIN
  UPDATE `site_totals` SET `live` = `live` + 1 WHERE `kind` = 'answer';
END;
--> statement-breakpoint
CREATE TRIGGER `answers_total_delete` AFTER DELETE ON `answers` WHEN OLD.`delete_time` = 0 BEGIN
  UPDATE `site_totals` SET `live` = `live` - 1 WHERE `kind` = 'answer';
END;
--> statement-breakpoint
CREATE TRIGGER `answers_total_update` AFTER UPDATE OF `delete_time` ON `answers` WHEN (OLD.`delete_time` = 0) <> (NEW.`delete_time` = 0) BEGIN
  UPDATE `site_totals` SET `live` = `live` + (CASE WHEN NEW.`delete_time` = 0 THEN 1 ELSE -1 END) WHERE `kind` = 'answer';
END;
--> statement-breakpoint
CREATE TRIGGER `articles_total_insert` AFTER INSERT ON `articles` WHEN NEW.`delete_time` = 0 BEGIN
  UPDATE `site_totals` SET `live` = `live` + 1 WHERE `kind` = 'article';
END;
--> statement-breakpoint
CREATE TRIGGER `articles_total_delete` AFTER DELETE ON `articles` WHEN OLD.`delete_time` = 0 BEGIN
  UPDATE `site_totals` SET `live` = `live` - 1 WHERE `kind` = 'article';
END;
--> statement-breakpoint
CREATE TRIGGER `articles_total_update` AFTER UPDATE OF `delete_time` ON `articles` WHEN (OLD.`delete_time` = 0) <> (NEW.`delete_time` = 0) BEGIN
  UPDATE `site_totals` SET `live` = `live` + (CASE WHEN NEW.`delete_time` = 0 THEN 1 ELSE -1 END) WHERE `kind` = 'article';
END;
--> statement-breakpoint
CREATE TRIGGER `comments_total_insert` AFTER INSERT ON `comments` WHEN NEW.`delete_time` = 0 BEGIN
  UPDATE `site_totals` SET `live` = `live` + 1 WHERE `kind` = 'comment';
END;
--> statement-breakpoint
CREATE TRIGGER `comments_total_delete` AFTER DELETE ON `comments` WHEN OLD.`delete_time` = 0 BEGIN
  UPDATE `site_totals` SET `live` = `live` - 1 WHERE `kind` = 'comment';
END;
--> statement-breakpoint
CREATE TRIGGER `comments_total_update` AFTER UPDATE OF `delete_time` ON `comments` WHEN (OLD.`delete_time` = 0) <> (NEW.`delete_time` = 0) BEGIN
  UPDATE `site_totals` SET `live` = `live` + (CASE WHEN NEW.`delete_time` = 0 THEN 1 ELSE -1 END) WHERE `kind` = 'comment';
END;
--> statement-breakpoint
CREATE TRIGGER `topics_total_insert` AFTER INSERT ON `topics` WHEN NEW.`delete_time` = 0 BEGIN
  UPDATE `site_totals` SET `live` = `live` + 1 WHERE `kind` = 'topic';
END;
--> statement-breakpoint
CREATE TRIGGER `topics_total_delete` AFTER DELETE ON `topics` WHEN OLD.`delete_time` = 0 BEGIN
  UPDATE `site_totals` SET `live` = `live` - 1 WHERE `kind` = 'topic';
END;
--> statement-breakpoint
CREATE TRIGGER `topics_total_update` AFTER UPDATE OF `delete_time` ON `topics` WHEN (OLD.`delete_time` = 0) <> (NEW.`delete_time` = 0) BEGIN
  UPDATE `site_totals` SET `live` = `live` + (CASE WHEN NEW.`delete_time` = 0 THEN 1 ELSE -1 END) WHERE `kind` = 'topic';
END;
--> statement-breakpoint
CREATE TRIGGER `users_total_insert` AFTER INSERT ON `users` WHEN NEW.`disable_time` = 0 BEGIN
  UPDATE `site_totals` SET `live` = `live` + 1 WHERE `kind` = 'user';
END;
--> statement-breakpoint
CREATE TRIGGER `users_total_delete` AFTER DELETE ON `users` WHEN OLD.`disable_time` = 0 BEGIN
  UPDATE `site_totals` SET `live` = `live` - 1 WHERE `kind` = 'user';
END;
--> statement-breakpoint
CREATE TRIGGER `users_total_update` AFTER UPDATE OF `disable_time` ON `users` WHEN (OLD.`disable_time` = 0) <> (NEW.`disable_time` = 0) BEGIN
  UPDATE `site_totals` SET `live` = `live` + (CASE WHEN NEW.`disable_time` = 0 THEN 1 ELSE -1 END) WHERE `kind` = 'user';
END;

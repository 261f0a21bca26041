-- A topic's list in its order through an index (docs/data-model.md#indexes): each link carries its item's trash and
-- order columns, filled when the link is inserted and kept when the item changes, by triggers, whatever statement
-- makes the change.
ALTER TABLE `topicables` ADD `item_delete_time` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `topicables` ADD `item_update_time` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `topicables` ADD `item_create_time` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `topicables` ADD `item_vote_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `topicables_topic_update_idx` ON `topicables` (`topic_id`,`topicable_type`,`item_delete_time`,`item_update_time`,`topicable_id`);--> statement-breakpoint
CREATE INDEX `topicables_topic_create_idx` ON `topicables` (`topic_id`,`topicable_type`,`item_delete_time`,`item_create_time`,`topicable_id`);--> statement-breakpoint
CREATE INDEX `topicables_topic_vote_idx` ON `topicables` (`topic_id`,`topicable_type`,`item_delete_time`,`item_vote_count`,`topicable_id`);
--> statement-breakpoint
UPDATE `topicables` SET
  `item_delete_time` = coalesce((SELECT `delete_time` FROM `questions` WHERE `question_id` = `topicables`.`topicable_id`), 0),
  `item_update_time` = coalesce((SELECT `update_time` FROM `questions` WHERE `question_id` = `topicables`.`topicable_id`), 0),
  `item_create_time` = coalesce((SELECT `create_time` FROM `questions` WHERE `question_id` = `topicables`.`topicable_id`), 0),
  `item_vote_count` = coalesce((SELECT `vote_count` FROM `questions` WHERE `question_id` = `topicables`.`topicable_id`), 0)
WHERE `topicable_type` = 'question';
--> statement-breakpoint
CREATE TRIGGER `topicables_question_link` AFTER INSERT ON `topicables` WHEN NEW.`topicable_type` = 'question' BEGIN
  UPDATE `topicables` SET
    `item_delete_time` = coalesce((SELECT `delete_time` FROM `questions` WHERE `question_id` = NEW.`topicable_id`), 0),
    `item_update_time` = coalesce((SELECT `update_time` FROM `questions` WHERE `question_id` = NEW.`topicable_id`), 0),
    `item_create_time` = coalesce((SELECT `create_time` FROM `questions` WHERE `question_id` = NEW.`topicable_id`), 0),
    `item_vote_count` = coalesce((SELECT `vote_count` FROM `questions` WHERE `question_id` = NEW.`topicable_id`), 0)
  WHERE `topicable_type` = 'question' AND `topicable_id` = NEW.`topicable_id` AND `topic_id` = NEW.`topic_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `questions_topic_links` AFTER UPDATE OF `delete_time`, `update_time`, `create_time`, `vote_count` ON `questions` BEGIN
  UPDATE `topicables` SET `item_delete_time` = NEW.`delete_time`, `item_update_time` = NEW.`update_time`, `item_create_time` = NEW.`create_time`, `item_vote_count` = NEW.`vote_count`
  WHERE `topicable_type` = 'question' AND `topicable_id` = NEW.`question_id`;
END;
--> statement-breakpoint
UPDATE `topicables` SET
  `item_delete_time` = coalesce((SELECT `delete_time` FROM `articles` WHERE `article_id` = `topicables`.`topicable_id`), 0),
  `item_update_time` = coalesce((SELECT `update_time` FROM `articles` WHERE `article_id` = `topicables`.`topicable_id`), 0),
  `item_create_time` = coalesce((SELECT `create_time` FROM `articles` WHERE `article_id` = `topicables`.`topicable_id`), 0),
  `item_vote_count` = coalesce((SELECT `vote_count` FROM `articles` WHERE `article_id` = `topicables`.`topicable_id`), 0)
WHERE `topicable_type` = 'article';
--> statement-breakpoint
CREATE TRIGGER `topicables_article_link` AFTER INSERT ON `topicables` WHEN NEW.`topicable_type` = 'article' BEGIN
  UPDATE `topicables` SET
    `item_delete_time` = coalesce((SELECT `delete_time` FROM `articles` WHERE `article_id` = NEW.`topicable_id`), 0),
    `item_update_time` = coalesce((SELECT `update_time` FROM `articles` WHERE `article_id` = NEW.`topicable_id`), 0),
    `item_create_time` = coalesce((SELECT `create_time` FROM `articles` WHERE `article_id` = NEW.`topicable_id`), 0),
    `item_vote_count` = coalesce((SELECT `vote_count` FROM `articles` WHERE `article_id` = NEW.`topicable_id`), 0)
  WHERE `topicable_type` = 'article' AND `topicable_id` = NEW.`topicable_id` AND `topic_id` = NEW.`topic_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `articles_topic_links` AFTER UPDATE OF `delete_time`, `update_time`, `create_time`, `vote_count` ON `articles` BEGIN
  UPDATE `topicables` SET `item_delete_time` = NEW.`delete_time`, `item_update_time` = NEW.`update_time`, `item_create_time` = NEW.`create_time`, `item_vote_count` = NEW.`vote_count`
  WHERE `topicable_type` = 'article' AND `topicable_id` = NEW.`article_id`;
END;

-- A topic's question_count and article_count kept by triggers on its links (docs/counters.md#topic-counters), so that
-- filing a post reads its own links, not every link of a large topic. A link counts while its item is live: an
-- inserted link counts at once (its item copy starts live, and the trigger that fills it moves the count back if
-- the item is trashed), a deleted live link stops counting, and a link whose item is trashed or untrashed moves it.
-- A count never goes below 0, as no recounted one can.
UPDATE `topics` SET `question_count` = (SELECT count(*) FROM `topicables` WHERE `topicables`.`topic_id` = `topics`.`topic_id` AND `topicable_type` = 'question' AND `item_delete_time` = 0);
--> statement-breakpoint
CREATE TRIGGER `topicables_question_counted` AFTER INSERT ON `topicables` WHEN NEW.`topicable_type` = 'question' BEGIN
  UPDATE `topics` SET `question_count` = `question_count` + 1 WHERE `topic_id` = NEW.`topic_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `topicables_question_uncounted` AFTER DELETE ON `topicables` WHEN OLD.`topicable_type` = 'question' AND OLD.`item_delete_time` = 0 BEGIN
  UPDATE `topics` SET `question_count` = max(`question_count` - 1, 0) WHERE `topic_id` = OLD.`topic_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `topicables_question_recounted` AFTER UPDATE OF `item_delete_time` ON `topicables` WHEN NEW.`topicable_type` = 'question' AND (OLD.`item_delete_time` = 0) <> (NEW.`item_delete_time` = 0) BEGIN
  UPDATE `topics` SET `question_count` = max(`question_count` + (CASE WHEN NEW.`item_delete_time` = 0 THEN 1 ELSE -1 END), 0) WHERE `topic_id` = NEW.`topic_id`;
END;
--> statement-breakpoint
UPDATE `topics` SET `article_count` = (SELECT count(*) FROM `topicables` WHERE `topicables`.`topic_id` = `topics`.`topic_id` AND `topicable_type` = 'article' AND `item_delete_time` = 0);
--> statement-breakpoint
CREATE TRIGGER `topicables_article_counted` AFTER INSERT ON `topicables` WHEN NEW.`topicable_type` = 'article' BEGIN
  UPDATE `topics` SET `article_count` = `article_count` + 1 WHERE `topic_id` = NEW.`topic_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `topicables_article_uncounted` AFTER DELETE ON `topicables` WHEN OLD.`topicable_type` = 'article' AND OLD.`item_delete_time` = 0 BEGIN
  UPDATE `topics` SET `article_count` = max(`article_count` - 1, 0) WHERE `topic_id` = OLD.`topic_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `topicables_article_recounted` AFTER UPDATE OF `item_delete_time` ON `topicables` WHEN NEW.`topicable_type` = 'article' AND (OLD.`item_delete_time` = 0) <> (NEW.`item_delete_time` = 0) BEGIN
  UPDATE `topics` SET `article_count` = max(`article_count` + (CASE WHEN NEW.`item_delete_time` = 0 THEN 1 ELSE -1 END), 0) WHERE `topic_id` = NEW.`topic_id`;
END;

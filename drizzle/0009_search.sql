-- Full-text search (docs/search.md): one FTS5 table over questions, answers, articles, topics and users. Its rowid
-- is the item's key, the kind's code times 2^40 plus the item's id (question 1, answer 2, article 3, topic 4,
-- user 5), so a search of one kind is a rowid range FTS5 reads on its own. The application writes each document
-- (plain text, each CJK character set apart) in the batch that writes its item; the triggers below take a
-- deleted item's document out in the same transaction, however the delete cascades. Trash, untrash and disabling
-- leave documents in place: a search joins each hit to its row and keeps the live ones. Kept out of
-- src/db/schema.ts, which drizzle-kit would turn into an ordinary table.
CREATE VIRTUAL TABLE IF NOT EXISTS `search_index` USING fts5(`title`, `body`, tokenize = 'unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `questions_unindexed` AFTER DELETE ON `questions` BEGIN
  DELETE FROM `search_index` WHERE `rowid` = 1099511627776 + OLD.`question_id`;
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `answers_unindexed` AFTER DELETE ON `answers` BEGIN
  DELETE FROM `search_index` WHERE `rowid` = 2199023255552 + OLD.`answer_id`;
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `articles_unindexed` AFTER DELETE ON `articles` BEGIN
  DELETE FROM `search_index` WHERE `rowid` = 3298534883328 + OLD.`article_id`;
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `topics_unindexed` AFTER DELETE ON `topics` BEGIN
  DELETE FROM `search_index` WHERE `rowid` = 4398046511104 + OLD.`topic_id`;
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `users_unindexed` AFTER DELETE ON `users` BEGIN
  DELETE FROM `search_index` WHERE `rowid` = 5497558138880 + OLD.`user_id`;
END;

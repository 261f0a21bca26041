/**
 * The full-text index, an FTS5 virtual table that drizzle/0009_search.sql creates (docs/search.md). It is declared
 * here, outside schema.ts, so that statements can name it in a batch (which carries only query builders) while
 * drizzle-kit, which reads schema.ts, never generates an ordinary table for it. `rowid` is the item's key.
 */
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const searchIndex = sqliteTable("search_index", {
  rowid: integer("rowid").primaryKey(),
  title: text("title").notNull(),
  body: text("body").notNull(),
});

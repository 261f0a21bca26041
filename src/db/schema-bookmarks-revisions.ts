/**
 * The tables of bookmarks and of the edit history (docs/operations.md#bookmarks, docs/revisions.md), part of the data
 * model beside src/db/schema.ts (drizzle.config.ts names both files), kept apart so that each file stays short.
 */
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

const int = (name: string) => integer(name).notNull().default(0);

/** A member's bookmark of a question, answer or article: private to the member (docs/operations.md#bookmarks). */
export const bookmarks = sqliteTable(
  "bookmarks",
  {
    user_id: integer("user_id").notNull(),
    bookmarkable_type: text("bookmarkable_type", { enum: ["question", "answer", "article"] }).notNull(),
    bookmarkable_id: integer("bookmarkable_id").notNull(),
    create_time: int("create_time"),
  },
  (t) => [
    // One bookmark per member and item: a key, not just a check; it also answers `is_bookmarked`.
    primaryKey({ columns: [t.user_id, t.bookmarkable_type, t.bookmarkable_id] }),
    index("bookmarks_user_time_idx").on(t.user_id, t.create_time),
    // A hard delete of an item removes its bookmarks.
    index("bookmarks_target_idx").on(t.bookmarkable_type, t.bookmarkable_id),
  ],
);

/**
 * The edit history of questions, answers and articles (docs/revisions.md): one row per edit that changed something,
 * numbered per item from 2 (revision 1 is the item as created), holding the editor and, of the fields the edit
 * changed, their values before it; a field it left alone is NULL. The newest revisions are kept, within a bound per
 * item.
 */
export const revisions = sqliteTable(
  "revisions",
  {
    revisable_type: text("revisable_type", { enum: ["question", "answer", "article"] }).notNull(),
    revisable_id: integer("revisable_id").notNull(),
    /** The number of the revision the edit made. */
    revision: integer("revision").notNull(),
    /** The editor: the author or an administrator. */
    user_id: integer("user_id").notNull(),
    title: text("title"),
    content_markdown: text("content_markdown"),
    /** The live topics' ids, ascending, as JSON. */
    topic_ids: text("topic_ids"),
    create_time: int("create_time"),
    /**
     * Beside a kept content_markdown: the ids (JSON) of the members it mentioned, so that a restore renders its
     * mentions as they were (docs/mentions.md#edits-and-restores).
     */
    mention_ids: text("mention_ids"),
  },
  (t) => [primaryKey({ columns: [t.revisable_type, t.revisable_id, t.revision] })],
);

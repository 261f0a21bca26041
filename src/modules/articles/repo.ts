/** Writes on articles and the author's article_count; lists and reads are the content core's (content/repo.ts). */
import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { articles, users } from "../../db/schema";
import type { Content } from "../../lib/markdown";

export function insertArticle(db: Db, values: Content & { user_id: number; title: string; time: number }) {
  const { time, ...fields } = values;
  return db.insert(articles).values({ ...fields, create_time: time, update_time: time });
}

export const countNewArticle = (db: Db, userId: number) =>
  db
    .update(users)
    .set({ article_count: sql`${users.article_count} + 1` })
    .where(eq(users.user_id, userId));

export const updateArticle = (db: Db, id: number, changes: Partial<Content> & { title?: string }, time: number) =>
  db
    .update(articles)
    .set({ ...changes, update_time: time })
    .where(eq(articles.article_id, id));

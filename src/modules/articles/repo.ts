/**
 * Writes on articles; lists and reads are the content core's (behaviours/content/repo.ts), counters
 * behaviours/counters.ts'.
 */
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { articles } from "../../db/schema";
import type { Content } from "../../lib/markdown";

export function insertArticle(db: Db, values: Content & { user_id: number; title: string; time: number }) {
  const { time, ...fields } = values;
  return db.insert(articles).values({ ...fields, create_time: time, update_time: time });
}

export const updateArticle = (db: Db, id: number, changes: Partial<Content> & { title?: string }, time: number) =>
  db
    .update(articles)
    .set({ ...changes, update_time: time })
    .where(eq(articles.article_id, id));

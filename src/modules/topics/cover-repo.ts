/** Queries of topic cover changes: `topics.cover` holds the stored path ("" shows the default cover). */
import { eq } from "drizzle-orm";
import { isLive } from "../../behaviours/live";
import type { Db } from "../../db/client";
import { topics } from "../../db/schema";
import { entities } from "../../domain/entities";

/** The current cover of a live topic (none when the topic is missing or trashed). */
export function selectLiveCover(db: Db, id: number) {
  return db.select({ cover: topics.cover }).from(topics).where(isLive(entities.topic, id));
}

export function setCover(db: Db, id: number, path: string) {
  return db.update(topics).set({ cover: path }).where(eq(topics.topic_id, id));
}

/** Undoes a creation whose cover could not be stored: the topic is seconds old, nothing links to it yet. */
export function deleteNewTopic(db: Db, id: number) {
  return db.delete(topics).where(eq(topics.topic_id, id));
}

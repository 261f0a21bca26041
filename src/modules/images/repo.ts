/**
 * Queries on images. Keys are strings, so relations are joins over the listed keys rather than the numeric
 * id lists of content pages; each is at most one statement of the read's single batch.
 */
import { and, asc, count, desc, eq, getTableColumns, type SQL, sql } from "drizzle-orm";
import { summaries } from "../../behaviours/content/summaries";
import { isLive } from "../../behaviours/live";
import type { Db } from "../../db/client";
import { images, users } from "../../db/schema";
import type { Order } from "../../lib/order";
import type { PageRequest } from "../../lib/pagination";
import type { ImageInclude, ImageOrderField, ITEM_TYPES } from "./schema";

export type ImageRow = typeof images.$inferSelect;
export type NewImageRow = typeof images.$inferInsert;

/**
 * The uploader's summary columns (null when the user row is gone). Its id is the image's user_id: D1 returns
 * rows as objects keyed by column name, so a second `user_id` column would overwrite the first.
 */
const uploader = { username: users.username, headline: users.headline, avatar: users.avatar };

function withUploader(db: Db, where: SQL | undefined) {
  return db
    .select({ image: getTableColumns(images), user: uploader })
    .from(images)
    .leftJoin(users, eq(users.user_id, images.user_id))
    .where(where);
}

export type ImageWithUploader = Awaited<ReturnType<typeof withUploader>>[number];

/** `(key)`, or `(SELECT key ...)`: the images a statement is about, as the right side of an IN. */
export type KeySet = SQL;

export const oneKey = (key: string): KeySet => sql`(${key})`;

/**
 * `key IN (...)` for a list of keys. The list travels as one JSON parameter: D1 allows at most 100 bound
 * parameters per statement.
 */
const inKeys = (keys: string[]) => sql`${images.key} IN (SELECT value FROM json_each(${JSON.stringify(keys)}))`;

/** The summary of the item each image of `keys` is linked to, when it is live: one statement. */
function linkedItems(db: Db, type: Exclude<ImageInclude, "user">, keys: KeySet) {
  const item = summaries[type];
  return db
    .select({ key: images.key, ...item.summaryColumns })
    .from(images)
    .innerJoin(
      item.table,
      and(eq(images.item_type, type), isLive(item, images.item_id), sql`${images.key} IN ${keys}`),
    );
}

/** Statements for the linked-item includes asked for. */
export function linkedItemStatements(db: Db, include: Set<ImageInclude>, keys: KeySet) {
  return (["question", "answer", "article"] as const)
    .filter((type) => include.has(type))
    .map((type) => ({ type, statement: linkedItems(db, type, keys) }));
}

/** One image by its stored key (`.ext` form). */
export function selectImage(db: Db, key: string) {
  return withUploader(db, eq(images.key, key));
}

export interface ImageFilter {
  /** The stored (`.ext`) form. */
  key?: string;
  item_type?: (typeof ITEM_TYPES)[number];
  item_id?: number;
  user_id?: number;
}

function listWhere(filter: ImageFilter): SQL | undefined {
  return and(
    filter.key === undefined ? undefined : eq(images.key, filter.key),
    filter.item_type === undefined ? undefined : eq(images.item_type, filter.item_type),
    filter.item_id === undefined ? undefined : eq(images.item_id, filter.item_id),
    filter.user_id === undefined ? undefined : eq(images.user_id, filter.user_id),
  );
}

/** A page of images: its total, its rows with uploaders, and its keys as a subquery for the includes. */
export function imagePage(db: Db, filter: ImageFilter, order: Order<ImageOrderField>, page: PageRequest) {
  const where = listWhere(filter);
  const direction = order.desc ? desc : asc;
  // The key settles ties of create_time, so pages never overlap.
  const orderBy = [direction(images[order.field]), direction(images.key)];
  const pageKeys = db
    .select({ key: images.key })
    .from(images)
    .where(where)
    .orderBy(...orderBy)
    .limit(page.per_page)
    .offset(page.offset);
  return {
    total: db.select({ total: count() }).from(images).where(where),
    rows: withUploader(db, where)
      .orderBy(...orderBy)
      .limit(page.per_page)
      .offset(page.offset),
    keys: sql`(${pageKeys})`,
  };
}

export function insertImage(db: Db, row: NewImageRow) {
  return db.insert(images).values(row);
}

export function renameImage(db: Db, key: string, filename: string) {
  return db.update(images).set({ filename }).where(eq(images.key, key));
}

/** Deletes the rows and returns what locates their files. */
export function deleteImages(db: Db, keys: string[]) {
  return db.delete(images).where(inKeys(keys)).returning({ key: images.key, create_time: images.create_time });
}

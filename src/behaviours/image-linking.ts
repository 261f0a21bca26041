/**
 * Links uploaded images to the question, answer or article whose markdown uses them
 * (docs/images.md#linking-images-to-content), as one statement in the write's batch. Only the author's own, still
 * unlinked images are linked (docs/decisions.md#only-the-authors-own-images-are-linked); a hard delete of the item then
 * removes them with it.
 */
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { BatchStatement, Db } from "../db/client";
import { images } from "../db/schema";
import type { IllustratedKind } from "../domain/entities";

/** A stored image's file name, or one of its size variants: `<32 hex>[_thumb|_release].<ext>`. */
const IMAGE_NAME = /([0-9a-f]{32})(?:_(?:thumb|release))?\.(png|jpe?g|gif|webp)\b/gi;

/** The image keys (`<32 hex>.<ext>`) a markdown text refers to. */
export function imageKeysIn(markdown: string): string[] {
  const keys = new Set<string>();
  for (const [, hex, ext] of markdown.matchAll(IMAGE_NAME)) {
    if (hex === undefined || ext === undefined) throw new Error("IMAGE_NAME matched without its two groups");
    const lowerExt = ext.toLowerCase();
    keys.add(`${hex.toLowerCase()}.${lowerExt === "jpeg" ? "jpg" : lowerExt}`);
  }
  return [...keys];
}

/** The statement linking them to an item (its id may be a subquery on a row inserted earlier in the batch). */
export function linkImages(
  db: Db,
  type: IllustratedKind,
  itemId: number | SQL,
  authorId: number,
  markdown: string,
): BatchStatement[] {
  const keys = imageKeysIn(markdown);
  if (keys.length === 0) return [];
  return [
    db
      .update(images)
      .set({ item_type: type, item_id: sql`${itemId}` })
      // One JSON parameter however many keys (D1 binds at most 100 parameters per statement).
      .where(
        and(
          sql`${images.key} IN (SELECT value FROM json_each(${JSON.stringify(keys)}))`,
          eq(images.user_id, authorId),
          eq(images.item_id, 0),
        ),
      ),
  ];
}

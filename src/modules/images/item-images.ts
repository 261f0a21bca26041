/**
 * The images linked to items that are being hard-deleted (docs/deletion.md#cascade: an item's images go with it,
 * rows and files; a question's include those of its answers). The rows are read in the delete's own read
 * round trip and deleted in its batch; the files are removed from R2 once that batch has committed.
 */
import { eq, type SQL, sql } from "drizzle-orm";
import { inIds } from "../../behaviours/id-source";
import type { BatchStatement, Db } from "../../db/client";
import { allOf, anyOf } from "../../db/conditions";
import { answers, images } from "../../db/schema";
import { has, type IllustratedKind, type TrashableKind } from "../../domain/entities";
import { CONTENT_IMAGE_SIZES, deleteImageSet } from "../../lib/storage";
import { imagePath } from "./present";

function linkedTo(type: IllustratedKind, ids: number[]): SQL {
  const own = allOf(eq(images.item_type, type), inIds(images.item_id, ids));
  if (type !== "question") return own;
  const answerIds = sql`SELECT ${answers.answer_id} FROM ${answers} WHERE ${inIds(answers.question_id, ids)}`;
  const ofAnswers = sql`${images.item_id} IN (${answerIds})`;
  return anyOf(own, allOf(eq(images.item_type, "answer"), ofAnswers));
}

/** The linked images' keys and times (their R2 paths), or nothing for kinds that hold no images. */
export function selectItemImages(db: Db, type: TrashableKind, ids: number[]) {
  if (!has(type, "illustrated") || ids.length === 0) return undefined;
  return db.select({ key: images.key, create_time: images.create_time }).from(images).where(linkedTo(type, ids));
}

export function deleteItemImages(db: Db, type: TrashableKind, ids: number[]): BatchStatement[] {
  if (!has(type, "illustrated") || ids.length === 0) return [];
  return [db.delete(images).where(linkedTo(type, ids))];
}

/** Removes the files of image rows already deleted from D1. */
export function deleteImageFiles(bucket: R2Bucket, rows: { key: string; create_time: number }[]): Promise<void> {
  return deleteImageSet(bucket, rows.map(imagePath), CONTENT_IMAGE_SIZES);
}

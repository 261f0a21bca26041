/**
 * Content images (docs/operations.md#images): upload, read, rename and delete. Reads are one batch after
 * authentication; the files of an image are written before its row and deleted after it, so a row never names missing
 * files.
 */
import { presentUserSummary } from "../../behaviours/content/present";
import { summaries } from "../../behaviours/content/summaries";
import type { CallerId } from "../../core/caller";
import { ApiError, validationError } from "../../core/errors";
import { type BatchRead, batch, type Db, readAs, writeThenRead } from "../../db/client";
import type { View } from "../../http/view";
import { MAX_IDS } from "../../lib/ids";
import type { UploadedFile } from "../../lib/images/upload";
import { parseInclude } from "../../lib/include";
import { parseOrder } from "../../lib/order";
import { type Pagination, paginate, parsePage } from "../../lib/pagination";
import { CONTENT_IMAGE_SIZES, contentImagePath, deleteImageSet, storeImageSet } from "../../lib/storage";
import { now } from "../../lib/time";
import { imagePath, presentImage, storedKey } from "./present";
import * as repo from "./repo";
import { IMAGE_INCLUDES, IMAGE_ORDER, type Image, type ImageInclude, type ImageListFilter } from "./schema";

type Relationships = NonNullable<Image["relationships"]>;

/**
 * The relationships of each row, read in the rows' batch: `user` from the row's join, linked items from one
 * statement per type asked for over the rows' keys.
 */
function imageRelations(
  db: Db,
  view: View,
  include: Set<ImageInclude>,
  keys: repo.KeySet,
): BatchRead<(row: repo.ImageWithUploader) => Relationships | undefined> {
  const linked = repo.linkedItemStatements(db, include, keys);
  return readAs(
    linked.map(({ type, statement }) =>
      readAs(statement, (rows) => ({ type, byKey: new Map(rows.map((row) => [row.key, row])) })),
    ),
    (maps) => {
      return (row) => {
        if (include.size === 0) return undefined;
        const relationships: Relationships = {};
        if (include.has("user"))
          relationships.user = row.user ? presentUserSummary({ user_id: row.image.user_id, ...row.user }, view) : null;
        for (const { type, byKey } of maps) {
          const item = byKey.get(row.image.key);
          relationships[type] = item ? (summaries[type].summary(item, view) as Relationships[typeof type]) : null;
        }
        return relationships;
      };
    },
  );
}

export async function uploadImage(
  db: Db,
  bucket: R2Bucket,
  view: View,
  caller: CallerId,
  upload: UploadedFile,
): Promise<Image> {
  const time = now();
  const stored = await storeImageSet(bucket, (name) => contentImagePath(name, time), upload.bytes, CONTENT_IMAGE_SIZES);
  const row = {
    key: stored.key,
    filename: upload.filename || `image.${stored.key.split(".")[1]}`,
    width: stored.width,
    height: stored.height,
    create_time: time,
    item_type: null,
    item_id: 0,
    user_id: caller.user_id,
  };
  try {
    await repo.insertImage(db, row);
  } catch (error) {
    await deleteImageSet(bucket, stored.path, CONTENT_IMAGE_SIZES);
    throw error;
  }
  return presentImage(row, view);
}

export async function getImage(db: Db, view: View, key: string, includeParam: string | undefined): Promise<Image> {
  const include = parseInclude(includeParam, IMAGE_INCLUDES);
  const stored = storedKey(key);
  const {
    rows: [row],
    relationsOf,
  } = await batch(db, {
    rows: repo.selectImage(db, stored),
    relationsOf: imageRelations(db, view, include, repo.oneKey(stored)),
  });
  if (!row) throw new ApiError("IMAGE_NOT_FOUND");
  return presentImage(row.image, view, relationsOf(row));
}

export async function listImages(
  db: Db,
  view: View,
  query: ImageListFilter,
): Promise<{ data: Image[]; pagination: Pagination }> {
  const include = parseInclude(query.include, IMAGE_INCLUDES);
  const request = parsePage(query);
  const filter = { ...query, key: query.key === undefined ? undefined : storedKey(query.key) };
  const page = repo.imagePage(db, filter, parseOrder(query.order, IMAGE_ORDER, view.isAdmin), request);
  const {
    total: [counted],
    rows,
    relationsOf,
  } = await batch(db, {
    total: page.total,
    rows: page.rows,
    relationsOf: imageRelations(db, view, include, page.keys),
  });
  return {
    data: rows.map((row) => presentImage(row.image, view, relationsOf(row))),
    pagination: paginate(request, counted?.total ?? 0),
  };
}

export async function renameImage(db: Db, view: View, key: string, filename: string): Promise<Image> {
  const stored = storedKey(key);
  const [row] = await writeThenRead(db, repo.renameImage(db, stored, filename), repo.selectImage(db, stored));
  if (!row) throw new ApiError("IMAGE_NOT_FOUND");
  return presentImage(row.image, view);
}

/**
 * `k1,k2,...` in either key form: at most 100 (docs/decisions.md#id-lists-hold-at-most-100-ids, as for id lists),
 * repeats dropped.
 */
export function parseKeyList(value: string): string[] {
  const keys = value
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  if (keys.length > MAX_IDS) throw validationError({ key: `at most ${MAX_IDS} keys` });
  return [...new Set(keys.map(storedKey))];
}

/**
 * Deletes the rows, then their files. One key that is not found is 200005; in a list, unknown keys are
 * skipped (docs/operations.md#images).
 */
export async function deleteImages(db: Db, bucket: R2Bucket, keys: string[], single: boolean): Promise<void> {
  const deleted = keys.length > 0 ? await repo.deleteImages(db, keys) : [];
  if (single && deleted.length === 0) throw new ApiError("IMAGE_NOT_FOUND");
  await deleteImageSet(bucket, deleted.map(imagePath), CONTENT_IMAGE_SIZES);
}

/**
 * Rules of trash, untrash and delete (docs/operations.md#trash-untrash-and-delete,
 * docs/permissions.md#author-edit-and-delete-rules; docs/decisions.md#content). Each operation costs two D1 round trips
 * after authentication: one read of the listed rows, to apply the rules, and one batch carrying every write, cascade,
 * counter, notification and the records it answers with.
 */
import { eq, gt } from "drizzle-orm";
import { recordsByIds } from "../../behaviours/content/page";
import { deleteStatements } from "../../behaviours/deletable";
import { notifyDeleted } from "../../behaviours/notification-events";
import { trashStatements, untrashStatements } from "../../behaviours/trashable";
import { type CallerId, isAdmin } from "../../core/caller";
import { ApiError, validationError } from "../../core/errors";
import { batch, commit, type Db, writeThenRead } from "../../db/client";
import { type Entity, entities, has, type TrashableKind } from "../../domain/entities";
import { assertAuthorMay } from "../../domain/permissions";
import type { View } from "../../http/view";
import { deleteImageSet } from "../../lib/storage";
import { now } from "../../lib/time";
import { emit } from "../events/outbox";
import { deleteImageFiles, deleteItemImages, selectItemImages } from "../images/item-images";
import { emitDeletionNotices, emitMoved } from "./events";
import { type LifecycleRecord, recordKinds } from "./records";
import { selectTargets, selectTargetsStatement, type TargetRow } from "./repo";

/** The listed ids of a kind; `single` when the path named one id (it then answers one record or an error). */
export interface Targets {
  type: TrashableKind;
  ids: number[];
  single: boolean;
}

const idOf = (type: TrashableKind) => (row: TargetRow) => row[entities[type].id.name] as number;

/** The ids of `rows`, in the order the path listed them. */
function inListedOrder(targets: Targets, rows: TargetRow[]): number[] {
  const found = new Set(rows.map(idOf(targets.type)));
  return targets.ids.filter((id) => found.has(id));
}

/**
 * Trash or untrash: acts on the listed rows that are live (trash) or trashed (untrash) and skips the others; a
 * single id that does not qualify is the kind's NOT_FOUND. Answers the records as they are after the write.
 */
export async function move(
  db: Db,
  view: View,
  actor: CallerId,
  action: "trash" | "untrash",
  targets: Targets,
  include: Set<string>,
): Promise<LifecycleRecord | LifecycleRecord[]> {
  const { type } = targets;
  const kind = entities[type];
  const rows = (await selectTargets(db, kind, targets.ids)).filter((row) =>
    action === "trash" ? row.delete_time === 0 : row.delete_time > 0,
  );
  if (targets.single && rows.length === 0) throw new ApiError(kind.notFound);
  if (rows.length === 0) return [];

  const ids = inListedOrder(targets, rows);
  const time = now();
  const writes =
    action === "trash"
      ? trashStatements(db, type, ids, time, notifyDeleted(db, type, rows, actor.user_id, time))
      : untrashStatements(db, type, ids);
  // Only rows now in the state asked for are answered: an untrash a guard skipped (a topic name taken) is left out.
  const source = {
    table: kind.table,
    id: kind.id,
    columns: kind.columns,
    where: action === "trash" ? gt(kind.trash, 0) : eq(kind.trash, 0),
  };
  const records = await writeThenRead(db, writes, recordsByIds(db, view, recordKinds[type], source, ids, include));
  emitMoved(db, action, targets.type, rows, records, time, actor.user_id);
  if (!targets.single) return records;
  const [record] = records;
  if (record) return record;
  throw type === "topic" && action === "untrash"
    ? validationError({ name: "a live topic already has this name" }, 409)
    : new ApiError(kind.notFound);
}

/**
 * Hard delete. A single id follows docs/permissions.md#author-edit-and-delete-rules: missing, or trashed for a
 * non-administrator, is NOT_FOUND; then the author rules (administrators are exempt). Kinds without an author (topics)
 * are for administrators only and a missing one is a silent success (docs/operations.md#topics); a list (administrators
 * only) deletes the rows found, live or trashed, and never fails.
 */
export async function remove(
  db: Db,
  caller: CallerId,
  site: Pick<View, "options">,
  targets: Targets,
  files: FileCleanup,
): Promise<void> {
  const { type } = targets;
  const kind = entities[type];
  const found = await batch(db, {
    rows: selectTargetsStatement(db, kind, targets.ids),
    images: selectItemImages(db, type, targets.ids),
  });
  const rows = found.rows as TargetRow[];
  const time = now();
  if (targets.single && has(type, "author")) {
    const [row] = rows;
    if (!row || (row.delete_time > 0 && !isAdmin(caller))) throw new ApiError(kind.notFound);
    assertAuthorMay(
      type,
      "delete",
      row as TargetRow & { user_id: number; create_time: number },
      caller,
      site.options,
      time,
    );
  }
  if (rows.length === 0) return;
  const extra = [
    ...notifyDeleted(db, type, rows, caller.user_id, time),
    ...deleteItemImages(db, type, rows.map(idOf(type))),
  ];
  await commit(db, deleteStatements(db, type, inListedOrder(targets, rows), time, extra));
  emit(db, `${type}.deleted`, { rows });
  emitDeletionNotices(db, type, rows, caller.user_id, time);
  const images = found.images ?? [];
  // Only once the rows are gone: a failed batch must not leave rows pointing at deleted files.
  if (images.length) files.waitUntil(deleteImageFiles(files.bucket, images));
  const stored = (kind as Entity).files;
  if (!stored) return;
  for (const row of rows) {
    const path = row[stored.column.name];
    // An empty column is the default image, which is not stored.
    if (typeof path === "string" && path) files.waitUntil(deleteImageSet(files.bucket, path, stored.sizes));
  }
}

/** Where a delete removes stored files after its batch commits. */
export interface FileCleanup {
  bucket: R2Bucket;
  waitUntil(work: Promise<unknown>): void;
}

/**
 * The caller's bookmarks (docs/operations.md#bookmarks): one page of them, newest first, each with its item's record
 * as the item's own routes present it, in one batch: the total, the page, and for each bookmarkable kind its records
 * (and their includes) over the page's ids of that kind, a fixed number of statements whatever the page holds.
 */
import { bookmarkPage } from "../../behaviours/bookmarkable";
import { type Page, recordsByIds } from "../../behaviours/content/page";
import { byId } from "../../behaviours/content/repo";
import type { CallerId } from "../../core/caller";
import { batch, type Db } from "../../db/client";
import { entities, kindsWith } from "../../domain/entities";
import type { View } from "../../http/view";
import { parseInclude } from "../../lib/include";
import { paginate, parsePage } from "../../lib/pagination";
import { recordKinds } from "../lifecycle/records";
import type { BookmarkedItem, BookmarkQuery } from "./schema";

/** GET /user/bookmarks: the caller's bookmarks of live items, newest first, of one kind when `type` asks. */
export async function listBookmarks(
  db: Db,
  view: View,
  caller: CallerId,
  query: BookmarkQuery,
): Promise<Page<BookmarkedItem>> {
  const request = parsePage(query);
  const page = bookmarkPage(db, caller.user_id, query.type, request);
  const kinds = query.type ? [query.type] : kindsWith("bookmarkable");
  const records = Object.fromEntries(
    kinds.map((kind) => {
      const include = parseInclude(query.include, recordKinds[kind].includes);
      return [kind, recordsByIds(db, view, recordKinds[kind], byId(entities[kind], false), page.idsOf(kind), include)];
    }),
  );
  const found = await batch(db, { total: page.total, rows: page.rows, records });
  const byKind = new Map(
    kinds.map((kind) => {
      const key = entities[kind].id.name;
      const list = found.records[kind] as Record<string, unknown>[];
      return [kind, new Map(list.map((record) => [record[key] as number, record]))];
    }),
  );
  // Every row's item is live in the same batch, so each has its record; one that had none would have no key.
  const data = found.rows.map((row) => {
    const record = byKind.get(row.bookmarkable_type)?.get(row.bookmarkable_id);
    return (record ? { ...row, [row.bookmarkable_type]: record } : row) as BookmarkedItem;
  });
  return { data, pagination: paginate(request, found.total[0]?.total ?? 0) };
}

/**
 * Bookmarks (docs/operations.md#bookmarks), written once for every bookmarkable kind of the entity model
 * (domain/entities.ts): the target's table, id, trash column and not-found error. A bookmark is the member's alone:
 * only the member's own requests read it (`is_bookmarked`, their list), and nothing counts them.
 *
 * One bookmark per member and item is the `bookmarks` primary key, not a check. Each write is one batch: the write,
 * then the read that answers it and doubles as the existence check.
 */
import { and, count, desc, eq, or, type SQL, sql } from "drizzle-orm";
import type { SQLiteSelect } from "drizzle-orm/sqlite-core";
import { ApiError } from "../core/errors";
import { type Db, writeThenRead } from "../db/client";
import { allOf } from "../db/conditions";
import { bookmarks } from "../db/schema-bookmarks-revisions";
import { type BookmarkableKind, type EntityWith, entities, entitiesWith, kindsWith } from "../domain/entities";
import type { PageRequest } from "../lib/pagination";
import { now } from "../lib/time";
import { isLive, liveExists } from "./live";

export type BookmarkTarget = EntityWith<"bookmarkable">;

export const bookmarkTargets = entitiesWith("bookmarkable");

export const BOOKMARKABLE_KINDS = kindsWith("bookmarkable");

export type Bookmark = typeof bookmarks.$inferSelect;

const bookmarkOf = (target: BookmarkTarget, userId: number, id: number): SQL =>
  allOf(eq(bookmarks.user_id, userId), eq(bookmarks.bookmarkable_type, target.type), eq(bookmarks.bookmarkable_id, id));

/** What a bookmark answers: the item and when it was bookmarked. */
const bookmarkColumns = {
  bookmarkable_type: bookmarks.bookmarkable_type,
  bookmarkable_id: bookmarks.bookmarkable_id,
  create_time: bookmarks.create_time,
};

/** The member's bookmark of a live target: none when the target is missing or trashed. */
function selectBookmark(db: Db, target: BookmarkTarget, userId: number, id: number) {
  return db
    .select(bookmarkColumns)
    .from(bookmarks)
    .where(and(bookmarkOf(target, userId, id), liveExists(db, target, id)));
}

/**
 * Bookmarks a live target (else its not-found code) and answers the bookmark. Bookmarking it again changes
 * nothing: the bookmark keeps the time it was made, and so its place in the member's list.
 */
export async function bookmark(
  db: Db,
  target: BookmarkTarget,
  userId: number,
  id: number,
): Promise<Omit<Bookmark, "user_id">> {
  // INSERT ... SELECT from the live target: nothing is written for a missing or trashed one.
  const insert = db
    .insert(bookmarks)
    .select(
      db
        .select({
          user_id: sql<number>`${userId}`.as("user_id"),
          bookmarkable_type: sql<BookmarkableKind>`${target.type}`.as("bookmarkable_type"),
          bookmarkable_id: sql<number>`${id}`.as("bookmarkable_id"),
          create_time: sql<number>`${now()}`.as("create_time"),
        })
        .from(target.table)
        .where(isLive(target, id)),
    )
    .onConflictDoNothing();
  const [row] = await writeThenRead(db, insert, selectBookmark(db, target, userId, id));
  if (!row) throw new ApiError(target.notFound);
  return row;
}

/** Removes the member's bookmark of a live target (else its not-found code); removing none changes nothing. */
export async function unbookmark(db: Db, target: BookmarkTarget, userId: number, id: number): Promise<void> {
  const remove = db.delete(bookmarks).where(and(bookmarkOf(target, userId, id), liveExists(db, target, id)));
  const live = db.select({ id: target.id }).from(target.table).where(isLive(target, id));
  const found = await writeThenRead(db, remove, live);
  if (found.length === 0) throw new ApiError(target.notFound);
}

/** A member's bookmarks of live items: trashed ones are left out of the list and its total, as for anyone. */
function bookmarksOf(db: Db, userId: number, type?: BookmarkableKind): SQL {
  // Each bookmark's item is found by its key (isLive on a column), whatever the kind.
  const live = BOOKMARKABLE_KINDS.map((kind) =>
    and(eq(bookmarks.bookmarkable_type, kind), liveExists(db, entities[kind], bookmarks.bookmarkable_id)),
  );
  return allOf(eq(bookmarks.user_id, userId), type ? eq(bookmarks.bookmarkable_type, type) : undefined, or(...live));
}

/**
 * One page of a member's bookmarks of live items, newest first (the rowid settles bookmarks of the same second): its
 * total, its rows, and the ids of the page's items of one kind as a subquery, for the records of that kind to be
 * read in the same batch.
 */
export function bookmarkPage(db: Db, userId: number, type: BookmarkableKind | undefined, request: PageRequest) {
  const where = bookmarksOf(db, userId, type);
  const paged = <Q extends SQLiteSelect>(select: Q) =>
    select
      .where(where)
      .orderBy(desc(bookmarks.create_time), desc(sql`${bookmarks}.rowid`))
      .limit(request.per_page)
      .offset(request.offset);
  const page = paged(
    db.select({ type: bookmarks.bookmarkable_type, id: bookmarks.bookmarkable_id }).from(bookmarks).$dynamic(),
  ).as("page");
  return {
    total: db.select({ total: count() }).from(bookmarks).where(where),
    rows: paged(db.select(bookmarkColumns).from(bookmarks).$dynamic()),
    idsOf: (kind: BookmarkableKind) => db.select({ id: page.id }).from(page).where(eq(page.type, kind)).$dynamic(),
  };
}

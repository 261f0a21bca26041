/**
 * The full-text index over the kinds a reader searches (docs/search.md): each item's document, the statements that
 * write it in the batch that writes the item, and the list source a search pages through. A document's key (the
 * index's rowid) is its kind's code times 2^40 plus its id: a search of one kind reads one rowid range.
 */
import { and, asc, desc, eq, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { userColumns } from "../core/caller";
import type { BatchStatement, Db } from "../db/client";
import { users } from "../db/schema";
import { searchIndex } from "../db/search-index";
import { type Entity, entities } from "../domain/entities";
import { stripTags } from "../lib/sanitize";
import { ELLIPSIS, indexedText, joinedText, MATCH_CLOSE, MATCH_OPEN } from "../lib/search-text";
import type { ListSource } from "./content/repo";
import { liveRows } from "./live";

/** The kinds in the index and their codes; drizzle/0009_search.sql's triggers use the same keys. */
export const SEARCH_CODES = { question: 1, answer: 2, article: 3, topic: 4, user: 5 } as const;
export type SearchKind = keyof typeof SEARCH_CODES;
export const SEARCH_KINDS = Object.keys(SEARCH_CODES) as SearchKind[];

const KEY_SPAN = 2 ** 40;
/** The first key of a kind, written into the SQL (a constant lets FTS5 and SQLite plan the range). */
const base = (type: SearchKind) => sql.raw(String(SEARCH_CODES[type] * KEY_SPAN));
/** The key (rowid) of an item's document. */
export const searchKey = (type: SearchKind, id: number) => SEARCH_CODES[type] * KEY_SPAN + id;

/** A document as written: a title (a post's title, a topic's name, a username) and a body, both indexed text. */
export interface SearchDocument {
  title: string;
  body: string;
}

const document = (title: string, body: string): SearchDocument => ({
  title: indexedText(title),
  body: indexedText(body),
});

/**
 * Each kind's document from the fields of its row. Content is indexed as the text of its content_rendered (the
 * text the content rules measure, docs/content.md#validation), a user by their profile's text fields.
 */
const post = (row: { title: string; content_rendered: string }) => document(row.title, stripTags(row.content_rendered));
export const documentOf = {
  question: post,
  answer: (row: { content_rendered: string }) => post({ title: "", ...row }),
  article: post,
  topic: (row: { name: string; description: string }) => document(row.name, row.description),
  user: (row: { username: string; headline: string; bio: string; company: string; location: string }) =>
    document(row.username, joinedText([row.headline, row.bio, row.company, row.location])),
} satisfies Record<SearchKind, (row: never) => SearchDocument>;

/**
 * The document of the row `id` names, a subquery naming the row an INSERT earlier in the batch wrote (nothing when
 * it names none). A key already indexed is left alone: the subquery then names a row that was there before.
 */
export function indexNew(db: Db, type: SearchKind, id: SQL, doc: SearchDocument): BatchStatement {
  const key = sql`${base(type)} + ${id}`;
  const indexed = sql`SELECT 1 FROM ${searchIndex} WHERE ${searchIndex.rowid} = ${key}`;
  return db
    .insert(searchIndex)
    .select(sql`SELECT ${key}, ${doc.title}, ${doc.body} WHERE ${id} IS NOT NULL AND NOT EXISTS (${indexed})`);
}

/** Replaces the document of an item whose id is known (an edit that read the row first). */
export function reindex(db: Db, type: SearchKind, id: number, doc: SearchDocument): BatchStatement[] {
  const key = searchKey(type, id);
  return [
    db.delete(searchIndex).where(eq(searchIndex.rowid, key)),
    db.insert(searchIndex).values({ rowid: key, ...doc }),
  ];
}

/**
 * Changes some fields of an item's document (FTS5 keeps the others), when `guard` holds after the item's own write:
 * for an edit whose batch decides whether it applies.
 */
export function reindexFields(
  db: Db,
  type: SearchKind,
  id: number,
  fields: Partial<SearchDocument>,
  guard?: SQL,
): BatchStatement | null {
  if (fields.title === undefined && fields.body === undefined) return null;
  return db
    .update(searchIndex)
    .set(fields)
    .where(and(eq(searchIndex.rowid, searchKey(type, id)), guard));
}

/** The snippet's column name in a search's rows. */
export const HIGHLIGHT = "search_highlight";
/** How many tokens a snippet holds at most (a CJK character is one). */
const SNIPPET_TOKENS = 24;
/** bm25's weights of the title and the body: a match in the title counts thrice. */
const RANKING = sql`bm25(${searchIndex}, 3.0, 1.0)`;

/** What decides between hits bm25 ranks alike: votes, then recency (followers for kinds without votes). */
const TIE_BREAKERS: Record<SearchKind, SQLiteColumn[]> = {
  question: [entities.question.columns.vote_count, entities.question.columns.create_time],
  answer: [entities.answer.columns.vote_count, entities.answer.columns.create_time],
  article: [entities.article.columns.vote_count, entities.article.columns.create_time],
  topic: [entities.topic.columns.follower_count],
  user: [users.follower_count, users.create_time],
};

/**
 * The items of a kind whose document matches an FTS5 expression (lib/search-text.ts makes it), best first, with
 * their snippet under {@link HIGHLIGHT}. Only what every reader sees: live items, enabled users. Each hit is
 * joined to its row by primary key, so FTS5 drives the search and the kind's own columns decide what is shown.
 */
export function searchSource(type: SearchKind, match: string): ListSource {
  const kind: Entity = entities[type];
  const snippet = sql<string>`snippet(${searchIndex}, -1, ${MATCH_OPEN}, ${MATCH_CLOSE}, ${ELLIPSIS}, ${sql.raw(
    String(SNIPPET_TOKENS),
  )})`;
  const columns = type === "user" ? userColumns : kind.columns;
  const last = sql`${base(type)} + ${sql.raw(String(KEY_SPAN - 1))}`;
  return {
    table: kind.table,
    id: kind.id,
    columns: { ...columns, [HIGHLIGHT]: snippet.as(HIGHLIGHT) },
    join: { table: searchIndex, on: eq(kind.id, sql`${searchIndex.rowid} - ${base(type)}`) },
    where: and(
      sql`${searchIndex} MATCH ${match}`,
      sql`${searchIndex.rowid} BETWEEN ${base(type)} AND ${last}`,
      type === "user" ? eq(users.disable_time, 0) : liveRows(kind),
    ),
    orderBy: [asc(RANKING), ...TIE_BREAKERS[type].map((column) => desc(column)), desc(kind.id)],
  };
}

/**
 * Rebuilding the full-text index from the content tables (docs/search.md#rebuilding-the-index): after an import, a
 * restore of an export (which leaves the index out), or a migration onto existing data. Written against a bare SQL
 * runner, so that `npm run search:rebuild` (through wrangler, locally or remotely), an importer and the tests run the
 * same statements; every document is made by the same {@link documentOf} the writes use.
 */
import { getTableName } from "drizzle-orm";
import { entities } from "../domain/entities";
import { documentOf, SEARCH_KINDS, type SearchDocument, type SearchKind, searchKey } from "./searchable";

/** A SQL statement and its parameters (numbers and strings only). */
export interface SqlStatement {
  sql: string;
  params: (number | string)[];
}

/** Runs SQL: `all` answers a query's rows, `run` runs statements in order. */
export interface SqlRunner {
  all(statement: SqlStatement): Promise<Record<string, unknown>[]>;
  run(statements: SqlStatement[]): Promise<void>;
}

/** The columns each kind's document is made of (what {@link documentOf} reads of its row). */
const FIELDS: Record<SearchKind, string[]> = {
  question: ["title", "content_rendered"],
  answer: ["content_rendered"],
  article: ["title", "content_rendered"],
  topic: ["name", "description"],
  user: ["username", "headline", "bio", "company", "location"],
};

/** The statement that empties the index. */
export const CLEAR_INDEX: SqlStatement = { sql: "DELETE FROM search_index", params: [] };

/**
 * The next page of a kind's rows after `afterId`, by id, as its document needs them: trashed and disabled ones too
 * (the index holds them; searches leave them out).
 */
export function sourcePage(type: SearchKind, afterId: number, size: number): SqlStatement {
  const { table, id } = entities[type];
  const [name, key] = [getTableName(table), id.name];
  return {
    sql: `SELECT ${key} AS id, ${FIELDS[type].join(", ")} FROM ${name} WHERE ${key} > ? ORDER BY ${key} LIMIT ?`,
    params: [afterId, size],
  };
}

/**
 * Above this many characters a document's body is written in parts: a statement sent as text (wrangler's `--file`)
 * may be at most 100 KB on D1, and a character takes at most 3 bytes of UTF-8 (a 4-byte one is 2 UTF-16 units).
 */
const PART_LENGTH = 25_000;

/** The statements that write one document: an insert, then the rest of a long body appended in parts. */
export function documentStatements(type: SearchKind, id: number, doc: SearchDocument): SqlStatement[] {
  const key = searchKey(type, id);
  const parts: string[] = [];
  for (let start = 0; start < doc.body.length || parts.length === 0; ) {
    let end = Math.min(start + PART_LENGTH, doc.body.length);
    // Never between the halves of a surrogate pair.
    if (end < doc.body.length && /[\uD800-\uDBFF]/.test(doc.body.charAt(end - 1))) end -= 1;
    parts.push(doc.body.slice(start, end));
    start = end;
  }
  const [first = "", ...rest] = parts;
  return [
    { sql: "INSERT INTO search_index (rowid, title, body) VALUES (?, ?, ?)", params: [key, doc.title, first] },
    ...rest.map((part) => ({ sql: "UPDATE search_index SET body = body || ? WHERE rowid = ?", params: [part, key] })),
  ];
}

/** A row of {@link sourcePage}'s as its kind's document. */
function documentFrom(type: SearchKind, row: Record<string, unknown>): SearchDocument {
  const text = (name: string) => String(row[name] ?? "");
  const fields = Object.fromEntries(FIELDS[type].map((name) => [name, text(name)]));
  return (documentOf[type] as (row: Record<string, string>) => SearchDocument)(fields);
}

/**
 * Empties the index and writes every item's document again, kind by kind, `pageSize` rows at a time. Not atomic:
 * searches in the meantime find less; run it while the site is quiet, or before it opens.
 */
export async function rebuildSearchIndex(
  runner: SqlRunner,
  pageSize = 500,
  progress: (type: SearchKind, done: number) => void = () => {},
): Promise<void> {
  await runner.run([CLEAR_INDEX]);
  for (const type of SEARCH_KINDS) {
    let afterId = 0;
    let done = 0;
    for (let full = true; full; ) {
      const rows = await runner.all(sourcePage(type, afterId, pageSize));
      full = rows.length === pageSize;
      if (rows.length === 0) break;
      await runner.run(rows.flatMap((row) => documentStatements(type, Number(row.id), documentFrom(type, row))));
      afterId = Number(rows.at(-1)?.id);
      done += rows.length;
      progress(type, done);
    }
  }
}

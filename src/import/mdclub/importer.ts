/**
 * Imports an MDClub dump into this API's database (docs/migrating-from-mdclub.md). It runs wherever a target can
 * execute SQL: the vitest Workers pool (on `env.DB`), the CLI on the local D1 of `npm run dev`, or the CLI through
 * `wrangler d1 execute --remote`. The dump comes as text chunks and is read as a stream (sql-dump.ts); rows are
 * mapped (tables.ts) and written in multi-row INSERTs within D1's limits, then every counter is recounted from the
 * imported rows and the differences with the dump's own counters are reported.
 *
 * A database with content is refused unless `force`; a run marks the database as importing first and done last, so
 * a run after a failure finds the mark, empties what the failed run wrote and starts clean: nothing is duplicated.
 */
import { count, eq, getTableName, type SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { countDiffering, everyCounter, recountEvery } from "../../behaviours/counters";
import { liveRows } from "../../behaviours/live";
import { rebuildSearchIndex } from "../../behaviours/search-rebuild";
import { backgroundDb } from "../../db/client";
import { siteTotals, users } from "../../db/schema";
import { entities } from "../../domain/entities";
import { literal, type SqlValue, type Statement } from "../../lib/sql-text";
import { mapOptions, type OptionsOutcome } from "./options";
import { type DumpEvent, readDump } from "./sql-dump";
import { mapRow, NOT_CARRIED, type Row, TABLES } from "./tables";

export interface ImportTarget {
  /** Runs the statements in order (a target may group them into batches). */
  execute(statements: Statement[]): Promise<void>;
  query<T>(statement: Statement): Promise<T[]>;
}

export interface TableSummary {
  read: number;
  /** Rows written (a COUNT(*) of the target table after the import, which starts empty). */
  imported: number;
  /** Reason -> rows not written for it. */
  skipped: Record<string, number>;
  /** Columns of the dump this API has no place for (their values are dropped). */
  unknownColumns: string[];
  notes: Record<string, number>;
}

export interface CounterDifference {
  counter: string;
  /** Rows whose counter in the dump differed from the count of their imported rows. */
  rows: number;
}

/** An image file the imported rows name: its R2 key, and where MDClub's upload folder may hold it. */
export interface FileReference {
  key: string;
  /** The row column naming it (avatars and covers); content images are named by their own row. */
  column?: { table: string; column: string };
  sizes: readonly string[];
  /** Paths relative to MDClub's upload folder, the likeliest first. */
  candidates: string[];
}

export interface ImportReport {
  tables: Record<string, TableSummary>;
  /** Tables of the dump that are not MDClub's: name -> rows read. */
  unknownTables: Record<string, number>;
  options: OptionsOutcome;
  counters: CounterDifference[];
  files: FileReference[];
  /** Search documents written, by kind (docs/search.md#rebuilding-the-index). */
  indexed: Record<string, number>;
}

export interface ImportOptions {
  /** MDClub's table prefix (`mc_`). */
  prefix?: string;
  /** Empty a database that has content and import anyway. */
  force?: boolean;
  /** Called after each write with the rows read so far. */
  onProgress?: (rowsRead: number) => void;
  /** Called as the search index is written, with a kind and its documents so far. */
  onIndexProgress?: (kind: string, documents: number) => void;
}

export class DatabaseNotEmpty extends Error {}

/** The settings row that marks an import: ignored as a setting (not a field), kept as a record of the import. */
export const IMPORT_MARK = "_mdclub_import";

/** D1 refuses an SQL text over 100 KB; a UTF-16 unit is at most 3 bytes of UTF-8. */
const MAX_STATEMENT_UNITS = 30_000;
/** Statements per round trip: each batch is one transaction. */
const BATCH_STATEMENTS = 50;

/** Why a mapped row was not written: `INSERT OR IGNORE` met a key an earlier row had. */
export const DUPLICATE = "a duplicate of an earlier row (the same id or pair, or a name or address taken in any case)";

/** The tables an import fills, emptied by a forced or resumed run. */
const FILLED = [...new Set(Object.values(TABLES).map((map) => map.target)), "options"];

const db = backgroundDb({} as D1Database);
/** A Drizzle statement as SQL for any target (every statement built here has `toSQL`). */
const sqlOf = (query: object): Statement => {
  const { sql, params } = (query as { toSQL(): { sql: string; params: unknown[] } }).toSQL();
  return { sql, params: params as SqlValue[] };
};

const summary = (): TableSummary => ({ read: 0, imported: 0, skipped: {}, unknownColumns: [], notes: {} });
function tableSummary(report: ImportReport, table: string): TableSummary {
  const found = report.tables[table] ?? summary();
  report.tables[table] = found;
  return found;
}
const bump = (counts: Record<string, number>, key: string) => {
  counts[key] = (counts[key] ?? 0) + 1;
};

/** Rows of one target table waiting to be written as multi-row INSERTs. */
class Pending {
  rows: string[] = [];
  units = 0;
  constructor(
    readonly table: string,
    readonly columns: readonly string[],
  ) {}
  get head() {
    return `INSERT OR IGNORE INTO "${this.table}" (${this.columns.map((c) => `"${c}"`).join(", ")}) VALUES `;
  }
}

/** The part of a long text that goes into one statement. */
const TEXT_PIECE = 8_000;

/** Text cut into pieces, never between the two halves of an emoji (a UTF-16 surrogate pair). */
function pieces(text: string): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; ) {
    let end = Math.min(at + TEXT_PIECE, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    out.push(text.slice(at, end));
    at = end;
  }
  return out;
}

/**
 * A row too long for one statement (a long article): inserted with the first piece of each long text, then the rest
 * appended piece by piece, each statement within D1's size limit. All literal SQL, so a production import's files
 * can carry it too. The row is found again by its first column, its id (or an image's key).
 */
function longRow(rows: Pending, values: SqlValue[]): Statement[] {
  const [idColumn] = rows.columns;
  const id = literal(values[0] ?? null);
  const appends: Statement[] = [];
  const first = values.map((value, i) => {
    if (typeof value !== "string" || value.length <= TEXT_PIECE) return value;
    const column = rows.columns[i] as string;
    const [head = "", ...rest] = pieces(value);
    for (const piece of rest) {
      appends.push({
        sql: `UPDATE "${rows.table}" SET "${column}" = "${column}" || ${literal(piece)} WHERE "${idColumn}" = ${id}`,
        params: [],
      });
    }
    return head;
  });
  return [{ sql: `${rows.head}(${first.map(literal).join(", ")})`, params: [] }, ...appends];
}

export async function importDump(
  chunks: AsyncIterable<string> | Iterable<string>,
  target: ImportTarget,
  options: ImportOptions = {},
): Promise<ImportReport> {
  const prefix = options.prefix ?? "mc_";
  await prepare(target, options.force ?? false);

  const report: ImportReport = {
    tables: {},
    unknownTables: {},
    options: mapOptions([]),
    counters: [],
    files: [],
    indexed: {},
  };
  const optionRows: { name: string; value: string }[] = [];
  const dumpedTopicCounts = new Map<number, [number, number]>();
  const pending = new Map<string, Pending>();
  let queue: Statement[] = [];
  let rowsRead = 0;

  const flushQueue = async () => {
    if (queue.length === 0) return;
    const statements = queue;
    queue = [];
    await target.execute(statements);
    options.onProgress?.(rowsRead);
  };
  const flushTable = async (rows: Pending) => {
    if (rows.rows.length === 0) return;
    queue.push({ sql: rows.head + rows.rows.join(", "), params: [] });
    rows.rows = [];
    rows.units = 0;
    if (queue.length >= BATCH_STATEMENTS) await flushQueue();
  };
  const write = async (table: string, row: Row) => {
    const columns = Object.keys(row);
    const key = `${table}:${columns.join(",")}`;
    let rows = pending.get(key);
    if (!rows) {
      rows = new Pending(table, columns);
      pending.set(key, rows);
    }
    const values = columns.map((column) => row[column] ?? null);
    const text = `(${values.map(literal).join(", ")})`;
    if (text.length + rows.head.length > MAX_STATEMENT_UNITS) {
      queue.push(...longRow(rows, values));
      if (queue.length >= BATCH_STATEMENTS) await flushQueue();
      return;
    }
    if (rows.units + text.length + rows.head.length > MAX_STATEMENT_UNITS) await flushTable(rows);
    rows.rows.push(text);
    rows.units += text.length + 2;
  };

  for await (const event of readDump(chunks)) {
    if (event.kind === "table") continue;
    rowsRead++;
    const name = event.table.startsWith(prefix) ? event.table.slice(prefix.length) : null;
    const map = name === null ? undefined : TABLES[name];
    if (name === "option") {
      const row = rowOf(event, ["name", "value"]);
      optionRows.push({ name: String(row.name ?? ""), value: String(row.value ?? "") });
      continue;
    }
    if (!map || name === null) {
      const reason = name !== null ? NOT_CARRIED[name] : undefined;
      if (reason) {
        const table = tableSummary(report, event.table);
        table.read++;
        bump(table.skipped, reason);
      } else report.unknownTables[event.table] = (report.unknownTables[event.table] ?? 0) + 1;
      continue;
    }
    const table = tableSummary(report, map.target);
    table.read++;
    const source = rowOf(event, map.source);
    for (const column of Object.keys(source)) {
      if (!map.source.includes(column) && !table.unknownColumns.includes(column)) table.unknownColumns.push(column);
    }
    const reason = map.skip?.(source);
    if (reason) {
      bump(table.skipped, reason);
      continue;
    }
    const note = map.note?.(source);
    if (note) bump(table.notes, note);
    const row = await mapRow(map, source);
    if (map.target === "topics") {
      dumpedTopicCounts.set(row.topic_id as number, [row.question_count as number, row.article_count as number]);
    }
    collectFiles(report.files, map.target, row);
    await write(map.target, row);
  }
  for (const rows of pending.values()) await flushTable(rows);

  report.options = mapOptions(optionRows);
  for (const [optionName, value] of Object.entries(report.options.values)) {
    await write("options", { name: optionName, value: JSON.stringify(value) });
  }
  for (const rows of pending.values()) await flushTable(rows);
  await flushQueue();

  report.counters = await recountAll(target, dumpedTopicCounts);
  for (const [tableName, table] of Object.entries(report.tables)) {
    if (!FILLED.includes(tableName)) continue;
    const [row] = await target.query<{ n: number }>({ sql: `SELECT count(*) AS n FROM "${tableName}"`, params: [] });
    table.imported = row?.n ?? 0;
    const written = table.read - Object.values(table.skipped).reduce((sum, n) => sum + n, 0);
    if (written > table.imported) table.skipped[DUPLICATE] = written - table.imported;
  }
  // The rows went in without their search documents: the index is written from them, as `npm run search:rebuild`
  // does, before the import is marked done (a failure here leaves it unfinished, so the next run starts clean).
  await rebuildSearchIndex(
    { all: (statement) => target.query(statement), run: (list) => target.execute(list) },
    2000,
    (kind, n) => {
      report.indexed[kind] = n;
      options.onIndexProgress?.(kind, n);
    },
  );
  await target.execute([setMark("done")]);
  return report;
}

/** The row as MDClub's column names -> values, whether the INSERT named its columns or not. */
function rowOf(event: Extract<DumpEvent, { kind: "row" }>, schemaColumns: readonly string[]): Row {
  const columns = event.columns ?? schemaColumns;
  const row: Row = {};
  event.values.forEach((value, i) => {
    row[columns[i] ?? `column ${i + 1}`] = value;
  });
  return row;
}

const IMAGE_SIZES: Record<string, readonly string[]> = {
  avatar: ["small", "middle", "large"],
  cover: ["small", "middle", "large"],
  image: ["thumb", "release"],
};

/**
 * The files a row names. A content image's folder is dated by its upload day: this API dates it in UTC, MDClub in
 * its server's time zone, so the neighbouring days are candidates too.
 */
function collectFiles(files: FileReference[], table: string, row: Row) {
  for (const column of ["avatar", "cover"] as const) {
    const key = row[column];
    if ((table === "users" || table === "topics") && typeof key === "string" && key) {
      files.push({ key, column: { table, column }, sizes: IMAGE_SIZES[column] ?? [], candidates: [key] });
    }
  }
  if (table === "images" && typeof row.key === "string") {
    const name = row.key;
    const day = 86_400;
    const time = Number(row.create_time);
    const [key, ...others] = [time, time - day, time + day].map((t) => imagePath(name, t));
    files.push({ key: key as string, sizes: IMAGE_SIZES.image ?? [], candidates: [key as string, ...others] });
  }
}

/**
 * Avatars and covers whose files did not come across show the default images: a row never names a missing file
 * (docs/images.md#where-files-are-stored). Content images keep their rows, keys and links either way.
 */
export async function forgetMissingFiles(target: ImportTarget, missing: readonly FileReference[]): Promise<void> {
  const statements = missing.flatMap(({ key, column }) =>
    column
      ? [{ sql: `UPDATE "${column.table}" SET "${column.column}" = '' WHERE "${column.column}" = ?`, params: [key] }]
      : [],
  );
  await target.execute(statements);
}

function imagePath(name: string, time: number): string {
  const day = new Date(time * 1000).toISOString();
  return `image/${day.slice(0, 7)}/${day.slice(8, 10)}/${name.slice(0, 2)}/${name}`;
}

const setMark = (state: "running" | "done"): Statement => ({
  sql: `INSERT INTO options (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value`,
  params: [IMPORT_MARK, JSON.stringify({ state, time: Math.floor(Date.now() / 1000) })],
});

/** Refuses a database with content, unless forced or left so by an unfinished import; then empties what it fills. */
async function prepare(target: ImportTarget, force: boolean) {
  const contentTables = ["users", "questions", "answers", "articles", "comments", "topics"];
  const [state] = await target.query<{ content: number; mark: string | null }>({
    sql: `SELECT ${contentTables.map((t) => `(SELECT count(*) FROM "${t}")`).join(" + ")} AS content,
      (SELECT value FROM options WHERE name = ?) AS mark`,
    params: [IMPORT_MARK],
  });
  const unfinished = state?.mark ? JSON.parse(state.mark).state === "running" : false;
  if ((state?.content ?? 0) > 0 && !force && !unfinished) {
    throw new DatabaseNotEmpty(
      "The database already has content: importing would mix two communities. Pass --force to empty it first.",
    );
  }
  if ((state?.content ?? 0) > 0 || unfinished || force) {
    await target.execute([...FILLED, "throttles"].map((table) => ({ sql: `DELETE FROM "${table}"`, params: [] })));
  }
  await target.execute([setMark("running")]);
}

/**
 * Sets every counter from the imported rows. Differences are counted first, per counter, as rows whose dumped value
 * was wrong. The copies of each item's columns on its topic links (drizzle/0007), the topics' counts (drizzle/0008)
 * and the site totals (drizzle/0005) are kept by triggers that the rows' order in the dump may have fed wrongly:
 * they are set afresh from the rows, as those migrations set them.
 */
async function recountAll(target: ImportTarget, dumpedTopicCounts: Map<number, [number, number]>) {
  const statements: Statement[] = [];
  for (const kind of ["question", "article"] as const) {
    const table = `${kind}s`;
    const item = (column: string) =>
      `coalesce((SELECT "${column}" FROM "${table}" WHERE "${kind}_id" = "topicables"."topicable_id"), 0)`;
    statements.push({
      sql: `UPDATE "topicables" SET "item_delete_time" = ${item("delete_time")},
        "item_update_time" = ${item("update_time")},
        "item_create_time" = ${item("create_time")}, "item_vote_count" = ${item("vote_count")}
        WHERE "topicable_type" = '${kind}'`,
      params: [],
    });
    statements.push({
      sql: `UPDATE "topics" SET "${kind}_count" = (SELECT count(*) FROM "topicables" WHERE "topicables"."topic_id" =
        "topics"."topic_id" AND "topicable_type" = '${kind}' AND "item_delete_time" = 0)`,
      params: [],
    });
  }
  // Each kind's live rows as its list counts them (the entity model's trash column; users: not disabled).
  const totals: [string, SQLiteTable, SQL | undefined][] = [
    ...(["question", "answer", "article", "comment", "topic"] as const).map(
      (kind) => [kind, entities[kind].table, liveRows(entities[kind])] as [string, SQLiteTable, SQL | undefined],
    ),
    ["user", users, eq(users.disable_time, 0)],
  ];
  for (const [kind, table, live] of totals) {
    const rows = db.select({ n: count() }).from(table).where(live);
    statements.push(
      sqlOf(
        db
          .update(siteTotals)
          .set({ live: sql`${rows}` })
          .where(eq(siteTotals.kind, kind)),
      ),
    );
  }

  const differences: CounterDifference[] = [];
  for (const counter of everyCounter()) {
    const name = `${getTableName(counter.owner.table)}.${Object.keys(counter.columns).join("/")}`;
    // Drizzle names the count's column by its SQL, not by the key given to it: read the row's one value.
    const [row] = await target.query<Record<string, number>>(sqlOf(countDiffering(db, counter)));
    const rows = Number(Object.values(row ?? {})[0] ?? 0);
    if (rows > 0) differences.push({ counter: name, rows });
    statements.push(sqlOf(recountEvery(db, counter)));
  }
  await target.execute(statements);

  const topics = await target.query<{ topic_id: number; question_count: number; article_count: number }>({
    sql: `SELECT "topic_id", "question_count", "article_count" FROM "topics"`,
    params: [],
  });
  let questionCounts = 0;
  let articleCounts = 0;
  for (const topic of topics) {
    const [questions, articles] = dumpedTopicCounts.get(topic.topic_id) ?? [0, 0];
    if (questions !== topic.question_count) questionCounts++;
    if (articles !== topic.article_count) articleCounts++;
  }
  if (questionCounts) differences.push({ counter: "topics.question_count", rows: questionCounts });
  if (articleCounts) differences.push({ counter: "topics.article_count", rows: articleCounts });
  return differences;
}

/**
 * Imports an MDClub dump into this API's database (docs/migrating-from-mdclub.md). It runs wherever a target can
 * execute SQL (import-target.ts): the vitest Workers pool (on `env.DB`), the CLI on the local D1 of `npm run dev`, or
 * the CLI through `wrangler d1 execute --remote`. The dump comes as text chunks and is read as a stream
 * (sql-dump.ts); each row goes by its table's map (tables.ts) into multi-row INSERTs within D1's limits
 * (insert-batches.ts), then every counter is recounted from the imported rows and the differences with the dump's own
 * counters are reported (recount.ts). A run is marked so that one after a failure starts clean (import-mark.ts).
 *
 * This file only routes rows: a table comes across by its map in TABLES, whatever file holds the map.
 */
import { rebuildSearchIndex } from "../../behaviours/search-rebuild";
import { collectFiles } from "./files";
import { FILLED, prepare, setMark } from "./import-mark";
import type { ImportTarget } from "./import-target";
import { conversationStatements } from "./inbox";
import { InsertBatches } from "./insert-batches";
import { mapOptions } from "./options";
import { type DumpedTopicCounts, recountAll } from "./recount";
import { bump, countImported, type ImportReport, tableSummary } from "./report";
import { type DumpEvent, readDump } from "./sql-dump";
import { mapRow, NOT_CARRIED, type Row, TABLES } from "./tables";

// The importer's interface for its callers (cli.ts and the tests) in one place.
export { type FileReference, forgetMissingFiles } from "./files";
export { DatabaseNotEmpty } from "./import-mark";
export type { ImportTarget } from "./import-target";
export { DUPLICATE, type ImportReport } from "./report";

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
  const dumpedTopicCounts: DumpedTopicCounts = new Map();
  let rowsRead = 0;
  const inserts = new InsertBatches(target, () => options.onProgress?.(rowsRead));

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
    await inserts.write(map.target, row);
  }
  await inserts.flushTables();

  report.options = mapOptions(optionRows);
  for (const [optionName, value] of Object.entries(report.options.values)) {
    await inserts.write("options", { name: optionName, value: JSON.stringify(value) });
  }
  await inserts.flushTables();
  await inserts.send();

  await target.execute(conversationStatements());
  report.counters = await recountAll(target, dumpedTopicCounts);
  await countImported(target, report, FILLED);
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

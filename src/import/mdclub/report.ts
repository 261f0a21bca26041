/** What an import did, table by table, as the CLI prints it (docs/migrating-from-mdclub.md). */
import type { FileReference } from "./files";
import type { ImportTarget } from "./import-target";
import type { OptionsOutcome } from "./options";

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

/** Why a mapped row was not written: `INSERT OR IGNORE` met a key an earlier row had. */
export const DUPLICATE = "a duplicate of an earlier row (the same id or pair, or a name or address taken in any case)";

const summary = (): TableSummary => ({ read: 0, imported: 0, skipped: {}, unknownColumns: [], notes: {} });

/** The summary of a table, begun on its first row. */
export function tableSummary(report: ImportReport, table: string): TableSummary {
  const found = report.tables[table] ?? summary();
  report.tables[table] = found;
  return found;
}

export const bump = (counts: Record<string, number>, key: string) => {
  counts[key] = (counts[key] ?? 0) + 1;
};

/**
 * Each filled table's rows counted after the import; rows mapped but not there were ignored as duplicates. `filled`
 * names the tables the import wrote (the others in the report were read and skipped whole).
 */
export async function countImported(target: ImportTarget, report: ImportReport, filled: readonly string[]) {
  for (const [tableName, table] of Object.entries(report.tables)) {
    if (!filled.includes(tableName)) continue;
    const [row] = await target.query<{ n: number }>({ sql: `SELECT count(*) AS n FROM "${tableName}"`, params: [] });
    table.imported = row?.n ?? 0;
    const written = table.read - Object.values(table.skipped).reduce((sum, n) => sum + n, 0);
    if (written > table.imported) table.skipped[DUPLICATE] = written - table.imported;
  }
}

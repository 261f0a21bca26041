/**
 * The whole database as data: a snapshot of every table, a restore to it, and a comparable form that ignores
 * what differs between two runs of the same request (times, random tokens and file names).
 */
import { env } from "cloudflare:workers";

/**
 * Tables holding application data: SQLite's, D1's and Cloudflare's own are left out, and so are the shadow tables
 * of a virtual table (the FTS5 index's `search_index_data` …), which only the virtual table may write: the
 * virtual table's own rows stand for them.
 */
async function tables(): Promise<{ name: string; virtual: number }[]> {
  const { results } = await env.DB.prepare(
    `SELECT name, sql LIKE 'CREATE VIRTUAL TABLE%' AS virtual FROM sqlite_master AS t WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'd1_%'
     AND name NOT LIKE '_cf_%' AND NOT EXISTS (SELECT 1 FROM sqlite_master AS v WHERE v.type = 'table'
     AND v.sql LIKE 'CREATE VIRTUAL TABLE%' AND t.name LIKE v.name || '!_%' ESCAPE '!') ORDER BY name`,
  ).all<{ name: string; virtual: number }>();
  return results;
}

export interface Snapshot {
  rows: Record<string, Record<string, unknown>[]>;
  /** SQLite's AUTOINCREMENT counters, so a restored database hands out the same new ids again. */
  sequences: { name: string; seq: number }[];
}

/** Every row of every table, in one round trip. */
export async function snapshot(): Promise<Snapshot> {
  const found = await tables();
  const names = found.map((table) => table.name);
  const results = await env.DB.batch([
    // A virtual table's rowid is its rows' key (the FTS index's), which `*` leaves out.
    ...found.map(({ name, virtual }) => env.DB.prepare(`SELECT ${virtual ? "rowid AS rowid, " : ""}* FROM "${name}"`)),
    env.DB.prepare("SELECT name, seq FROM sqlite_sequence"),
  ]);
  return {
    rows: Object.fromEntries(names.map((name, i) => [name, results[i]!.results as Record<string, unknown>[]])),
    sequences: results.at(-1)!.results as Snapshot["sequences"],
  };
}

/** Puts every table back as the snapshot had it, and drops the settings cached in KV. */
export async function restore(state: Snapshot): Promise<void> {
  const statements: D1PreparedStatement[] = [];
  // The site's totals go back last: triggers move them as the other tables' rows are deleted and inserted again.
  const tables = Object.entries(state.rows).sort(
    ([a], [b]) => Number(a === "site_totals") - Number(b === "site_totals"),
  );
  for (const [name, rows] of tables) {
    statements.push(env.DB.prepare(`DELETE FROM "${name}"`));
    for (const row of rows) {
      const columns = Object.keys(row);
      const list = columns.map((column) => `"${column}"`).join(", ");
      const sql = `INSERT INTO "${name}" (${list}) VALUES (${columns.map(() => "?").join(", ")})`;
      statements.push(env.DB.prepare(sql).bind(...Object.values(row)));
    }
  }
  statements.push(env.DB.prepare("DELETE FROM sqlite_sequence"));
  for (const { name, seq } of state.sequences) {
    statements.push(env.DB.prepare("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)").bind(name, seq));
  }
  await env.DB.batch(statements);
  await env.KV.delete("options:v1");
}

// Inside text too (a deleted item's JSON snapshot): Unix times of this era, and hex runs.
const scrub = (text: string) => text.replace(/\b1[0-9]{9}\b/g, "t").replace(/[0-9a-f]{16,}/g, "h");

/**
 * The rows as comparable text: times become "t" (a rerun may fall in another second) and long hex runs "h"
 * (tokens, file names and keys are random per run); each table's rows sorted.
 */
export function comparable(state: Snapshot): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(state.rows).map(([name, rows]) => [
      name,
      rows
        .map((row) =>
          JSON.stringify(
            Object.fromEntries(
              Object.entries(row).map(([column, value]) => [
                column,
                column.endsWith("_time") && Number(value) > 0 ? "t" : typeof value === "string" ? scrub(value) : value,
              ]),
            ),
          ),
        )
        .sort(),
    ]),
  );
}

/** The tables whose rows differ between two comparable states. */
export const changedTables = (a: Record<string, string[]>, b: Record<string, string[]>): string[] =>
  Object.keys({ ...a, ...b }).filter((name) => JSON.stringify(a[name]) !== JSON.stringify(b[name]));

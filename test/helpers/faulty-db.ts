/**
 * A D1 binding that fails on purpose: the k-th round trip (a `batch()`, or a statement's run/all/first/raw)
 * throws instead of reaching the database, as a D1 outage or a timeout in the middle of a request would. Every
 * round trip is counted, so a healthy run tells how many a request makes.
 */
import { env } from "cloudflare:workers";

export class InjectedFault extends Error {}

export class FaultyD1 {
  roundTrips = 0;

  constructor(
    private readonly inner: D1Database,
    /** The round trip that throws (1-based); 0 never. */
    private readonly failAt = 0,
  ) {}

  trip<T>(run: () => Promise<T>): Promise<T> {
    this.roundTrips += 1;
    if (this.roundTrips === this.failAt) return Promise.reject(new InjectedFault(`D1 round trip ${this.failAt}`));
    return run();
  }

  prepare(query: string): FaultyStatement {
    return new FaultyStatement(this.inner.prepare(query), this);
  }

  batch<T>(statements: FaultyStatement[]): Promise<D1Result<T>[]> {
    return this.trip(() => this.inner.batch<T>(statements.map((statement) => statement.inner)));
  }

  exec(query: string): Promise<D1ExecResult> {
    return this.trip(() => this.inner.exec(query));
  }
}

class FaultyStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    private readonly db: FaultyD1,
  ) {}

  bind(...values: unknown[]): FaultyStatement {
    return new FaultyStatement(this.inner.bind(...values), this.db);
  }

  first<T>(column?: string): Promise<T | null> {
    return this.db.trip(() => (column === undefined ? this.inner.first<T>() : this.inner.first<T>(column)));
  }

  all<T>(): Promise<D1Result<T>> {
    return this.db.trip(() => this.inner.all<T>());
  }

  run<T>(): Promise<D1Result<T>> {
    return this.db.trip(() => this.inner.run<T>());
  }

  raw<T>(options?: { columnNames?: boolean }): Promise<T[]> {
    return this.db.trip(() => this.inner.raw<T>(options as { columnNames?: false }));
  }
}

/** The test's bindings with D1 replaced by one that fails at round trip `failAt` (0: never). */
export function faultyEnv(failAt = 0): { env: typeof env; db: FaultyD1 } {
  const db = new FaultyD1(env.DB, failAt);
  return { env: { ...env, DB: db as unknown as D1Database }, db };
}

/** Tables holding application data: SQLite's, D1's and Cloudflare's own are left out. */
async function tables(): Promise<string[]> {
  const { results } = await env.DB.prepare(
    `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'd1_%'
     AND name NOT LIKE '_cf_%' ORDER BY name`,
  ).all<{ name: string }>();
  return results.map((row) => row.name);
}

export interface Snapshot {
  rows: Record<string, Record<string, unknown>[]>;
  /** SQLite's AUTOINCREMENT counters, so a restored database hands out the same new ids again. */
  sequences: { name: string; seq: number }[];
}

/** Every row of every table, in one round trip. */
export async function snapshot(): Promise<Snapshot> {
  const names = await tables();
  const results = await env.DB.batch([
    ...names.map((name) => env.DB.prepare(`SELECT * FROM "${name}"`)),
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
  for (const [name, rows] of Object.entries(state.rows)) {
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

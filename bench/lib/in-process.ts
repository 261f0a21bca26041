/**
 * A Worker in this Node process, for the CPU profile: its D1 binding is a SQLite file opened with node:sqlite
 * (synchronous, so a request's database work is on this thread, timed apart), KV is a Map. What the runtime
 * provides (Request, Response, Headers, streams, WebCrypto) is Node's: undici's JavaScript where workerd has C++.
 */
import { DatabaseSync, type StatementSync } from "node:sqlite";

/** Milliseconds spent inside SQLite (and building D1's result objects) since the database was opened. */
export interface SqliteClock {
  ms: number;
  statements: number;
}

type Value = null | number | bigint | string | Uint8Array;

const toSqlite = (value: unknown): Value => {
  if (value === undefined || value === null) return null;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  return value as Value;
};

class Statement {
  constructor(
    private readonly db: NodeD1,
    readonly sql: string,
    readonly params: Value[] = [],
  ) {}

  bind(...values: unknown[]) {
    return new Statement(this.db, this.sql, values.map(toSqlite));
  }

  /** Columns and rows as arrays, as D1's wire format carries them. */
  execute(): { columns: string[]; rows: Value[][]; changes: number; lastRowId: number } {
    const started = performance.now();
    try {
      const statement: StatementSync = this.db.sqlite.prepare(this.sql);
      const columns = statement.columns().map((column) => column.name);
      if (columns.length === 0) {
        const { changes, lastInsertRowid } = statement.run(...this.params);
        return { columns, rows: [], changes: Number(changes), lastRowId: Number(lastInsertRowid) };
      }
      statement.setReturnArrays(true);
      return { columns, rows: statement.all(...this.params) as unknown as Value[][], changes: 0, lastRowId: 0 };
    } finally {
      this.db.clock.ms += performance.now() - started;
      this.db.clock.statements++;
    }
  }

  result() {
    const { columns, rows, changes, lastRowId } = this.execute();
    // D1 turns its wire arrays into objects the same way (later columns of the same name win).
    const results = rows.map((row) => {
      const object: Record<string, Value> = {};
      columns.forEach((name, index) => {
        object[name] = row[index] as Value;
      });
      return object;
    });
    return {
      results,
      success: true,
      meta: { duration: 0, changes, last_row_id: lastRowId, rows_read: 0, rows_written: changes },
    };
  }

  async all() {
    return this.result();
  }

  async run() {
    return this.result();
  }

  async first(column?: string) {
    const [row] = this.result().results;
    if (!row) return null;
    return column === undefined ? row : row[column];
  }

  async raw(options?: { columnNames?: boolean }) {
    const { columns, rows } = this.execute();
    return options?.columnNames ? [columns, ...rows] : rows;
  }
}

/** The subset of D1Database the app and the reference use, over a SQLite file. */
export class NodeD1 {
  readonly sqlite: DatabaseSync;
  readonly clock: SqliteClock = { ms: 0, statements: 0 };

  constructor(file: string) {
    this.sqlite = new DatabaseSync(file);
    // The profile measures CPU: a commit's wait for the disk would be counted as busy time, and varies with
    // whatever else writes to the disk.
    this.sqlite.exec("PRAGMA synchronous = OFF");
  }

  prepare(sql: string) {
    return new Statement(this, sql);
  }

  /** One transaction, as D1 runs a batch. */
  async batch(statements: Statement[]) {
    this.sqlite.exec("BEGIN");
    try {
      const results = statements.map((statement) => statement.result());
      this.sqlite.exec("COMMIT");
      return results;
    } catch (error) {
      this.sqlite.exec("ROLLBACK");
      throw error;
    }
  }

  async exec(sql: string) {
    this.sqlite.exec(sql);
    return { count: 0, duration: 0 };
  }

  /** One database: every session reads it as it is, and its bookmark says nothing. */
  withSession() {
    return Object.assign(Object.create(this) as NodeD1, { getBookmark: () => "00000000-00000000-00000000-0" });
  }
}

/** KV as a Map of strings. */
export class MapKv {
  private readonly values = new Map<string, string>();

  /** One key, or several as KV's bulk read answers them: a Map of each key to its value or null. */
  async get(key: string | string[], type?: "text" | "json") {
    if (Array.isArray(key)) return new Map(key.map((one) => [one, this.read(one, type)]));
    return this.read(key, type);
  }

  private read(key: string, type?: "text" | "json") {
    const value = this.values.get(key);
    if (value === undefined) return null;
    return type === "json" ? JSON.parse(value) : value;
  }

  async put(key: string, value: string) {
    this.values.set(key, value);
  }

  async delete(key: string) {
    this.values.delete(key);
  }
}

/** A module Worker's `fetch`, called in this process; waitUntil work is awaited before the answer returns. */
export function inProcess(
  worker: { fetch(request: Request, env: never, ctx: never): Response | Promise<Response> },
  env: Record<string, unknown>,
) {
  return async (url: string, init?: RequestInit): Promise<Response> => {
    const pending: Promise<unknown>[] = [];
    const ctx = { waitUntil: (work: Promise<unknown>) => pending.push(work), passThroughOnException() {}, props: {} };
    const response = await worker.fetch(new Request(url, init), env as never, ctx as never);
    await Promise.all(pending);
    return response;
  };
}

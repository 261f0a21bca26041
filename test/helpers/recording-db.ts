/**
 * A D1 binding that records every statement a request sends, with its bound values, and passes it on: for the
 * tests that look at the SQL itself (query plans).
 */
import { env } from "cloudflare:workers";

export interface Recorded {
  sql: string;
  values: unknown[];
}

class RecordingStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    readonly recorded: Recorded,
    private readonly log: Recorded[],
  ) {}

  bind(...values: unknown[]): RecordingStatement {
    return new RecordingStatement(this.inner.bind(...values), { sql: this.recorded.sql, values }, this.log);
  }

  private sent(): D1PreparedStatement {
    this.log.push(this.recorded);
    return this.inner;
  }

  first<T>(column?: string): Promise<T | null> {
    return column === undefined ? this.sent().first<T>() : this.sent().first<T>(column);
  }

  all<T>(): Promise<D1Result<T>> {
    return this.sent().all<T>();
  }

  run<T>(): Promise<D1Result<T>> {
    return this.sent().run<T>();
  }

  raw<T>(options?: { columnNames?: boolean }): Promise<T[]> {
    return this.sent().raw<T>(options as { columnNames?: false });
  }
}

/** The test's bindings with D1 replaced by one that records into `log`. */
export function recordingEnv(log: Recorded[]): typeof env {
  const db = {
    prepare: (sql: string) => new RecordingStatement(env.DB.prepare(sql), { sql, values: [] }, log),
    batch: <T>(statements: RecordingStatement[]) => {
      for (const statement of statements) log.push(statement.recorded);
      return env.DB.batch<T>(statements.map((statement) => statement.inner));
    },
    exec: (sql: string) => {
      log.push({ sql, values: [] });
      return env.DB.exec(sql);
    },
  };
  return { ...env, DB: db as unknown as D1Database };
}

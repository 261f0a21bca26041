/**
 * A D1 binding between a request and the test's own: it counts every round trip (a `batch()`, or a statement's
 * run/all/first/raw), can make the k-th one throw instead of reaching the database, as a D1 outage or a timeout in
 * the middle of a request would, and records every statement sent with its bound values, for the tests that look
 * at the SQL itself (query plans).
 */
import { env } from "cloudflare:workers";

export class InjectedFault extends Error {}

export interface Recorded {
  sql: string;
  values: unknown[];
}

export class FaultyD1 {
  roundTrips = 0;
  /** Where each session asked of it started (`first-unconstrained`, `first-primary` or a bookmark). */
  readonly sessions: string[] = [];
  /**
   * Whether a read replica answers the sessions that do not start at the primary, as their results then say
   * (`meta.served_by_primary: false`); locally the primary answers everything. The data is the same either way.
   */
  replica = false;

  constructor(
    private readonly inner: D1Database,
    /** The round trip that throws (1-based); 0 never. */
    private readonly failAt = 0,
    /** Where each statement sent is recorded. */
    readonly log: Recorded[] = [],
  ) {}

  trip<T>(statements: Recorded[], run: () => Promise<T>): Promise<T> {
    this.roundTrips += 1;
    this.log.push(...statements);
    if (this.roundTrips === this.failAt) return Promise.reject(new InjectedFault(`D1 round trip ${this.failAt}`));
    return run();
  }

  prepare(query: string): FaultyStatement {
    return new FaultyStatement(this.inner.prepare(query), this, { sql: query, values: [] });
  }

  batch<T>(statements: FaultyStatement[]): Promise<D1Result<T>[]> {
    return this.trip(
      statements.map((statement) => statement.recorded),
      () => this.inner.batch<T>(statements.map((statement) => statement.inner)),
    );
  }

  exec(query: string): Promise<D1ExecResult> {
    return this.trip([{ sql: query, values: [] }], () => this.inner.exec(query));
  }

  /** A session of the real database whose round trips count, fail and are recorded here. */
  withSession(start = "first-unconstrained") {
    this.sessions.push(start);
    const session = this.inner.withSession(start);
    return {
      prepare: (query: string) => new FaultyStatement(session.prepare(query), this, { sql: query, values: [] }),
      batch: <T>(statements: FaultyStatement[]) =>
        this.trip(
          statements.map((statement) => statement.recorded),
          async () => {
            const results = await session.batch<T>(statements.map((statement) => statement.inner));
            if (!this.replica || start === "first-primary") return results;
            return results.map((result) => ({ ...result, meta: { ...result.meta, served_by_primary: false } }));
          },
        ),
      getBookmark: () => session.getBookmark(),
    };
  }
}

class FaultyStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    private readonly db: FaultyD1,
    readonly recorded: Recorded,
  ) {}

  bind(...values: unknown[]): FaultyStatement {
    return new FaultyStatement(this.inner.bind(...values), this.db, { sql: this.recorded.sql, values });
  }

  private trip<T>(run: () => Promise<T>): Promise<T> {
    return this.db.trip([this.recorded], run);
  }

  first<T>(column?: string): Promise<T | null> {
    return this.trip(() => (column === undefined ? this.inner.first<T>() : this.inner.first<T>(column)));
  }

  all<T>(): Promise<D1Result<T>> {
    return this.trip(() => this.inner.all<T>());
  }

  run<T>(): Promise<D1Result<T>> {
    return this.trip(() => this.inner.run<T>());
  }

  raw<T>(options?: { columnNames?: boolean }): Promise<T[]> {
    return this.trip(() => this.inner.raw<T>(options as { columnNames?: false }));
  }
}

/** The test's bindings with D1 replaced by one that fails at round trip `failAt` (0: never). */
export function faultyEnv(failAt = 0): { env: typeof env; db: FaultyD1 } {
  const db = new FaultyD1(env.DB, failAt);
  return { env: { ...env, DB: db as unknown as D1Database }, db };
}

/** The test's bindings with D1 replaced by one that records every statement sent into `log`. */
export function recordingEnv(log: Recorded[]): typeof env {
  return { ...env, DB: new FaultyD1(env.DB, 0, log) as unknown as D1Database };
}

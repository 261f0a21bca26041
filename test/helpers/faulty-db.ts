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

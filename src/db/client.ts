/**
 * Drizzle over a D1 binding that counts round trips. Every D1 call is a network round trip in production, so
 * each request carries a meter: the `Server-Timing` header reports it and tests hold the budget with it
 * (reads <= 2, writes <= 3). A `batch()` is one round trip however many statements it carries.
 */
import { drizzle } from "drizzle-orm/d1";

export class D1Meter {
  roundTrips = 0;
  durationMs = 0;

  async time<T>(run: () => Promise<T>): Promise<T> {
    const started = performance.now();
    this.roundTrips += 1;
    try {
      return await run();
    } finally {
      this.durationMs += performance.now() - started;
    }
  }

  header(): string {
    return `d1;dur=${this.durationMs.toFixed(1)};desc="${this.roundTrips} round trips"`;
  }
}

class MeteredStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    private readonly meter: D1Meter,
  ) {}

  bind(...values: unknown[]): MeteredStatement {
    return new MeteredStatement(this.inner.bind(...values), this.meter);
  }

  first<T>(column?: string): Promise<T | null> {
    return this.meter.time(() => (column === undefined ? this.inner.first<T>() : this.inner.first<T>(column)));
  }

  all<T>(): Promise<D1Result<T>> {
    return this.meter.time(() => this.inner.all<T>());
  }

  run<T>(): Promise<D1Result<T>> {
    return this.meter.time(() => this.inner.run<T>());
  }

  raw<T>(options?: { columnNames?: boolean }): Promise<T[]> {
    return this.meter.time(() => this.inner.raw<T>(options as { columnNames?: false }));
  }
}

class MeteredD1 {
  constructor(
    private readonly inner: D1Database,
    private readonly meter: D1Meter,
  ) {}

  prepare(query: string): MeteredStatement {
    return new MeteredStatement(this.inner.prepare(query), this.meter);
  }

  batch<T>(statements: MeteredStatement[]): Promise<D1Result<T>[]> {
    return this.meter.time(() => this.inner.batch<T>(statements.map((s) => s.inner)));
  }

  exec(query: string): Promise<D1ExecResult> {
    return this.meter.time(() => this.inner.exec(query));
  }
}

export function createDb(binding: D1Database, meter: D1Meter) {
  return drizzle(new MeteredD1(binding, meter) as unknown as D1Database);
}

export type Db = ReturnType<typeof createDb>;

/** A client for work off the response path (`waitUntil`, cron): its round trips count against no request. */
export const backgroundDb = (binding: D1Database): Db => createDb(binding, new D1Meter());

type Statement = Parameters<Db["batch"]>[0][number];

/**
 * Runs any number of statements as one round trip (drizzle's `batch` wants a non-empty tuple). Results come
 * back in order; callers know the shape of each.
 */
export async function runBatch(db: Db, statements: Statement[]): Promise<unknown[]> {
  if (statements.length === 0) return [];
  return db.batch(statements as [Statement, ...Statement[]]);
}

export type BatchStatement = Statement;

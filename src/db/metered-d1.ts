/**
 * A D1 binding (or session) wrapped so that every call counts in the request's meter (db/meter.ts), and waits first
 * for what must go before it: the leads of db/batch.ts, sent on their own when a statement goes out alone.
 */
import type { D1Meter } from "./meter";

/** Runs before any call reaches D1 (sends the waiting leads). */
export type BeforeSend = () => Promise<void>;

export class MeteredStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    private readonly meter: D1Meter,
    private readonly before: BeforeSend,
  ) {}

  bind(...values: unknown[]): MeteredStatement {
    return new MeteredStatement(this.inner.bind(...values), this.meter, this.before);
  }

  private async time<T>(run: () => Promise<T>): Promise<T> {
    await this.before();
    return this.meter.time(run);
  }

  first<T>(column?: string): Promise<T | null> {
    this.meter.servedByReplica = true;
    return this.time(() => (column === undefined ? this.inner.first<T>() : this.inner.first<T>(column)));
  }

  all<T>(): Promise<D1Result<T>> {
    return this.time(async () => this.meter.count(await this.inner.all<T>()));
  }

  run<T>(): Promise<D1Result<T>> {
    return this.time(async () => this.meter.count(await this.inner.run<T>()));
  }

  raw<T>(options?: { columnNames?: boolean }): Promise<T[]> {
    this.meter.servedByReplica = true;
    return this.time(() => this.inner.raw<T>(options as { columnNames?: false }));
  }
}

export class MeteredD1 {
  constructor(
    private readonly inner: D1Database | D1DatabaseSession,
    private readonly meter: D1Meter,
    private readonly before: BeforeSend,
  ) {}

  prepare(query: string): MeteredStatement {
    return new MeteredStatement(this.inner.prepare(query), this.meter, this.before);
  }

  /** One round trip (db/batch.ts takes the waiting leads into its batch first, so then none waits here). */
  async batch<T>(statements: MeteredStatement[]): Promise<D1Result<T>[]> {
    await this.before();
    return this.meter.time(async () => this.meter.count(await this.inner.batch<T>(statements.map((s) => s.inner))));
  }
}

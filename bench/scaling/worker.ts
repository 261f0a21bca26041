/**
 * The Worker of src/index.ts behind a D1 binding that adds up what D1 says each request cost: rows read, rows
 * written and SQL time, from the `meta` of every result, background work included. bench/scaling/figures.mjs runs
 * it under `wrangler dev` and reads the sums from the `x-scaling-*` headers it adds (docs/scaling.md). The app's
 * own `Server-Timing` reports rows read only; rows written have no header in the app.
 */
import worker from "../../src/index";

interface Tally {
  rowsRead: number;
  rowsWritten: number;
  sqlMs: number;
  statements: number;
  /** Selects run through `raw()`, whose rows were counted by running them again. */
  rerun: number;
  /** Other calls whose result carries no meta: their rows are missing from the sums. */
  unmetered: number;
  /** Each statement with its rows, kept when the request asks with `x-scaling-trace`. */
  trace?: { sql: string; read: number; written: number }[];
}

function add(tally: Tally, results: D1Result<unknown>[], sql: string[]): void {
  for (const [i, result] of results.entries()) {
    tally.rowsRead += result.meta?.rows_read ?? 0;
    tally.rowsWritten += result.meta?.rows_written ?? 0;
    tally.sqlMs += result.meta?.duration ?? 0;
    tally.statements += 1;
    tally.trace?.push({
      sql: sql[i] ?? "",
      read: result.meta?.rows_read ?? 0,
      written: result.meta?.rows_written ?? 0,
    });
  }
}

class TalliedStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    private readonly tally: Tally,
    readonly sql: string,
  ) {}

  bind(...values: unknown[]): TalliedStatement {
    return new TalliedStatement(this.inner.bind(...values), this.tally, this.sql);
  }

  async all<T>(): Promise<D1Result<T>> {
    const result = await this.inner.all<T>();
    add(this.tally, [result], [this.sql]);
    return result;
  }

  async run<T>(): Promise<D1Result<T>> {
    const result = await this.inner.run<T>();
    add(this.tally, [result], [this.sql]);
    return result;
  }

  /** D1's `first()` reports no meta; the same query through `all()` does, and its first row is the answer. */
  async first<T>(column?: string): Promise<T | null> {
    const { results } = await this.all<Record<string, unknown>>();
    const row = results[0];
    if (row === undefined) return null;
    return (column === undefined ? row : row[column]) as T;
  }

  /**
   * D1's `raw()` (Drizzle's way to run a select outside a batch) reports no meta. A select is run once more through
   * `all()`, only to count its rows; the app's own Server-Timing misses these rows.
   */
  async raw<T>(options?: { columnNames?: boolean }): Promise<T[]> {
    const rows = await this.inner.raw<T>(options as { columnNames?: false });
    if (/^\s*select\b/i.test(this.sql)) {
      const result = await this.inner.all();
      this.tally.rerun += 1;
      add(this.tally, [result], [`(outside a batch, counted by a second run) ${this.sql}`]);
    } else {
      this.tally.unmetered += 1;
    }
    return rows;
  }
}

class TalliedD1 {
  constructor(
    private readonly inner: D1Database | D1DatabaseSession,
    private readonly tally: Tally,
  ) {}

  /** The app runs every request in a D1 session: its statements are tallied the same way. */
  withSession(start?: string): TalliedD1 & { getBookmark(): string | null } {
    const session = (this.inner as D1Database).withSession(start);
    return Object.assign(new TalliedD1(session, this.tally), { getBookmark: () => session.getBookmark() });
  }

  prepare(query: string): TalliedStatement {
    return new TalliedStatement(this.inner.prepare(query), this.tally, query);
  }

  async batch<T>(statements: TalliedStatement[]): Promise<D1Result<T>[]> {
    const results = await this.inner.batch<T>(statements.map((statement) => statement.inner));
    add(
      this.tally,
      results,
      statements.map((statement) => statement.sql),
    );
    return results;
  }
}

type Env = Parameters<typeof worker.fetch>[1];

export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    const tally: Tally = { rowsRead: 0, rowsWritten: 0, sqlMs: 0, statements: 0, rerun: 0, unmetered: 0 };
    if (request.headers.has("x-scaling-trace")) tally.trace = [];
    const waits: Promise<unknown>[] = [];
    // Work the app leaves to waitUntil (a token's renewal, the settings' copy in KV) is counted with its request.
    // The app uses nothing else of the context.
    const context = {
      waitUntil: (promise: Promise<unknown>) => {
        waits.push(promise);
      },
      passThroughOnException: () => ctx.passThroughOnException(),
      props: ctx.props,
    } as unknown as ExecutionContext;
    const tallied = { ...env, DB: new TalliedD1(env.DB, tally) as unknown as D1Database };
    const response = await worker.fetch(request, tallied, context);
    const body = await response.arrayBuffer();
    await Promise.allSettled(waits);
    const headers = new Headers(response.headers);
    headers.set("x-scaling-rows-read", String(tally.rowsRead));
    headers.set("x-scaling-rows-written", String(tally.rowsWritten));
    headers.set("x-scaling-sql-ms", tally.sqlMs.toFixed(3));
    headers.set("x-scaling-statements", String(tally.statements));
    headers.set("x-scaling-rerun", String(tally.rerun));
    headers.set("x-scaling-unmetered", String(tally.unmetered));
    if (tally.trace) console.log(`x-scaling-trace ${JSON.stringify(tally.trace)}`);
    // A 304 has no body.
    return new Response(response.status === 304 ? null : body, { status: response.status, headers });
  },
} satisfies ExportedHandler<Env>;

/**
 * What a request costs D1: round trips and rows read. Every D1 call is a network round trip in production, so each
 * request carries a meter: the `Server-Timing` header reports it and tests hold the budget with it
 * (docs/performance.md#one-round-trip). A `batch()` is one round trip however many statements it carries. D1 bills,
 * and spends time on, the rows it reads, which the header reports beside (docs/data-model.md#indexes).
 */
export class D1Meter {
  roundTrips = 0;
  durationMs = 0;
  /**
   * Rows D1 read for the request, as it reports them (what it bills). D1 reports them for `batch()`, `all()` and
   * `run()`, through which every statement of a request goes; `first()` and `raw()` report none.
   */
  rowsRead = 0;
  /**
   * The database's size in bytes as D1 last reported it (`meta.size_after` of any result); D1's authorizer refuses
   * `PRAGMA page_count`, so this is the size it can tell (docs/stats-captcha-mail.md#system-information).
   */
  databaseBytes: number | undefined;
  /**
   * Whether any statement may have been answered by a read replica: D1 says so in each result's
   * `meta.served_by_primary`, and a statement that reports no meta (`first()`, `raw()`) counts as one. A primary is
   * never behind, so a read answered only by it needs no check of the caller's own last write
   * (http/middleware/d1-session.ts).
   */
  servedByReplica = false;

  async time<T>(run: () => Promise<T>): Promise<T> {
    const started = performance.now();
    this.roundTrips += 1;
    try {
      return await run();
    } finally {
      this.durationMs += performance.now() - started;
    }
  }

  /** Adds the rows that results of D1 say they read. */
  count<T extends D1Result<unknown> | D1Result<unknown>[]>(results: T): T {
    for (const result of Array.isArray(results) ? results : [results]) {
      this.rowsRead += result.meta?.rows_read ?? 0;
      this.databaseBytes = result.meta?.size_after ?? this.databaseBytes;
      if (result.meta?.served_by_primary !== true) this.servedByReplica = true;
    }
    return results;
  }

  header(): string {
    return (
      `d1;dur=${this.durationMs.toFixed(1)};desc="${this.roundTrips} round trips", ` +
      `d1-rows;desc="${this.rowsRead} rows read"`
    );
  }
}

/**
 * Drizzle over a D1 binding that counts round trips and rows read. Every D1 call is a network round trip in
 * production, so each request carries a meter: the `Server-Timing` header reports it and tests hold the budget
 * with it (reads <= 2, writes <= 3). A `batch()` is one round trip however many statements it carries. D1 bills,
 * and spends time on, the rows it reads, which the header reports beside (docs/data-model.md#indexes).
 */
import { Column, fillPlaceholders, is, noopDecoder, SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { drizzle } from "drizzle-orm/d1";
import type { RunnableQuery } from "drizzle-orm/runnable-query";
import { SQLiteSelectBase } from "drizzle-orm/sqlite-core";

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

/**
 * Statements a request sends in front of its first batch, and what their results settle: the caller's token check
 * and the settings KV had lost (http/middleware/context.ts, docs/performance.md#one-round-trip).
 */
export interface Preamble {
  entry: BatchEntry;
  /** Whether it confirms the caller that writes would be built for: then it goes before any write. */
  confirmsCaller: boolean;
  /**
   * A statement that fails when the caller is not who the writes were built for, failing their whole batch (a batch
   * is one transaction), so that the preamble may ride with writes; without one it goes alone before them. Built only
   * for a batch that writes: most requests only read.
   */
  guard?: () => BatchStatement;
  /** Takes the entry's results; throws to abandon the request's work (a claim the check contradicts). */
  settle(result: never): void;
}

/** A request's preamble until a round trip has carried it. */
class PendingPreamble {
  preamble: Preamble | null = null;
  db: Db | null = null;
  client: MeteredD1 | null = null;

  take(): Preamble | null {
    const preamble = this.preamble;
    this.preamble = null;
    return preamble;
  }

  /** Sends the preamble on its own, before anything that may not ride with it. */
  async flush(): Promise<void> {
    const preamble = this.take();
    if (preamble && this.db) preamble.settle((await batch(this.db, preamble.entry)) as never);
  }
}

class MeteredStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    private readonly meter: D1Meter,
    private readonly pending: PendingPreamble,
  ) {}

  bind(...values: unknown[]): MeteredStatement {
    return new MeteredStatement(this.inner.bind(...values), this.meter, this.pending);
  }

  private async time<T>(run: () => Promise<T>): Promise<T> {
    await this.pending.flush();
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

class MeteredD1 {
  constructor(
    private readonly inner: D1Database | D1DatabaseSession,
    private readonly meter: D1Meter,
    private readonly pending: PendingPreamble,
  ) {}

  prepare(query: string): MeteredStatement {
    return new MeteredStatement(this.inner.prepare(query), this.meter, this.pending);
  }

  async batch<T>(statements: MeteredStatement[]): Promise<D1Result<T>[]> {
    await this.pending.flush();
    return this.meter.time(async () => this.meter.count(await this.inner.batch<T>(statements.map((s) => s.inner))));
  }
}

const pendingOf = new WeakMap<object, PendingPreamble>();

export function createDb(binding: D1Database | D1DatabaseSession, meter: D1Meter) {
  const pending = new PendingPreamble();
  const client = new MeteredD1(binding, meter, pending);
  const db = drizzle(client as unknown as D1Database);
  pending.db = db;
  pending.client = client;
  pendingOf.set(db, pending);
  meterOf.set(db, meter);
  return db;
}

export type Db = ReturnType<typeof createDb>;

const meterOf = new WeakMap<Db, D1Meter>();

/** The database's size in bytes, as D1 reported it with the last result `db` received (undefined before any). */
export const reportedDatabaseSize = (db: Db): number | undefined => meterOf.get(db)?.databaseBytes;

/** Puts `preamble` in front of the request's first round trip (in place of any before it). */
export function precede(db: Db, preamble: Preamble | null): void {
  const pending = pendingOf.get(db);
  if (pending) pending.preamble = preamble;
}

/** Whether a preamble still waits for a round trip. */
export const preambleWaits = (db: Db): boolean => Boolean(pendingOf.get(db)?.preamble);

/** Sends the waiting preamble now, on its own (a route with nothing to read, or one that must know first). */
export async function settle(db: Db): Promise<void> {
  await pendingOf.get(db)?.flush();
}

/** A client for work off the response path (`waitUntil`, cron): its round trips count against no request. */
export const backgroundDb = (binding: D1Database): Db => createDb(binding, new D1Meter());

/** A statement `db.batch()` runs: a Drizzle query builder, not yet awaited. */
export type BatchStatement = BatchItem<"sqlite">;

/** A statement whose result in a batch is `T` (what awaiting it gives: rows, or D1Result for a bare write). */
export type BatchQuery<T> = RunnableQuery<T, "sqlite">;

/**
 * What one `db.batch()` can carry, composed freely: a statement, null or undefined (nothing to run), a list or a
 * named record of entries, or a {@link BatchRead} (entries with a function of their results).
 */
export type BatchEntry = BatchStatement | BatchRead<unknown> | null | undefined | BatchList | BatchRecord;

interface BatchList extends ReadonlyArray<BatchEntry> {}
interface BatchRecord {
  readonly [name: string]: BatchEntry;
}

/** The result of an entry, typed from its statements: lists and records keep their shape. */
export type BatchResult<E> = E extends null | undefined
  ? E
  : E extends BatchRead<infer T>
    ? T
    : E extends BatchStatement
      ? E["_"]["result"]
      : { -readonly [K in keyof E]: BatchResult<E[K]> };

/**
 * Statements with what their results mean, to ride in any batch: a page's includes, a record and its
 * relations. Made by {@link readAs}.
 */
export class BatchRead<T> {
  constructor(
    readonly entry: BatchEntry,
    readonly resolve: (result: never) => T,
  ) {}
}

/** `entry`'s statements, read as what `resolve` makes of their results once the batch has run. */
export function readAs<const E extends BatchEntry, T>(entry: E, resolve: (result: BatchResult<E>) => T): BatchRead<T> {
  return new BatchRead<T>(entry, resolve);
}

/** Drizzle's query builders are class instances; the records an entry composes are plain objects. */
const isRecord = (entry: object): entry is BatchRecord => Object.getPrototypeOf(entry) === Object.prototype;

/**
 * Adds `entry`'s statements to `into` and answers how to rebuild its shape from the batch's results: the one
 * place results meet their types, each by the index its statement took.
 */
function plan(entry: BatchEntry, into: BatchStatement[]): (results: unknown[]) => unknown {
  if (entry == null) return () => entry;
  if (entry instanceof BatchRead) {
    const inner = plan(entry.entry, into);
    return (results) => entry.resolve(inner(results) as never);
  }
  if (Array.isArray(entry)) {
    const items = entry.map((item: BatchEntry) => plan(item, into));
    return (results) => items.map((item) => item(results));
  }
  if (isRecord(entry)) {
    const fields = Object.entries(entry).map(([name, item]) => [name, plan(item, into)] as const);
    return (results) => Object.fromEntries(fields.map(([name, field]) => [name, field(results)]));
  }
  const index = into.push(entry as BatchStatement) - 1;
  return (results) => results[index];
}

/**
 * Runs every statement of `entry` as one round trip (none when there is none) and answers its results in its
 * shape, typed from the statements: `const { total, rows } = await batch(db, { total: q1, rows: q2 })`.
 */
export async function batch<const E extends BatchEntry>(db: Db, entry: E): Promise<BatchResult<E>> {
  const statements: BatchStatement[] = [];
  const rebuild = plan(entry, statements);
  const preamble = pendingOf.get(db)?.take();
  if (!preamble) return rebuild(await send(db, statements)) as BatchResult<E>;
  // Writes built for a caller are written only for the caller D1 confirms: behind the guard, or after the check.
  const guarded = preamble.confirmsCaller && statements.some((statement) => !isSelect(statement));
  if (guarded && !preamble.guard) {
    preamble.settle((await batch(db, preamble.entry)) as never);
    return rebuild(await send(db, statements)) as BatchResult<E>;
  }
  const before: BatchStatement[] = [];
  const settle = plan(preamble.entry, before);
  const lead = guarded && preamble.guard ? [preamble.guard(), ...before] : before;
  let results: unknown[];
  try {
    results = await send(db, [...lead, ...statements]);
  } catch (error) {
    // The guard failed the batch, or something else did: the check alone tells which (settle throws on a stale claim).
    if (guarded) preamble.settle((await batch(db, preamble.entry)) as never);
    throw error;
  }
  preamble.settle(settle(results.slice(lead.length - before.length)) as never);
  return rebuild(results.slice(lead.length)) as BatchResult<E>;
}

/**
 * What a Drizzle builder prepares for a batch (the internal interface Drizzle's own D1 batch uses): its statement on
 * the request's client, its SQL and values, and how its rows are read back.
 */
interface Prepared {
  stmt?: MeteredStatement;
  getQuery(): { sql: string; params: unknown[] };
  mapResult(result: unknown, isFromBatch: boolean): unknown;
  executeMethod: string;
  fields?: { path: string[]; field: unknown }[];
  customResultMapper?: unknown;
  joinsNotNullableMap?: Record<string, boolean>;
}

/** How to read a selected column's raw value: a column, or an SQL expression's decoder. */
type Decoder = { mapFromDriverValue(value: unknown): unknown };

/** A select's rows read back: each value by its position, decoded, at its path (`{row: {...}, related: {...}}`). */
type RowReader = (values: unknown[]) => Record<string, unknown>;

/** Drizzle's decoders that return the value as it is (plain integer and text columns, SQL without a decoder). */
const IDENTITY = new Set([Column.prototype.mapFromDriverValue, noopDecoder.mapFromDriverValue]);

/**
 * Readers of select rows by their SQL and field paths: Drizzle works out each field's decoder with `is()` checks
 * for every value of every row, the largest part of its cost on a page of 100 rows; this does it once per shape.
 */
const readers = new Map<string, RowReader>();
const MAX_READERS = 500;

function rowReader(fields: { path: string[]; field: unknown }[]): RowReader {
  // The nested objects of a row (`row`, `related`), numbered as Drizzle makes them, at their first field (so that
  // the keys keep its order): 0 is the row itself, each other one hangs under its parent at its name.
  const objects: { parent: number; name: string }[] = [{ parent: -1, name: "" }];
  const numbers = new Map<string, number>([["", 0]]);
  const objectOf = (path: string[]): number => {
    const key = path.join("\u0000");
    let number = numbers.get(key);
    if (number === undefined) {
      const parent = objectOf(path.slice(0, -1));
      number = objects.push({ parent, name: path[path.length - 1] as string }) - 1;
      numbers.set(key, number);
    }
    return number;
  };
  const steps = fields.map(({ path, field }) => {
    // Drizzle's own choice (its mapResultRow): a column decodes itself, an expression (bare, aliased or a
    // subquery's) through its decoder.
    const expression = is(field, Column)
      ? null
      : is(field, SQL)
        ? field
        : ((field as { sql?: SQL }).sql ?? (field as { _: { sql: SQL } })._.sql);
    const decoder = (expression as unknown as { decoder: Decoder } | null)?.decoder ?? (field as Decoder);
    const known = objects.length;
    const object = objectOf(path.slice(0, -1));
    return {
      /** The objects this field is the first of: made before its value is set. */
      opens: objects.slice(known).map((made, i) => ({ ...made, number: known + i })),
      object,
      name: path[path.length - 1] as string,
      decoder: IDENTITY.has(decoder.mapFromDriverValue) ? null : decoder,
    };
  });
  return (values) => {
    const made: Record<string, unknown>[] = [{}];
    for (let i = 0; i < steps.length; i++) {
      const { opens, object, name, decoder } = steps[i] as (typeof steps)[number];
      for (const open of opens) {
        made[open.number] = {};
        (made[open.parent] as Record<string, unknown>)[open.name] = made[open.number];
      }
      const raw = values[i];
      (made[object] as Record<string, unknown>)[name] =
        raw === null || raw === undefined ? null : decoder ? decoder.mapFromDriverValue(raw) : raw;
    }
    return made[0] as Record<string, unknown>;
  };
}

/**
 * The rows of a select, as Drizzle would map them, through a reader kept per shape; null for what Drizzle maps
 * itself (writes, relational queries, and selects with an outer join, whose missing side Drizzle turns into null).
 */
function readRows(prepared: Prepared, sql: string, result: D1Result): unknown[] | null {
  const { fields, customResultMapper, joinsNotNullableMap } = prepared;
  if (prepared.executeMethod !== "all" || !fields || customResultMapper) return null;
  if (joinsNotNullableMap && Object.values(joinsNotNullableMap).some((notNull) => !notNull)) return null;
  const key = `${sql}\u0000${fields.map((field) => field.path.join(".")).join(",")}`;
  let reader = readers.get(key);
  if (!reader) {
    if (readers.size >= MAX_READERS) readers.clear();
    reader = rowReader(fields);
    readers.set(key, reader);
  }
  // D1 answers objects in the order of the columns, as Drizzle reads them too (its d1ToRawMapping). Two columns of
  // one name would be one key, and every value after it would land in the wrong field: refused loudly instead.
  return (result.results as Record<string, unknown>[]).map((row) => {
    const values = Object.values(row);
    if (values.length !== fields.length) {
      throw new Error(`a select of ${fields.length} fields got ${values.length} columns: two share a name (${sql})`);
    }
    return (reader as RowReader)(values);
  });
}

/**
 * A select whose SQL is built once per isolate, with `sql.placeholder(name)` where a request's values go: for a
 * statement every request sends (the token check), which Drizzle would otherwise build again each time.
 * `statement(db, values)` is that select, with these values, for any batch of `db`.
 */
export class Prebuilt<T> {
  private shape: { sql: string; params: unknown[]; prepared: Prepared } | null = null;

  constructor(private readonly build: (db: Db) => BatchQuery<T>) {}

  statement(values: Record<string, unknown>): BatchQuery<T> {
    return new PrebuiltRun(this, values) as unknown as BatchQuery<T>;
  }

  /** Built on a client that runs nothing: its SQL, its values (placeholders among them) and its fields. */
  shapeOf(): { sql: string; params: unknown[]; prepared: Prepared } {
    if (!this.shape) {
      const idle = createDb({ prepare: () => ({}) } as unknown as D1Database, new D1Meter());
      const prepared = (this.build(idle) as unknown as { _prepare(): Prepared })._prepare();
      this.shape = { ...prepared.getQuery(), prepared };
    }
    return this.shape;
  }
}

/**
 * A prebuilt select with one request's values, as a statement of any batch: it brings no statement of its own,
 * so {@link send} prepares its SQL on the batch's client, as for a raw statement.
 */
class PrebuiltRun {
  constructor(
    private readonly prebuilt: Prebuilt<unknown>,
    private readonly values: Record<string, unknown>,
  ) {}

  _prepare(): Prepared {
    const { sql, params, prepared } = this.prebuilt.shapeOf();
    const filled = fillPlaceholders(params, this.values);
    const { executeMethod, fields, customResultMapper, joinsNotNullableMap } = prepared;
    return {
      getQuery: () => ({ sql, params: filled }),
      mapResult: (result, isFromBatch) => prepared.mapResult(result, isFromBatch),
      executeMethod,
      fields,
      customResultMapper,
      joinsNotNullableMap,
    };
  }
}

const isSelect = (statement: BatchStatement) =>
  statement instanceof SQLiteSelectBase || statement instanceof PrebuiltRun;

/** Sends the statements as one D1 batch (Drizzle's, with the rows of selects read by {@link readRows}). */
async function send(db: Db, statements: BatchStatement[]): Promise<unknown[]> {
  if (statements.length === 0) return [];
  const client = pendingOf.get(db)?.client;
  if (!client) throw new Error("a batch on a client createDb did not make");
  const prepared = statements.map((statement) => (statement as unknown as { _prepare(): Prepared })._prepare());
  const queries = prepared.map((query) => query.getQuery());
  // A raw statement (`db.all(sql)`) or a prebuilt one prepares no statement of its own, as in Drizzle's batch.
  const bound = queries.map(({ sql, params }, i) => (prepared[i]?.stmt ?? client.prepare(sql)).bind(...params));
  const results = await client.batch(bound);
  return results.map(
    (result, i) =>
      readRows(prepared[i] as Prepared, queries[i]?.sql ?? "", result) ??
      (prepared[i] as Prepared).mapResult(result, true),
  );
}

/**
 * `writes`, then `read` in the same batch, so it sees them (D1 runs a batch as one transaction): the read's
 * result. Answers a write with the records it changed, or reads back a row only the insert could name.
 */
export async function writeThenRead<const E extends BatchEntry>(
  db: Db,
  writes: BatchEntry,
  read: E,
): Promise<BatchResult<E>> {
  const [, result] = await batch(db, [writes, read]);
  return result;
}

/** Runs writes as one round trip, none when there is nothing to write. */
export async function commit(db: Db, writes: BatchEntry): Promise<void> {
  await batch(db, writes);
}

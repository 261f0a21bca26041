/**
 * Sending Drizzle's query builders as one D1 batch, with the rows of selects mapped by readers kept per SQL shape.
 * This is the one module that reads Drizzle's internals (`_prepare()`, a prepared query's `fields`,
 * `joinsNotNullableMap`, `customResultMapper`, its decoders), the interface Drizzle's own D1 batch uses: Drizzle works
 * out each field's decoder with `is()` checks for every value of every row, the largest part of its cost on a page of
 * 100 rows, and this does it once per shape. test/row-mapping.test.ts compares every shape the app sends with
 * Drizzle's own mapping, so an upgrade that changes these internals fails there, loudly.
 */
import { Column, fillPlaceholders, is, noopDecoder, SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { drizzle } from "drizzle-orm/d1";
import type { RunnableQuery } from "drizzle-orm/runnable-query";
import { SQLiteSelectBase } from "drizzle-orm/sqlite-core";

/** A statement `db.batch()` runs: a Drizzle query builder, not yet awaited. */
export type BatchStatement = BatchItem<"sqlite">;

/** A statement whose result in a batch is `T` (what awaiting it gives: rows, or D1Result for a bare write). */
export type BatchQuery<T> = RunnableQuery<T, "sqlite">;

/** What a client must offer to send a batch: D1's own interface, as the metered client offers it. */
export interface BatchClient {
  prepare(query: string): { bind(...values: unknown[]): unknown };
  batch<T>(statements: never[]): Promise<D1Result<T>[]>;
}

/**
 * What a Drizzle builder prepares for a batch (the internal interface Drizzle's own D1 batch uses): its statement on
 * the request's client, its SQL and values, and how its rows are read back.
 */
export interface Prepared {
  stmt?: { bind(...values: unknown[]): unknown };
  getQuery(): { sql: string; params: unknown[] };
  mapResult(result: unknown, isFromBatch: boolean): unknown;
  executeMethod: string;
  fields?: { path: string[]; field: unknown }[];
  customResultMapper?: unknown;
  joinsNotNullableMap?: Record<string, boolean>;
}

const prepare = (statement: BatchStatement): Prepared => (statement as unknown as { _prepare(): Prepared })._prepare();

/** How to read a selected column's raw value: a column, or an SQL expression's decoder. */
type Decoder = { mapFromDriverValue(value: unknown): unknown };

/** A select's rows read back: each value by its position, decoded, at its path (`{row: {...}, related: {...}}`). */
type RowReader = (values: unknown[]) => Record<string, unknown>;

/** Drizzle's decoders that return the value as it is (plain integer and text columns, SQL without a decoder). */
const IDENTITY = new Set([Column.prototype.mapFromDriverValue, noopDecoder.mapFromDriverValue]);

const readers = new Map<string, RowReader>();
/** A name JavaScript orders before all others in an object: an array index. */
const INTEGER_KEY = /^(0|[1-9][0-9]{0,8})$/;
const MAX_READERS = 500;

/** Drizzle's own choice of a field's decoder (its mapResultRow): a column decodes itself, an expression through its. */
function decoderOf(field: unknown): Decoder {
  const expression = is(field, Column)
    ? null
    : is(field, SQL)
      ? field
      : ((field as { sql?: SQL }).sql ?? (field as { _: { sql: SQL } })._.sql);
  return (expression as unknown as { decoder: Decoder } | null)?.decoder ?? (field as Decoder);
}

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
    const decoder = decoderOf(field);
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
  // one name would be one key, and a column named like an integer (`SELECT 1`) would be moved first by JavaScript's
  // key order: every value after it would land in the wrong field, so both are refused loudly instead.
  const first = (result.results as Record<string, unknown>[])[0];
  if (first && Object.keys(first).some((name) => INTEGER_KEY.test(name))) {
    throw new Error(`a select has a column named like an integer, which reorders its row: alias it (${sql})`);
  }
  return (result.results as Record<string, unknown>[]).map((row) => {
    const values = Object.values(row);
    if (values.length !== fields.length) {
      throw new Error(`a select of ${fields.length} fields got ${values.length} columns: two share a name (${sql})`);
    }
    return (reader as RowReader)(values);
  });
}

/** A client that runs nothing, to build a query's SQL once. */
const idle = drizzle({ prepare: () => ({}) } as unknown as D1Database);

/**
 * A select whose SQL is built once per isolate, with `sql.placeholder(name)` where a request's values go: for a
 * statement every request sends (the token check), which Drizzle would otherwise build again each time.
 * `statement(values)` is that select, with these values, for any batch.
 */
export class Prebuilt<T> {
  private shape: { sql: string; params: unknown[]; prepared: Prepared } | null = null;

  constructor(private readonly build: (db: typeof idle) => BatchQuery<T>) {}

  statement(values: Record<string, unknown>): BatchQuery<T> {
    return new PrebuiltRun(this, values) as unknown as BatchQuery<T>;
  }

  /** Its SQL, its values (placeholders among them) and its fields. */
  shapeOf(): { sql: string; params: unknown[]; prepared: Prepared } {
    if (!this.shape) {
      const prepared = prepare(this.build(idle) as unknown as BatchStatement);
      this.shape = { ...prepared.getQuery(), prepared };
    }
    return this.shape;
  }
}

/**
 * A prebuilt select with one request's values, as a statement of any batch: it brings no statement of its own,
 * so {@link sendBatch} prepares its SQL on the batch's client, as for a raw statement.
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

/** Whether a statement only reads (a select, or a prebuilt one). */
export const isSelect = (statement: BatchStatement): boolean =>
  statement instanceof SQLiteSelectBase || statement instanceof PrebuiltRun;

/** Sends the statements as one D1 batch on `client` (Drizzle's, with the rows of selects read by {@link readRows}). */
export async function sendBatch(client: BatchClient, statements: BatchStatement[]): Promise<unknown[]> {
  if (statements.length === 0) return [];
  const prepared = statements.map(prepare);
  const queries = prepared.map((query) => query.getQuery());
  // A raw statement (`db.all(sql)`) or a prebuilt one prepares no statement of its own, as in Drizzle's batch.
  const bound = queries.map(({ sql, params }, i) => (prepared[i]?.stmt ?? client.prepare(sql)).bind(...params));
  const results = await client.batch(bound as never[]);
  return results.map(
    (result, i) =>
      readRows(prepared[i] as Prepared, queries[i]?.sql ?? "", result) ??
      (prepared[i] as Prepared).mapResult(result, true),
  );
}

/**
 * Composing one D1 round trip: statements of any shape (a record, a list, a read with what its results mean) as one
 * `batch()`, their results given back in that shape and typed from the statements, and the leads that ride in front
 * of the next batch (docs/performance.md#one-round-trip): statements a request must send anyway (its caller's token
 * check, the settings KV lost), and what their results settle.
 */
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { type BatchClient, type BatchStatement, isSelect, sendBatch } from "./row-mapping";

/** A Drizzle client made by db/client.ts's `createDb`: its batches go through {@link batch}. */
export type Db = DrizzleD1Database<Record<string, never>> & { $client: D1Database };

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

/**
 * Statements that ride in front of a client's next batch, and what their results settle. The batch does not know
 * what a lead checks; it knows only that writes may not go out before a gating lead is settled, unless the lead's
 * guard, a statement that fails its whole batch (a batch is one transaction) when the check does not hold, goes in
 * front of them.
 */
export interface Lead {
  entry: BatchEntry;
  /** Whether writes must wait for this lead: behind its guard in the same batch, or after it. */
  gatesWrites?: boolean;
  /** Built only for a batch that writes: most batches only read. */
  guard?: () => BatchStatement;
  /** Takes the entry's results; throws to abandon the work built on what the lead checks. */
  settle(result: never): void;
}

/** What a client made by `createDb` keeps beside Drizzle: where its batches go and the leads waiting for one. */
interface ClientState {
  client: BatchClient;
  leads: Lead[];
}

const states = new WeakMap<object, ClientState>();

/** Registers a client's batch sender (db/client.ts, `createDb`). */
export function registerClient(db: Db, client: BatchClient): void {
  states.set(db, { client, leads: [] });
}

function stateOf(db: Db): ClientState {
  const state = states.get(db);
  if (!state) throw new Error("a batch on a client createDb did not make");
  return state;
}

function takeLeads(db: Db): Lead[] {
  const state = stateOf(db);
  const leads = state.leads;
  state.leads = [];
  return leads;
}

/** Puts `lead` in front of the client's next round trip (with any other lead waiting). */
export function precede(db: Db, lead: Lead | null): void {
  if (lead) stateOf(db).leads.push(lead);
}

/** Whether a lead still waits for a round trip. */
export const leadWaits = (db: Db): boolean => (states.get(db)?.leads.length ?? 0) > 0;

/** Sends the waiting leads now, on their own (a route with nothing to read, or one that must know first). */
export async function settle(db: Db): Promise<void> {
  const leads = takeLeads(db);
  if (leads.length > 0)
    settleAll(
      leads,
      await batch(
        db,
        leads.map((lead) => lead.entry),
      ),
    );
}

function settleAll(leads: Lead[], results: unknown[]): void {
  for (const [i, lead] of leads.entries()) lead.settle(results[i] as never);
}

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
  if (Object.getPrototypeOf(entry) === Object.prototype) {
    // A record: Drizzle's query builders are class instances, the records an entry composes plain objects.
    const fields = Object.entries(entry as BatchRecord).map(([name, item]) => [name, plan(item, into)] as const);
    return (results) => Object.fromEntries(fields.map(([name, field]) => [name, field(results)]));
  }
  const index = into.push(entry as BatchStatement) - 1;
  return (results) => results[index];
}

/**
 * Runs every statement of `entry` as one round trip (none when there is none) and answers its results in its
 * shape, typed from the statements: `const { total, rows } = await batch(db, { total: q1, rows: q2 })`. The waiting
 * leads ride in front.
 */
export async function batch<const E extends BatchEntry>(db: Db, entry: E): Promise<BatchResult<E>> {
  const { client } = stateOf(db);
  const statements: BatchStatement[] = [];
  const rebuild = plan(entry, statements);
  const leads = takeLeads(db);
  if (leads.length === 0) return rebuild(await sendBatch(client, statements)) as BatchResult<E>;
  const writes = statements.some((statement) => !isSelect(statement));
  const gating = writes ? leads.filter((lead) => lead.gatesWrites) : [];
  if (gating.some((lead) => !lead.guard)) {
    // A gate without a guard: the leads go alone, and the writes only once they are settled.
    settleAll(
      leads,
      await batch(
        db,
        leads.map((lead) => lead.entry),
      ),
    );
    return rebuild(await sendBatch(client, statements)) as BatchResult<E>;
  }
  const guards = gating.map((lead) => (lead.guard as () => BatchStatement)());
  const before: BatchStatement[] = [];
  const settleLeads = plan(
    leads.map((lead) => lead.entry),
    before,
  );
  let results: unknown[];
  try {
    results = await sendBatch(client, [...guards, ...before, ...statements]);
  } catch (error) {
    // A guard failed the batch, or something else did: the leads alone tell which (settle throws when a check fails).
    if (guards.length > 0)
      settleAll(
        leads,
        await batch(
          db,
          leads.map((lead) => lead.entry),
        ),
      );
    throw error;
  }
  settleAll(leads, settleLeads(results.slice(guards.length)) as unknown[]);
  return rebuild(results.slice(guards.length + before.length)) as BatchResult<E>;
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

/** The rows the writes among `results` changed, as D1 reports them (a select's rows report none). */
export const changedRows = (results: unknown[]): number =>
  results.reduce<number>((sum, result) => sum + ((result as Partial<D1Result>).meta?.changes ?? 0), 0);

/** Runs writes as one round trip, none when there is nothing to write. */
export async function commit(db: Db, writes: BatchEntry): Promise<void> {
  await batch(db, writes);
}

/**
 * The request's Drizzle client over a D1 binding or session: every round trip metered (db/meter.ts), batches composed
 * by db/batch.ts, rows mapped by db/row-mapping.ts. The rest of the app imports the database API from here.
 */
import { drizzle } from "drizzle-orm/d1";
import { type Db, registerClient, settle } from "./batch";
import { D1Meter } from "./meter";
import { MeteredD1 } from "./metered-d1";

export type { BatchEntry, BatchResult, Db, Lead } from "./batch";
export { BatchRead, batch, changedRows, commit, leadWaits, precede, readAs, settle, writeThenRead } from "./batch";
export { D1Meter } from "./meter";
export type { BatchQuery, BatchStatement } from "./row-mapping";
export { Prebuilt } from "./row-mapping";

const meters = new WeakMap<Db, D1Meter>();

export function createDb(binding: D1Database | D1DatabaseSession, meter: D1Meter): Db {
  let db: Db | undefined;
  const client = new MeteredD1(binding, meter, () => (db ? settle(db) : Promise.resolve()));
  db = drizzle(client as unknown as D1Database) as Db;
  registerClient(db, client as never);
  meters.set(db, meter);
  return db;
}

/** The database's size in bytes, as D1 reported it with the last result `db` received (undefined before any). */
export const reportedDatabaseSize = (db: Db): number | undefined => meters.get(db)?.databaseBytes;

/** A client for work off the response path (`waitUntil`, cron): its round trips count against no request. */
export const backgroundDb = (binding: D1Database): Db => createDb(binding, new D1Meter());

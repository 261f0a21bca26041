/**
 * Settings storage: rows in D1 (`options`), read by requests through KV (written through on PATCH), so a
 * request costs no D1 round trip for them unless KV has lost the record.
 */
import { sql } from "drizzle-orm";
import type { BatchStatement, Db } from "../db/client";
import { options } from "../db/schema";
import type { SiteOptions } from "./site-options";

const KV_KEY = "options:v1";
/**
 * A request that missed KV refills it after its response; if a PATCH lands in between, that refill writes the
 * older record over the newer one. KV has no compare-and-set, so the entry expires instead: such a stale
 * record lives at most this long, at the cost of one D1 read per expiry.
 */
const KV_TTL_SECONDS = 3600;

export async function readCachedOptions(kv: KVNamespace): Promise<SiteOptions | null> {
  return kv.get<SiteOptions>(KV_KEY, "json");
}

export async function cacheOptions(kv: KVNamespace, record: SiteOptions): Promise<void> {
  await kv.put(KV_KEY, JSON.stringify(record), { expirationTtl: KV_TTL_SECONDS });
}

export function selectOptionRows(db: Db) {
  return db.select({ name: options.name, value: options.value }).from(options);
}

export function upsertOptionStatements(db: Db, values: Record<string, unknown>): BatchStatement[] {
  return Object.entries(values).map(([name, value]) =>
    db
      .insert(options)
      .values({ name, value: JSON.stringify(value) })
      .onConflictDoUpdate({ target: options.name, set: { value: sql`excluded.value` } }),
  );
}

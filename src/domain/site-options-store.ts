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

/**
 * The cached record and the values of `more` KV keys, in one KV read (a request reads its settings and, with a token,
 * that token's last write: http/middleware/d1-session.ts).
 */
export async function readCachedOptions(
  kv: KVNamespace,
  more: (string | null)[] = [],
): Promise<[SiteOptions | null, ...(string | null)[]]> {
  const keys = more.filter((key): key is string => key !== null);
  if (keys.length === 0) return [await kv.get<SiteOptions>(KV_KEY, "json")];
  const values = await kv.get([KV_KEY, ...keys], "text");
  const record = values.get(KV_KEY);
  return [record ? (JSON.parse(record) as SiteOptions) : null, ...more.map((key) => (key && values.get(key)) ?? null)];
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

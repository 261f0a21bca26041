/**
 * Settings storage: rows in D1 (`options`), read by requests through KV (written through on PATCH), so a
 * request costs no D1 round trip for them unless KV has lost the record; and each isolate holds the record it read
 * for `OPTIONS_CACHE_SECONDS`, so that most requests cost no KV read either (docs/performance.md#settings).
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

/** How long an isolate serves the record it holds without asking KV: `OPTIONS_CACHE_SECONDS`, 0 (off) by default. */
export const holdSecondsOf = (env: { OPTIONS_CACHE_SECONDS?: string }): number =>
  Math.max(0, Math.floor(Number(env.OPTIONS_CACHE_SECONDS) || 0));

/**
 * The record this isolate read or wrote last, per KV namespace, and until when (ms) it serves it. Another isolate's
 * PATCH reaches this one when it expires: the settings may be that many seconds old, as edge-cached pages are.
 */
const held = new WeakMap<KVNamespace, { record: SiteOptions; until: number }>();

function hold(kv: KVNamespace, record: SiteOptions | null, seconds: number): void {
  if (record && seconds > 0) held.set(kv, { record, until: Date.now() + seconds * 1000 });
}

function heldRecord(kv: KVNamespace): SiteOptions | null {
  const entry = held.get(kv);
  return entry && entry.until > Date.now() ? entry.record : null;
}

/**
 * The settings (held by the isolate, else from KV) and the value of the KV key `also` when one is named, in at most
 * one KV read (a request may also read its token's last write: http/middleware/d1-session.ts). Only a record read
 * from KV starts a hold: one already held keeps its expiry, or another isolate's change would never show here.
 */
export async function readCachedOptions(
  kv: KVNamespace,
  holdSeconds: number,
  also: string | null = null,
): Promise<[SiteOptions | null, string | null]> {
  const known = holdSeconds > 0 ? heldRecord(kv) : null;
  if (known && also === null) return [known, null];
  if (also === null) {
    const record = await kv.get<SiteOptions>(KV_KEY, "json");
    hold(kv, record, holdSeconds);
    return [record, null];
  }
  const values = await kv.get(known ? [also] : [KV_KEY, also], "text");
  if (known) return [known, values.get(also) ?? null];
  const stored = values.get(KV_KEY);
  const record = stored ? (JSON.parse(stored) as SiteOptions) : null;
  hold(kv, record, holdSeconds);
  return [record, values.get(also) ?? null];
}

/** Writes the record through to KV, and holds it in this isolate. */
export async function cacheOptions(kv: KVNamespace, record: SiteOptions, holdSeconds: number): Promise<void> {
  hold(kv, record, holdSeconds);
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

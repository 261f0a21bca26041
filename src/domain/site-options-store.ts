/**
 * Settings storage: rows in D1 (`options`), read by requests through KV (written through on PATCH), so a
 * request costs no D1 round trip for them unless KV has lost the record; and each isolate holds the record it read
 * for `OPTIONS_CACHE_SECONDS`, so that most requests cost no KV read either
 * (docs/performance.md#settings-held-in-the-isolate).
 */
import { sql } from "drizzle-orm";
import type { Bindings } from "../core/env";
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

/** What the store reads of the environment: the KV namespace and how long an isolate holds what it read. */
export type OptionsStore = Pick<Bindings, "KV" | "OPTIONS_CACHE_SECONDS">;

/** How long an isolate serves the record it holds without asking KV: `OPTIONS_CACHE_SECONDS`, 0 (off) by default. */
const holdSecondsOf = (env: OptionsStore): number => Math.max(0, Math.floor(Number(env.OPTIONS_CACHE_SECONDS) || 0));

/**
 * The record this isolate read or wrote last, per KV namespace, and until when (ms) it serves it. Another isolate's
 * PATCH reaches this one when it expires: the settings may be that many seconds old, as edge-cached pages are.
 */
const held = new WeakMap<KVNamespace, { record: SiteOptions; until: number }>();

function hold(env: OptionsStore, record: SiteOptions | null): void {
  const seconds = holdSecondsOf(env);
  if (record && seconds > 0) held.set(env.KV, { record, until: Date.now() + seconds * 1000 });
}

function heldRecord(env: OptionsStore): SiteOptions | null {
  if (holdSecondsOf(env) === 0) return null;
  const entry = held.get(env.KV);
  return entry && entry.until > Date.now() ? entry.record : null;
}

/**
 * The settings, held by the isolate, else from KV (null when KV has lost them). Only a record read from KV starts a
 * hold: one already held keeps its expiry, or another isolate's change would never show here.
 */
export async function readCachedOptions(env: OptionsStore): Promise<SiteOptions | null> {
  const known = heldRecord(env);
  if (known) return known;
  const record = await env.KV.get<SiteOptions>(KV_KEY, "json");
  hold(env, record);
  return record;
}

/** Writes the record through to KV, and holds it in this isolate. */
export async function cacheOptions(env: OptionsStore, record: SiteOptions): Promise<void> {
  hold(env, record);
  await env.KV.put(KV_KEY, JSON.stringify(record), { expirationTtl: KV_TTL_SECONDS });
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

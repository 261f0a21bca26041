/**
 * The site settings every request needs (docs/performance.md#settings-held-in-the-isolate): held by the isolate, else
 * read from KV, else, when KV has lost them, loaded by a lead of the request's first batch and written back to KV.
 * A route that reads them before its first batch awaits `settled(c)` first (http/middleware/context.ts).
 */
import type { MiddlewareHandler } from "hono";
import { precede } from "../../db/client";
import { optionsFromRows } from "../../domain/site-options";
import { cacheOptions, readCachedOptions, selectOptionRows } from "../../domain/site-options-store";
import type { AppEnv } from "../app-env";

export const siteSettings: MiddlewareHandler<AppEnv> = async (c, next) => {
  const known = c.get("attempt").known;
  const cached = known?.options ?? (await readCachedOptions(c.env));
  c.set("options", cached);
  if (!cached) {
    const db = c.get("db");
    precede(db, {
      entry: selectOptionRows(db),
      settle: (rows: { name: string; value: string }[]) => {
        const record = optionsFromRows(rows);
        c.set("options", record);
        c.executionCtx.waitUntil(cacheOptions(c.env, record));
      },
    });
  }
  await next();
};

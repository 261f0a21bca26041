/**
 * Site settings (spec operation 1): read by everyone (public fields), changed by administrators. Under
 * `MDCLUB_COMPAT` they are read and written under MDClub's original names and values
 * (docs/options.md#mdclub-compatibility), so that MDClub's admin panel can save any of its pages unchanged.
 */
import { createRoute } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { isAdmin } from "../../core/caller";
import { mdclubCompat } from "../../core/env";
import { writeThenRead } from "../../db/client";
import { sentName, toNeutralNames, toOriginalNames } from "../../domain/mdclub-option-names";
import { optionFields, optionNames, optionsFromRows, visibleOptions } from "../../domain/site-options";
import { cacheOptions, selectOptionRows, upsertOptionStatements } from "../../domain/site-options-store";
import type { AppEnv } from "../../http/app-env";
import { ok } from "../../http/envelope";
import { adminRequired, settled, siteOptions } from "../../http/middleware/context";
import { adminAccess, jsonBody, okResponse, z } from "../../http/openapi";
import { createRouter } from "../../http/router";
import { zodToApiError } from "../../lib/validation";

/** A field of the record; the document marks the non-public ones as restricted, as the User record does. */
function optionProperty(name: string) {
  const field = optionFields[name];
  const schema = (field?.schema ?? z.never()).optional();
  return field?.public ? schema : schema.openapi({ description: "restricted: administrators only" });
}

const OptionsSchema = z
  .object(Object.fromEntries(optionNames.map((name) => [name, optionProperty(name)])))
  .openapi("Options", {
    description: "The site settings record; administrators see every field, others the 32 public ones.",
  });

/** The record as the deployment's clients name it: MDClub's names under MDCLUB_COMPAT, the spec's otherwise. */
function named(c: Context<AppEnv>, record: Record<string, unknown>): Record<string, unknown> {
  return mdclubCompat(c.env) ? toOriginalNames(record) : record;
}

/**
 * Under MDCLUB_COMPAT a `null` field is left as it is: MDClub's admin sends each number input through
 * `parseInt`, so an empty or hidden port arrives as `null` (JSON's NaN), and its page must save unchanged.
 */
const nullsUnchanged: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!mdclubCompat(c.env)) return next();
  // Read from the raw request (normaliseBody made it JSON text), so that the validator parses the new one.
  const text = await c.req.raw.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // Bad JSON is the validator's to refuse (100006).
  }
  const fields = typeof body === "object" && body !== null && !Array.isArray(body) ? Object.entries(body) : null;
  const kept = fields ? JSON.stringify(Object.fromEntries(fields.filter(([, v]) => v !== null))) : text;
  c.req.raw = new Request(c.req.raw.url, { method: c.req.method, headers: c.req.raw.headers, body: kept });
  await next();
};

const router = createRouter();

router.openapi(
  createRoute({
    method: "get",
    path: "/options",
    operationId: "getOptions",
    tags: ["options"],
    summary: "Read the site settings",
    responses: okResponse(OptionsSchema),
  }),
  async (c) => {
    // Nothing to read but what the request's first round trip resolves, if anything.
    await settled(c);
    return ok(c, named(c, visibleOptions(siteOptions(c), isAdmin(c.get("caller")))));
  },
);

router.openapi(
  createRoute({
    method: "patch",
    path: "/options",
    operationId: "updateOptions",
    tags: ["options"],
    summary: "Change site settings (administrators)",
    description:
      "Any fields of the record; unknown fields are ignored. " +
      "The original MDClub names (`cache_redis_*`, `storage_qiniu_*`, " +
      "`redis`, `qiniu`, `bing` ...) are accepted as aliases. Returns the full record.",
    ...adminAccess,
    middleware: [adminRequired, nullsUnchanged],
    request: { body: jsonBody(z.preprocess(toNeutralNames, OptionsSchema)) },
    responses: okResponse(OptionsSchema),
  }),
  async (c) => {
    const changes = Object.fromEntries(Object.entries(c.req.valid("json")).filter(([, v]) => v !== undefined));
    const db = c.get("db");
    const record = optionsFromRows(await writeThenRead(db, upsertOptionStatements(db, changes), selectOptionRows(db)));
    // Write-through: every later request reads the settings from KV.
    await cacheOptions(c.env, record);
    return ok(c, named(c, record));
  },
  (result, c) => (result.success ? undefined : rejectInSentNames(result.error, c)),
);

/** A 200001 naming each field as the client sent it (a legacy alias stays the alias). */
async function rejectInSentNames(error: z.ZodError, c: Context): Promise<never> {
  // The validator has cached the parsed body: this is the body before legacy names were mapped.
  const sent: unknown = await c.req.json();
  throw zodToApiError(error, "body", (field) => sentName(field, sent));
}

export default router;

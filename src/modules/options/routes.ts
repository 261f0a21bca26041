/** Site settings (spec operation 1): read by everyone (public fields), changed by administrators. */
import { createRoute } from "@hono/zod-openapi";
import { createRouter } from "../../app-router";
import { runBatch } from "../../db/client";
import { adminRequired, isAdmin } from "../../middleware/context";
import { ok } from "../../lib/envelope";
import { authSecurity, jsonBody, okResponse, z } from "../../lib/openapi";
import { optionFields, optionNames, optionsFromRows } from "./fields";
import { cacheOptions, selectOptionRows, upsertOptionStatements } from "./store";
import { visibleOptions } from "./fields";

const OptionsSchema = z
  .object(Object.fromEntries(optionNames.map((name) => [name, (optionFields[name]?.schema ?? z.never()).optional()])))
  .openapi("Options", { description: "The site settings record; administrators see every field, others the 32 public ones." });

const router = createRouter();

router.openapi(
  createRoute({
    method: "get",
    path: "/options",
    tags: ["options"],
    summary: "Read the site settings",
    responses: okResponse(OptionsSchema),
  }),
  (c) => ok(c, visibleOptions(c.get("options"), isAdmin(c.get("caller")))),
);

router.openapi(
  createRoute({
    method: "patch",
    path: "/options",
    tags: ["options"],
    summary: "Change site settings (administrators)",
    description: "Any fields of the record; unknown fields are ignored. Returns the full record.",
    security: authSecurity,
    middleware: [adminRequired],
    request: { body: jsonBody(OptionsSchema) },
    responses: okResponse(OptionsSchema),
  }),
  async (c) => {
    const changes = Object.fromEntries(Object.entries(c.req.valid("json")).filter(([, v]) => v !== undefined));
    const db = c.get("db");
    const results = await runBatch(db, [...upsertOptionStatements(db, changes), selectOptionRows(db)]);
    const record = optionsFromRows(results.at(-1) as { name: string; value: string }[]);
    // Write-through: every later request reads the settings from KV.
    await cacheOptions(c.env.KV, record);
    return ok(c, record);
  },
);

export default router;

/**
 * Bodies validated after the checks the reference makes first: the item exists, then the caller may act on it
 * (docs/operations.md#comments-and-replies, docs/permissions.md#author-edit-and-delete-rules). Such a route runs no
 * body validator: it documents its body by a reference to the registered schema, reads the JSON in the handler
 * (malformed JSON is 100006, as the reference's body parser refuses it before any route runs), and the service
 * validates it with that same schema once its checks have passed, so a missing item or a refusal comes before a field
 * error (200001).
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { z } from "zod";
import { ApiError } from "../core/errors";
import { zodToApiError } from "../lib/validation";
import type { AppEnv } from "./app-env";

/** The route's `request.body`: the schema registered under `name` and referenced, not validated. */
export function laterCheckedBody(router: OpenAPIHono<AppEnv>, name: string, schema: z.ZodType) {
  router.openAPIRegistry.register(name, schema);
  return { content: { "application/json": { schema: { $ref: `#/components/schemas/${name}` } } }, required: true };
}

/** The JSON body (a missing one is `{}`, http/middleware/body.ts); malformed JSON is 100006. */
export async function readBody(c: Context): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw new ApiError("JSON_MALFORMED");
  }
}

/** A 200001 per failing top-level field: `topic_ids`, not `topic_ids.3`. */
export function parseBody<T extends z.ZodType>(schema: T, raw: unknown): z.output<T> {
  const result = schema.safeParse(raw);
  if (!result.success) throw zodToApiError(result.error, "body", (field) => field.split(".")[0] ?? field);
  return result.data;
}

/**
 * Bodies checked after what the reference checks first: a question's or answer's existence, then the author's
 * permission (behaviour.md 3.2, 4.1). Such a route documents its body by a reference to the registered schema,
 * so no validator runs ahead of the handler, and the service validates with that same schema at its point.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { z } from "zod";
import type { AppEnv } from "../../env";
import { ApiError } from "../../lib/errors";
import { zodToApiError } from "../../lib/validation";

export function laterCheckedBody(router: OpenAPIHono<AppEnv>, name: string, schema: z.ZodType) {
  router.openAPIRegistry.register(name, schema);
  return { content: { "application/json": { schema: { $ref: `#/components/schemas/${name}` } } }, required: true };
}

/** The JSON body (a missing one is `{}`, middleware/body.ts); malformed JSON is 100006. */
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

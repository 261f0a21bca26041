/**
 * Shared pieces of route declarations, so the OpenAPI document and the request validation come from the same
 * zod schemas (`@hono/zod-openapi`).
 */
import { z } from "@hono/zod-openapi";

export { z };

/** A path id: a positive integer; anything else is a 200001 naming the parameter. */
export const pathId = <N extends string>(name: N) => {
  // Digits only: `1e3`, `0x10`, `+5` or ` 5` are not ids, although Number() would read them.
  const id = z
    .string()
    .regex(/^[1-9]\d{0,14}$/, "must be a positive integer")
    .transform(Number)
    .openapi({ param: { name, in: "path" }, type: "integer", example: 1 });
  // A computed key widens to an index signature; the cast keeps `valid("param")[name]` typed as a number.
  return z.object({ [name]: id } as Record<N, typeof id>);
};

/** A path holding one id or up to 100 comma-separated ids. */
export const pathIds = (name: string) =>
  z.object({
    [name]: z.string().openapi({ param: { name, in: "path" }, description: "one id, or up to 100 ids separated by commas", example: "1,2,3" }),
  });

export const includeQuery = (allowed: readonly string[]) =>
  z.string().optional().openapi({ description: `comma-separated: ${allowed.join(", ") || "none"}; unknown names are ignored` });

export const pageQuery = {
  page: z.string().optional().openapi({ type: "integer", description: "default 1" }),
  per_page: z.string().optional().openapi({ type: "integer", description: "default 15, at most 100" }),
};

export const orderQuery = (fields: readonly string[], fallback: string) =>
  z.string().optional().openapi({ description: `one of ${fields.join(", ")}, with a leading - for descending; default ${fallback}` });

export const PaginationSchema = z
  .object({
    page: z.number().int(),
    per_page: z.number().int(),
    previous: z.number().int().nullable(),
    next: z.number().int().nullable(),
    total: z.number().int(),
    pages: z.number().int(),
  })
  .openapi("Pagination");

export const ErrorSchema = z
  .object({
    code: z.number().int().openapi({ example: 200001 }),
    message: z.string(),
    errors: z.record(z.string(), z.string()).optional().openapi({ description: "field -> message, for 200001" }),
  })
  .openapi("Error");

export const envelope = <T extends z.ZodType>(data: T) => z.object({ code: z.literal(0), data });
export const pageEnvelope = <T extends z.ZodType>(item: T) =>
  z.object({ code: z.literal(0), data: z.array(item), pagination: PaginationSchema });

export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  content: { "application/json": { schema } },
  required: true,
});

const errorResponse = { description: "error: see `code` (README, error table)", content: { "application/json": { schema: ErrorSchema } } };

export const okResponse = <T extends z.ZodType>(schema: T, description = "success") => ({
  200: { description, content: { "application/json": { schema: envelope(schema) } } },
  default: errorResponse,
});

export const pageResponse = <T extends z.ZodType>(item: T, description = "a page of results") => ({
  200: { description, content: { "application/json": { schema: pageEnvelope(item) } } },
  default: errorResponse,
});

export const nullResponse = okResponse(z.null());

export const authSecurity: Record<string, string[]>[] = [{ token: [] }, { bearer: [] }];

/**
 * Shared pieces of route declarations, so the OpenAPI document and the request validation come from the same
 * zod schemas (`@hono/zod-openapi`).
 */
import { z } from "@hono/zod-openapi";
import type { OrderRule } from "../lib/order";
import { codePointLength } from "../lib/text-length";

export { z };

// Digits only: `1e3`, `0x10`, `+5` or ` 5` are not ids, although Number() would read them.
const positiveInt = () =>
  z
    .string()
    .regex(/^[1-9]\d{0,14}$/, "must be a positive integer")
    .transform(Number);

/** A path id: a positive integer; anything else is a 200001 naming the parameter. */
export const pathId = <N extends string>(name: N) => {
  const id = positiveInt().openapi({ param: { name, in: "path" }, type: "integer", example: 1 });
  // A computed key widens to an index signature; the cast keeps `valid("param")[name]` typed as a number.
  return z.object({ [name]: id } as Record<N, typeof id>);
};

/** `following_topics` -> `FollowingTopics`: the words of an operationId (`listUserFollowingTopics`). */
export const pascal = (name: string) => name.replace(/(?:^|_)([a-z])/g, (_, letter: string) => letter.toUpperCase());

/**
 * A route under one row of an entity, `/{resource}/{param}/{segment}`: its path, path parameter, tag, and the id
 * read back from the validated parameters (capability routes are written once for any kind, so the key is not
 * known to the type checker), and the entity's name in operationIds (`Question` in `voteQuestion`).
 */
export function underEntity(entity: { resource: string; param: string }, segment: string) {
  return {
    path: `/${entity.resource}/{${entity.param}}/${segment}`,
    params: pathId(entity.param),
    tags: [entity.resource],
    noun: pascal(entity.param.replace(/_id$/, "")),
    idOf: (valid: Record<string, number | undefined>) => valid[entity.param] as number,
  };
}

/** A path holding one id or up to 100 comma-separated ids. */
export const pathIds = (name: string) =>
  z.object({
    [name]: z.string().openapi({
      param: { name, in: "path" },
      description: "one id, or up to 100 ids separated by commas",
      example: "1,2,3",
    }),
  });

export const includeQuery = (allowed: readonly string[]) =>
  z
    .string()
    .optional()
    .openapi({ description: `comma-separated: ${allowed.join(", ") || "none"}; unknown names are ignored` });

export const pageQuery = {
  page: z.string().optional().openapi({ type: "integer", description: "default 1" }),
  per_page: z.string().optional().openapi({ type: "integer", description: "default 15, at most 100" }),
};

/** `order`: the rule's fields (administrators' ones marked as theirs) and its default (lib/order.ts). */
export const orderQuery = (rule: OrderRule<string>) => {
  const fields = [...rule.fields, ...(rule.adminFields ?? []).map((field) => `${field} (administrators)`)];
  return z
    .string()
    .optional()
    .openapi({ description: `one of ${fields.join(", ")}, with a leading - for descending; default ${rule.default}` });
};

/** A query filter on an id: digits only, like path ids, else 200001 naming the parameter. */
export const idFilter = (description: string) => positiveInt().optional().openapi({ type: "integer", description });

/**
 * Text trimmed, then 1..max characters counted in code points (docs/operations.md#topics, docs/content.md#validation).
 */
export const trimmedText = (max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? "required" : "must be a string") })
    .trim()
    .refine((value) => value.length > 0, "must not be empty")
    .refine((value) => codePointLength(value) <= max, `at most ${max} characters`)
    .openapi({ minLength: 1, maxLength: max });

/** `{original, small, middle, large}` of an avatar or a cover (lib/image-urls.ts). */
export const ImageUrlsSchema = z
  .object({ original: z.string(), small: z.string(), middle: z.string(), large: z.string() })
  .openapi("ImageUrls");

/** A record's `relationships`: only there when the request's `include` names any. */
export const relationships = <T extends z.ZodRawShape>(shape: T) =>
  z.object(shape).optional().openapi({ description: "present when `include` asks for any" });

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

/**
 * Every operation's errors, one body for all (`{code, message, errors?}`): a refusal is a 4xx, a server failure a
 * 500 with code 100000. Under LEGACY_ERROR_STATUS=true the same bodies come with HTTP 200 (docs/errors.md#http-status).
 */
const errorResponses = {
  "4XX": {
    description: "refused: `code` names the reason (docs/errors.md#codes), `errors` the fields for 200001",
    content: { "application/json": { schema: ErrorSchema } },
  },
  default: {
    description: "server error: code 100000 with the request id in `message`",
    content: { "application/json": { schema: ErrorSchema } },
  },
};

export const okResponse = <T extends z.ZodType>(schema: T, description = "success") => ({
  200: { description, content: { "application/json": { schema: envelope(schema) } } },
  ...errorResponses,
});

export const pageResponse = <T extends z.ZodType>(item: T, description = "a page of results") => ({
  200: { description, content: { "application/json": { schema: pageEnvelope(item) } } },
  ...errorResponses,
});

/** `data: null`. OpenAPI 3.0 has no null type: `nullable` needs a `type` beside it, so an object that is null. */
export const nullResponse = okResponse(z.null().openapi({ type: "object", description: "always null" }));

export const authSecurity: Record<string, string[]>[] = [{ token: [] }, { bearer: [] }];

/**
 * Who may call an operation, as the document says it: `security` alone means any logged-in user; `x-access`
 * narrows it to administrators, or to the item's author (under the site's rules) and administrators. The route's
 * middleware enforces it; test/security-matrix.test.ts holds every operation to what its document says.
 */
export const adminAccess = { security: authSecurity, "x-access": "admin" };
export const authorAccess = { security: authSecurity, "x-access": "author" };

/**
 * The app's own OpenAPI document, read the way the suite-wide tests need it: every operation with its access
 * (`security` and `x-access`), the restricted fields its schemas declare, and sample requests from its schemas.
 */
import { applyD1Migrations, reset } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { get } from "./api";
import { pathValue, type World } from "./world";

// The document is arbitrary JSON, read by property access in the suite-wide tests.
// biome-ignore lint/suspicious/noExplicitAny: see above
export type Json = any;

export type Access = "public" | "login" | "admin" | "author";

export interface Operation {
  method: string;
  path: string;
  op: Json;
  access: Access;
  /** Path parameter names, in order. */
  pathParams: string[];
  /** Query parameter names. */
  queryParams: string[];
  /** Those the document marks required (a search's `q`). */
  requiredQuery: string[];
  /** The JSON request body's schema, if the operation takes one. */
  jsonBody?: Json;
  /** The names `include` accepts, from its description. */
  includes: string[];
}

export async function loadDocument(): Promise<Json> {
  const res = await get("/api/openapi.json");
  if (res.status !== 200) throw new Error(`GET /api/openapi.json answered ${res.status}`);
  return res.body;
}

/**
 * The document while a test file is being collected, so each operation can get its own test: storage is not
 * migrated yet outside a test, so this migrates, asks, and leaves storage empty again.
 */
export async function documentAtCollection(): Promise<Json> {
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
  const doc = await loadDocument();
  await reset();
  return doc;
}

export function operations(doc: Json): Operation[] {
  const list: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(item)) {
      const params: Json[] = op.parameters ?? [];
      const include = params.find((p) => p.in === "query" && p.name === "include");
      const described: string = include?.schema?.description ?? include?.description ?? "";
      const listed = /comma-separated: (.*); unknown/.exec(described)?.[1];
      list.push({
        method: method.toUpperCase(),
        path,
        op,
        access: op["x-access"] ?? (op.security ? "login" : "public"),
        pathParams: params.filter((p) => p.in === "path").map((p) => p.name),
        queryParams: params.filter((p) => p.in === "query").map((p) => p.name),
        requiredQuery: params.filter((p) => p.in === "query" && p.required).map((p) => p.name),
        jsonBody: op.requestBody?.content?.["application/json"]?.schema,
        includes: listed && listed !== "none" ? listed.split(", ") : [],
      });
    }
  }
  return list;
}

export const resolve = (doc: Json, schema: Json): Json =>
  schema?.$ref ? resolve(doc, doc.components.schemas[schema.$ref.replace("#/components/schemas/", "")]) : schema;

/**
 * Fields the document marks restricted (`restricted: ...` descriptions): those for the user themself and
 * administrators (on user records), those for the user themself only (their private-message fields), and those for
 * administrators only (on any record).
 */
export function restrictedFields(doc: Json): {
  ownerOrAdmin: Set<string>;
  ownerOnly: Set<string>;
  adminOnly: Set<string>;
} {
  const ownerOrAdmin = new Set<string>();
  const ownerOnly = new Set<string>();
  const adminOnly = new Set<string>();
  for (const schema of Object.values(doc.components.schemas as Record<string, Json>)) {
    for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, Json>)) {
      const description: string = property.description ?? "";
      if (!description.startsWith("restricted:")) continue;
      if (description.includes("administrators only")) adminOnly.add(name);
      else if (description.includes("themself only")) ownerOnly.add(name);
      else ownerOrAdmin.add(name);
    }
  }
  return { ownerOrAdmin, ownerOnly, adminOnly };
}

/** The operation's path with every parameter filled from the world. */
export const fillPath = (operation: Operation, world: World, value = (name: string) => pathValue(world, name)) =>
  operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(value(name)));

/** A body of the schema's required fields with plausible values, enough to reach an operation's success path. */
export function sampleBody(doc: Json, schema: Json, world: World): Json {
  const s = resolve(doc, schema);
  if (!s) return {};
  if (s.enum) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === "object" || s.properties) {
    const required: string[] = s.required ?? [];
    return Object.fromEntries(required.map((name) => [name, sampleValue(doc, name, s.properties[name], world)]));
  }
  return sampleValue(doc, "", s, world);
}

function sampleValue(doc: Json, name: string, schema: Json, world: World): Json {
  const s = resolve(doc, schema);
  if (s.enum) return s.enum[0];
  if (s.anyOf || s.oneOf) return sampleValue(doc, name, (s.anyOf ?? s.oneOf)[0], world);
  switch (s.type) {
    case "string":
      return name.includes("email") ? "someone@example.test" : `sample ${name}`;
    case "integer":
    case "number":
      return name.startsWith("topic") ? world.topic : 1;
    case "boolean":
      return true;
    case "array":
      return [sampleValue(doc, name, s.items, world)];
    default:
      return sampleBody(doc, s, world);
  }
}

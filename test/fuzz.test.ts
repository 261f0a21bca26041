/**
 * Property-based requests for every operation of GET /api/openapi.json: path parameters, query parameters and
 * bodies generated from the document (right types, wrong types, nulls, huge and unicode strings, nested junk),
 * sent as an administrator, as anonymous and with made-up tokens. Whatever arrives, the answer is below 500 and
 * JSON with a numeric `code`. Seeded, so a run is repeatable; a failure prints the request that caused it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { call } from "./helpers/api";
import { documentAtCollection, fillPath, type Json, type Operation, operations, resolve } from "./helpers/openapi-doc";
import { buildWorld, pathValue, type World } from "./helpers/world";

const doc = await documentAtCollection();
const SEED = 20_261_123;
const RUNS = 10;

const HUGE = "9".repeat(40);
const junk: fc.Arbitrary<Json> = fc.oneof(
  fc.constant(null),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constant("x".repeat(200_001)),
  fc.constant("\u0000<script>alert(1)</script>\uD800"),
  fc.jsonValue({ maxDepth: 4 }),
);

/** Values of the schema's type (edges included) most of the time, anything else the rest. */
function fromSchema(schema: Json, depth = 0): fc.Arbitrary<Json> {
  const s = resolve(doc, schema) ?? {};
  if (depth > 4) return junk;
  let typed: fc.Arbitrary<Json>;
  if (s.enum) typed = fc.constantFrom(...(s.enum as Json[]));
  else if (s.anyOf || s.oneOf) {
    typed = fc.oneof(...((s.anyOf ?? s.oneOf) as Json[]).map((option) => fromSchema(option, depth + 1)));
  } else if (s.type === "string") {
    typed = fc.oneof(
      fc.string({ maxLength: (s.maxLength ?? 20) + 2 }),
      fc.string({ unit: "grapheme", maxLength: 30 }),
      fc.constantFrom("", " ", "a@b.c", "1", "1,2,3", "question:1", HUGE, "\u202e\u200b", "x".repeat(100_001)),
    );
  } else if (s.type === "integer" || s.type === "number") {
    typed = fc.oneof(fc.integer(), fc.constantFrom(0, -1, 1, 2 ** 31, 2 ** 53 + 1, 1e308, 0.5));
  } else if (s.type === "boolean") typed = fc.boolean();
  else if (s.type === "array") typed = fc.array(fromSchema(s.items, depth + 1), { maxLength: 120 });
  else if (s.type === "object" || s.properties) {
    const properties = (s.properties ?? {}) as Record<string, Json>;
    const shape = Object.fromEntries(Object.entries(properties).map(([name, p]) => [name, fromSchema(p, depth + 1)]));
    typed = fc.record(shape, { requiredKeys: [] });
  } else typed = junk;
  return fc.oneof({ weight: 4, arbitrary: typed }, { weight: 1, arbitrary: junk });
}

function pathArbitrary(operation: Operation, world: World): fc.Arbitrary<Record<string, string>> {
  const value = (name: string) =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constant(pathValue(world, name)) },
      fc.constantFrom("0", "-1", HUGE, "1e3", "0x10", " 1", "1,2,3", `${"1,".repeat(150)}1`),
      fc.constantFrom("question:", "user:1", "comment:0", "..", "a/b", "1;1"),
      fc.string({ unit: "binary", maxLength: 30 }),
    );
  return fc.record(Object.fromEntries(operation.pathParams.map((name) => [name, value(name)])));
}

function queryArbitrary(operation: Operation): fc.Arbitrary<Record<string, string>> {
  const value = fc.oneof(
    fc.constantFrom("", "1", "-1", "0", HUGE, "true", "false", "1,2,3", "-create_time", "a,b,c"),
    fc.string({ unit: "binary", maxLength: 30 }),
  );
  const documented = Object.fromEntries(operation.queryParams.map((name) => [name, value]));
  return fc.record({ ...documented, junk: value, "a[b]": value }, { requiredKeys: [] });
}

/** The body: from the JSON schema, a multipart form of the documented fields, or bytes that are not JSON. */
function bodyArbitrary(operation: Operation): fc.Arbitrary<{ body?: Json; rawBody?: string | FormData }> {
  if (operation.method === "GET") return fc.constant({});
  const multipart = resolve(doc, operation.op.requestBody?.content?.["multipart/form-data"]?.schema);
  const options: fc.Arbitrary<{ body?: Json; rawBody?: string | FormData }>[] = [
    fc.string({ unit: "binary", maxLength: 50 }).map((rawBody) => ({ rawBody })),
  ];
  if (operation.jsonBody) options.push(fromSchema(operation.jsonBody).map((body) => ({ body })));
  if (multipart?.properties) {
    const field = fc.oneof(fc.string({ maxLength: 40 }), fc.uint8Array({ maxLength: 300 }));
    const names = Object.keys(multipart.properties);
    const fields = fc.record(Object.fromEntries(names.map((name) => [name, field])), { requiredKeys: [] });
    options.push(
      fields.map((values) => {
        const form = new FormData();
        for (const [name, value] of Object.entries(values) as [string, string | Uint8Array<ArrayBuffer>][]) {
          form.set(name, typeof value === "string" ? value : new File([value], "f.png", { type: "image/png" }));
        }
        return { rawBody: form };
      }),
    );
  }
  if (!operation.jsonBody && !multipart) options.push(fc.constant({}));
  return fc.oneof(...options);
}

const cases = operations(doc).map((operation) => [`${operation.method} ${operation.path}`, operation] as const);

describe.each(cases)("%s", (_name, operation) => {
  it("answers generated requests below 500 with a JSON code, for any caller", async () => {
    const world = await buildWorld();
    const caller = fc.oneof(
      { weight: 2, arbitrary: fc.constant(world.admin.token) },
      { weight: 2, arbitrary: fc.constant(undefined) },
      fc.stringMatching(/^[\x21-\x7e]{0,80}$/),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        caller,
        pathArbitrary(operation, world),
        queryArbitrary(operation),
        bodyArbitrary(operation),
        async (token, params, query, body) => {
          run += 1;
          const path = fillPath(operation, world, (name) => params[name] ?? "");
          // A client of its own per run, so per-IP limits do not turn the later runs into 429s.
          const headers = { "CF-Connecting-IP": `10.0.${run >> 8}.${run & 255}` };
          const res = await call(operation.method, path, { token, query, headers, ...body });
          expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
          expect(typeof res.body?.code, String(res.body).slice(0, 200)).toBe("number");
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

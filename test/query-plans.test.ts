/**
 * Every read uses an index for each of its orders and filters (docs/data-model.md#indexes): each GET operation of
 * GET /api/openapi.json is called by an administrator with every include, once with each order it documents and
 * once with each of its filters, and SQLite's plan for every statement it sends must not read a whole table (a
 * `SCAN` without an index) of anything but the settings table. A new route or order is covered without editing
 * this file.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "./helpers/api";
import { type Recorded, recordingEnv } from "./helpers/faulty-db";
import { documentAtCollection, fillPath, type Json, type Operation, operations } from "./helpers/openapi-doc";
import { buildWorld, pathValue, type World } from "./helpers/world";

const doc = await documentAtCollection();
const reads = operations(doc).filter((operation) => operation.method === "GET");

/** Tables small by nature, read whole on purpose: the site settings. */
const SMALL_TABLES = new Set(["options"]);

const PAGING = new Set(["page", "per_page", "include", "order"]);

/** The orders a route documents (`one of a, b (administrators), …` or `` `a` or `-a` ``), both ways. */
function ordersOf(operation: Operation): string[] {
  const description: string = operation.op.parameters?.find((p: Json) => p.name === "order")?.description ?? "";
  const listed = /one of ([^;]*?), with a leading/.exec(description)?.[1];
  const names = listed
    ? listed.split(",").map((name) => name.replace(/\(.*\)/, "").trim())
    : [...description.matchAll(/`-?([a-z_]+)`/g)].map((match) => match[1] ?? "");
  return [...new Set(names.filter(Boolean))].flatMap((name) => [name, `-${name}`]);
}

/** A value for each filter that finds something in the world. */
function filterValues(parameter: Json, world: World): string[] {
  const schema = parameter.schema ?? {};
  if (Array.isArray(schema.enum)) return schema.enum.map(String);
  if (String(parameter.description ?? "").startsWith("`true`")) return ["true"];
  const byName: Record<string, string> = {
    username: world.user.username,
    email: world.user.email,
    item_id: String(world.question),
    commentable_id: String(world.question),
    key: pathValue(world, "key"),
  };
  if (byName[parameter.name] !== undefined) return [byName[parameter.name] as string];
  if (schema.type === "integer") return [pathValue(world, parameter.name)];
  return ["a"];
}

/** The tables of the schema (a plan also scans subqueries' results, which are not tables). */
const tables = async () =>
  new Set(
    (await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all<{ name: string }>()).results.map(
      (row) => row.name,
    ),
  );

/** The plan lines of a statement that read a whole table of content or users. */
async function fullScans({ sql, values }: Recorded, schema: Set<string>): Promise<string[]> {
  if (!/^\s*(select|with)\b/i.test(sql)) return [];
  const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...values)
    .all<{ detail: string }>();
  return plan.results
    .map((row) => row.detail)
    .filter((detail) => {
      const table = /^SCAN (\w+)(?: AS \w+)?$/.exec(detail)?.[1];
      return table !== undefined && schema.has(table) && !SMALL_TABLES.has(table);
    });
}

describe("every read's queries use an index", () => {
  it.each(reads.map((operation) => [`${operation.method} ${operation.path}`, operation] as const))(
    "%s",
    async (_name, operation) => {
      const world = await buildWorld();
      const include = operation.includes.join(",") || undefined;
      const variants: Record<string, string>[] = [
        {},
        ...ordersOf(operation).map((order) => ({ order })),
        ...(operation.op.parameters ?? [])
          .filter((p: Json) => p.in === "query" && !PAGING.has(p.name))
          .flatMap((p: Json) => filterValues(p, world).map((value) => ({ [p.name]: value }))),
      ];
      // Required parameters (a search's `q`) go with every variant, so that each one reaches D1.
      const required = Object.fromEntries(operation.requiredQuery.map((name) => [name, "a"]));
      const scans: string[] = [];
      const schema = await tables();
      for (const query of variants) {
        const log: Recorded[] = [];
        const res = await call("GET", fillPath(operation, world), {
          token: world.admin.token,
          query: { include, ...required, ...query },
          env: recordingEnv(log),
        });
        expect(res.status, JSON.stringify(query)).toBeLessThan(500);
        for (const statement of log) {
          for (const scan of await fullScans(statement, schema))
            scans.push(`${JSON.stringify(query)}: ${scan} in ${statement.sql}`);
        }
      }
      expect(scans).toEqual([]);
    },
  );
});

describe("the user search reads a range of the username index", () => {
  it.each([{}, { order: "-create_time" }, { order: "follower_count" }, { disabled: "true" }])(
    "GET /api/users?search= %j finds names by their beginning through users_username_lower_unique",
    async (query) => {
      const world = await buildWorld();
      const log: Recorded[] = [];
      const res = await call("GET", "/api/users", {
        token: world.admin.token,
        query: { search: world.user.username.slice(0, 3), ...query },
        env: recordingEnv(log),
      });
      expect(res.status).toBe(200);
      // The page and its total each read the name's range, whatever the order.
      const searches = log.filter(({ sql }) => sql.includes("char(1114111)"));
      expect(searches).toHaveLength(2);
      for (const { sql, values } of searches) {
        const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
          .bind(...values)
          .all<{ detail: string }>();
        const details = plan.results.map((row) => row.detail);
        expect(details).toContain("SEARCH users USING INDEX users_username_lower_unique (<expr>>? AND <expr><?)");
      }
    },
  );
});

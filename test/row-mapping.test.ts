/**
 * The row mapping of src/db/row-mapping.ts, the one module that reads Drizzle's internals: rows of selects read back
 * through a reader kept per SQL shape exactly as Drizzle maps them (nested fields, decoders, outer joins), checked
 * against Drizzle's own client for every kind of field the app selects, and the internal interface it reads checked
 * for what it relies on. A Drizzle upgrade that changes either fails here, by name, rather than in a route.
 */
import { env } from "cloudflare:workers";
import { count, eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { batch, createDb, D1Meter, type Db, Prebuilt } from "../src/db/client";
import { questions, tokens, users } from "../src/db/schema";
import { createQuestion } from "./helpers/content";
import { createUser } from "./helpers/factories";

const fresh = () => createDb(env.DB, new D1Meter());

/** Drizzle's own client on the same database: its mapping is the reference. */
const reference = () => drizzle(env.DB) as unknown as Db;

/** Every kind of field the app selects, each as a query on a client. */
const SHAPES: [string, (db: Db, id: number) => unknown][] = [
  ["a whole table", (db, id) => db.select().from(users).where(eq(users.user_id, id))],
  [
    "nested objects",
    (db, id) =>
      db
        .select({ a: { id: users.user_id }, b: { name: users.username } })
        .from(users)
        .where(eq(users.user_id, id)),
  ],
  [
    "an expression with a decoder",
    (db, id) =>
      db
        .select({
          n: sql`count(*)`.mapWith(Number),
          s: sql<string>`'x' || ${id}`,
          // A decoder that changes the value: skipped, the field would read 1.
          tagged: sql<string>`1`.mapWith((value) => `decoded-${value}`).as("tagged"),
        })
        .from(users),
  ],
  [
    "an aliased expression",
    (db, id) =>
      db
        .select({ id: sql<number>`${users.user_id}`.as("uid") })
        .from(users)
        .where(eq(users.user_id, id)),
  ],
  ["an aggregate helper", (db) => db.select({ total: count() }).from(questions)],
  [
    "an inner join of two tables",
    (db, id) =>
      db
        .select({ q: questions, u: { name: users.username } })
        .from(questions)
        .innerJoin(users, eq(users.user_id, questions.user_id))
        .where(eq(users.user_id, id)),
  ],
  [
    "a left join whose other side is missing",
    (db, id) =>
      db
        .select({ u: users.username, t: tokens.token })
        .from(users)
        .leftJoin(tokens, eq(tokens.user_id, -1))
        .where(eq(users.user_id, id)),
  ],
  [
    "a subquery field",
    (db, id) =>
      db
        .select({
          asked: sql<number>`(SELECT count(*) FROM ${questions} WHERE ${questions.user_id} = ${users.user_id})`.mapWith(
            Number,
          ),
        })
        .from(users)
        .where(eq(users.user_id, id)),
  ],
];

describe("rows mapped as Drizzle maps them", () => {
  it.each(SHAPES)("%s", async (_, shape) => {
    const user = await createUser();
    await createQuestion(user.user_id, { title: "Mapped" });
    const [mine] = await batch(fresh(), [shape(fresh(), user.user_id) as never]);
    const theirs = await (shape(reference(), user.user_id) as Promise<unknown>);
    expect((theirs as unknown[]).length).toBeGreaterThan(0);
    // Same values, same keys in the same order: the JSON a client receives is the same.
    expect(JSON.stringify(mine)).toBe(JSON.stringify(theirs));
  });
});

describe("the Drizzle internals the mapping reads", () => {
  it("a select prepares its SQL, fields with paths, how it executes, and its outer joins", () => {
    const db = fresh();
    const query = db
      .select({ a: { id: users.user_id } })
      .from(users)
      .leftJoin(tokens, eq(tokens.user_id, users.user_id));
    const prepared = (query as unknown as { _prepare?: () => Record<string, unknown> })._prepare?.();
    expect(prepared, "select builders have _prepare()").toBeDefined();
    expect(typeof (prepared?.getQuery as () => { sql: string })?.().sql).toBe("string");
    expect(typeof prepared?.mapResult).toBe("function");
    expect(prepared?.executeMethod).toBe("all");
    expect(prepared?.fields).toEqual([{ path: ["a", "id"], field: users.user_id }]);
    expect(prepared?.joinsNotNullableMap).toEqual({ users: true, tokens: false });
    expect(prepared?.stmt, "a prepared select carries its statement on the client").toBeDefined();
  });
});

describe("reading select rows in a batch", () => {
  it("answers nested fields, decoded values and an outer join's missing side as Drizzle does", async () => {
    const user = await createUser({ username: "reader-shape" });
    const db = fresh();
    const select = () =>
      db
        .select({ user: { id: users.user_id, name: users.username }, count: sql<number>`count(*)`.mapWith(Number) })
        .from(users)
        .where(eq(users.user_id, user.user_id));
    const orphan = db
      .select({ id: users.user_id, token: tokens.token })
      .from(users)
      .leftJoin(tokens, eq(tokens.user_id, -1))
      .where(eq(users.user_id, user.user_id));
    // Twice: the second read goes through the reader kept for the shape.
    const [first, second, joined] = await batch(db, [select(), select(), orphan]);
    const expected = [{ user: { id: user.user_id, name: "reader-shape" }, count: 1 }];
    expect(first).toEqual(expected);
    expect(second).toEqual(expected);
    expect(joined).toEqual([{ id: user.user_id, token: null }]);
  });

  it("keeps Drizzle's key order when a plain field comes before and after a nested one", async () => {
    const user = await createUser({ username: "reader-order" });
    const db = fresh();
    const rows = await batch(
      db,
      db
        .select({
          first: users.user_id,
          inner: { name: users.username, role: users.role },
          last: users.email,
        })
        .from(users)
        .where(eq(users.user_id, user.user_id)),
    );
    expect(JSON.stringify(rows)).toBe(
      JSON.stringify([{ first: user.user_id, inner: { name: "reader-order", role: "user" }, last: user.email }]),
    );
  });

  it("refuses a select whose columns share a name instead of shifting its values", async () => {
    const user = await createUser();
    const db = fresh();
    const clash = db
      .select({ owner: users.user_id, holder: tokens.user_id, expires: tokens.expire_time })
      .from(tokens)
      .innerJoin(users, eq(users.user_id, tokens.user_id))
      .where(eq(users.user_id, user.user_id));
    await expect(batch(db, clash)).rejects.toThrow(/3 fields got 2 columns: two share a name/);
  });

  it("refuses a column named like an integer, which JavaScript would move to the front of the row", async () => {
    await createUser();
    const db = fresh();
    const query = db.select({ s: sql<string>`'x'`, one: sql<number>`1` }).from(users);
    await expect(batch(db, query)).rejects.toThrow(/named like an integer, which reorders its row: alias it/);
  });

  it("runs a prebuilt select with each request's values", async () => {
    const [one, two] = [await createUser({ username: "prebuilt-one" }), await createUser({ username: "prebuilt-two" })];
    const byId = new Prebuilt((db) =>
      db
        .select({ name: users.username })
        .from(users)
        .where(eq(users.user_id, sql.placeholder("id"))),
    );
    const db = fresh();
    const found = await batch(db, [byId.statement({ id: one.user_id }), byId.statement({ id: two.user_id })]);
    expect(found).toEqual([[{ name: "prebuilt-one" }], [{ name: "prebuilt-two" }]]);
  });
});

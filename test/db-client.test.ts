/**
 * The batch client (src/db/client.ts): rows of selects read back through a reader kept per SQL shape, as Drizzle
 * would map them (nested fields, decoders, outer joins), and a select whose columns share a name refused, since D1
 * answers each row as an object and the two would be one key.
 */
import { env } from "cloudflare:workers";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { batch, createDb, D1Meter, Prebuilt } from "../src/db/client";
import { tokens, users } from "../src/db/schema";
import { createUser } from "./helpers/factories";

const fresh = () => createDb(env.DB, new D1Meter());

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

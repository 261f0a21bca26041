/**
 * Users (docs/operations.md#users): the caller's record, the user list and records, administrators' edits, disabling
 * and enabling; visibility of restricted fields (docs/decisions.md#users-see-their-own-restricted-fields) and the D1
 * round-trip budget.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { now } from "../src/lib/time";
import { get, patch, post } from "./helpers/api";
import { createAdmin, createUser, type TestUser } from "./helpers/factories";

const RESTRICTED = [
  "email",
  "create_ip",
  "create_location",
  "last_login_time",
  "last_login_ip",
  "last_login_location",
  "notification_unread",
  "update_time",
  "disable_time",
];
/** The private-message fields: the user themself only, not administrators (docs/messages.md#privacy). */
const OWN_ONLY = ["inbox_unread", "inbox_accept", "inbox_email"];
const PUBLIC = [
  "user_id",
  "username",
  "avatar",
  "cover",
  "follower_count",
  "followee_count",
  "following_article_count",
  "following_question_count",
  "following_topic_count",
  "article_count",
  "question_count",
  "answer_count",
  "headline",
  "bio",
  "blog",
  "company",
  "location",
  "create_time",
];
const ALL_INCLUDES = "is_me,is_following,is_followed";

function expectPublicOnly(user: Record<string, unknown>) {
  expect(Object.keys(user)).toEqual(expect.arrayContaining(PUBLIC));
  for (const field of [...RESTRICTED, ...OWN_ONLY, "password", "role"]) expect(user).not.toHaveProperty(field);
}

/** The user's own record: every field but the password and role. */
function expectOwnRecord(user: Record<string, unknown>) {
  expect(Object.keys(user)).toEqual(expect.arrayContaining([...PUBLIC, ...RESTRICTED, ...OWN_ONLY]));
  expect(user).not.toHaveProperty("password");
  expect(user).not.toHaveProperty("role");
}

/** Someone else's record as an administrator sees it: the restricted fields, not the private-message ones. */
function expectAdminView(user: Record<string, unknown>) {
  expect(Object.keys(user)).toEqual(expect.arrayContaining([...PUBLIC, ...RESTRICTED]));
  for (const field of [...OWN_ONLY, "password", "role"]) expect(user).not.toHaveProperty(field);
}

/** Disables a user in the database while their token stays stored, to show it stops working. */
async function disableInDb(user: TestUser): Promise<void> {
  await env.DB.prepare("UPDATE users SET disable_time = ? WHERE user_id = ?").bind(now(), user.user_id).run();
}

async function follow(follower: TestUser, followee: TestUser): Promise<void> {
  const res = await post(`/api/users/${followee.user_id}/followers`, { token: follower.token });
  expect(res.status).toBe(200);
}

async function tokenCount(userId: number): Promise<number> {
  const row = await env.DB.prepare("SELECT count(*) AS n FROM tokens WHERE user_id = ?")
    .bind(userId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** Users straight into D1 in one batch, for pages of 100. */
async function createManyUsers(count: number, prefix: string): Promise<number[]> {
  const time = now();
  const results = await env.DB.batch(
    Array.from({ length: count }, (_, i) =>
      env.DB.prepare(
        "INSERT INTO users (username, email, password, create_time, update_time) VALUES (?, ?, '', ?, ?) RETURNING user_id",
      ).bind(`${prefix}${i}`, `${prefix}${i}@example.test`, time, time),
    ),
  );
  return results.map((r) => (r.results[0] as { user_id: number }).user_id);
}

describe("GET /api/user", () => {
  it("refuses an anonymous caller with 201001", async () => {
    const res = await get("/api/user");
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(201001);
  });

  it("refuses a disabled user's token with 201001", async () => {
    const user = await createUser();
    await disableInDb(user);
    const res = await get("/api/user", { token: user.token });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(201001);
  });

  it("returns the caller's full record without password or role", async () => {
    const user = await createUser();
    const res = await get("/api/user", { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expectOwnRecord(res.body.data);
    expect(res.body.data).toMatchObject({
      user_id: user.user_id,
      username: user.username,
      email: user.email,
      disable_time: 0,
    });
    expect(res.body.data).not.toHaveProperty("relationships");
    expect(res.body.data.avatar).toEqual({
      original: expect.any(String),
      small: expect.any(String),
      middle: expect.any(String),
      large: expect.any(String),
    });
  });

  it("answers is_me true and is_following/is_followed false for oneself", async () => {
    const user = await createUser();
    const res = await get("/api/user", { token: user.token, query: { include: `${ALL_INCLUDES},unknown` } });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body.data.relationships).toEqual({ is_me: true, is_following: false, is_followed: false });
  });

  it("works with a bearer token and holds the read budget", async () => {
    const user = await createUser();
    const res = await get("/api/user", { bearer: user.token, query: { include: ALL_INCLUDES } });
    expect(res.status).toBe(200);
    expect(res.body.data.user_id).toBe(user.user_id);
    expect(res.roundTrips).toBeLessThanOrEqual(1);
  });
});

describe("PATCH /api/user", () => {
  it("refuses an anonymous caller with 201001 before looking at the body", async () => {
    const res = await patch("/api/user", { body: { headline: 5 } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(201001);
  });

  it("refuses a disabled user's token with 201001", async () => {
    const user = await createUser();
    await disableInDb(user);
    const res = await patch("/api/user", { token: user.token, body: { headline: "x" } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(201001);
  });

  it("changes only the fields sent, as sent, and moves update_time", async () => {
    const user = await createUser({ create_time: now() - 1000 });
    const first = await patch("/api/user", {
      token: user.token,
      body: { headline: "  Hello <b>&  ", bio: "about me", blog: "https://blog.example" },
    });
    expect(first.status).toBe(200);
    expect(first.body.code).toBe(0);
    expectOwnRecord(first.body.data);
    expect(first.body.data).toMatchObject({
      headline: "  Hello <b>&  ",
      bio: "about me",
      blog: "https://blog.example",
      company: "",
      location: "",
    });
    expect(first.body.data.update_time).toBeGreaterThan(first.body.data.create_time);

    const second = await patch("/api/user", {
      token: user.token,
      body: { bio: "", company: "ACME", location: "Mars", role: "admin", email: "x@y.z" },
    });
    expect(second.status).toBe(200);
    expect(second.body.data).toMatchObject({
      headline: "  Hello <b>&  ",
      bio: "",
      blog: "https://blog.example",
      company: "ACME",
      location: "Mars",
    });
    expect(second.body.data.email).toBe(user.email);
    const admin = await createAdmin();
    const check = await patch(`/api/users/${user.user_id}`, { token: admin.token, body: {} });
    expect(check.body.data).toMatchObject({ company: "ACME", email: user.email });
  });

  it("refuses malformed JSON with 100006, after the access check", async () => {
    const user = await createUser();
    const anonymous = await patch("/api/user", { rawBody: "{oops", headers: { "content-type": "application/json" } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe(201001);
    const res = await patch("/api/user", {
      token: user.token,
      rawBody: "{oops",
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(100006);
  });

  it("changes nothing for an empty body", async () => {
    const user = await createUser({ create_time: now() - 1000 });
    const res = await patch("/api/user", { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body.data.update_time).toBe(res.body.data.create_time);
  });

  it("accepts the maximum lengths, counted in characters", async () => {
    const user = await createUser();
    const body = {
      headline: "😀".repeat(40),
      bio: "b".repeat(160),
      blog: "l".repeat(255),
      company: "c".repeat(255),
      location: "é".repeat(255),
    };
    const res = await patch("/api/user", { token: user.token, body });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body.data).toMatchObject(body);
  });

  it.each([
    ["headline", 41],
    ["bio", 161],
    ["blog", 256],
    ["company", 256],
    ["location", 256],
  ])("refuses a %s longer than allowed with 200001", async (field, length) => {
    const user = await createUser();
    const res = await patch("/api/user", { token: user.token, body: { [field]: "x".repeat(length) } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(200001);
    expect(Object.keys(res.body.errors)).toEqual([field]);
  });

  it.each([
    ["headline", 5],
    ["bio", null],
    ["blog", true],
    ["company", ["a"]],
    ["location", { a: 1 }],
  ])("refuses a %s that is not a string with 200001 naming it", async (field, value) => {
    const user = await createUser();
    const res = await patch("/api/user", { token: user.token, body: { [field]: value } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(200001);
    expect(Object.keys(res.body.errors)).toEqual([field]);
    const after = await get("/api/user", { token: user.token });
    expect(after.body.data[field]).toBe("");
  });

  it("holds the write budget with every include", async () => {
    const user = await createUser();
    const res = await patch("/api/user", {
      token: user.token,
      body: { headline: "h" },
      query: { include: ALL_INCLUDES },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.relationships).toEqual({ is_me: true, is_following: false, is_followed: false });
    expect(res.roundTrips).toBeLessThanOrEqual(2);
  });
});

describe("GET /api/users", () => {
  it("lists enabled users, oldest first, with public fields only for an anonymous caller", async () => {
    const time = now();
    const newer = await createUser({ create_time: time - 10 });
    const older = await createUser({ create_time: time - 20 });
    await createUser({ disabled: true, create_time: time - 30 });
    const res = await get("/api/users");
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body.data.map((u: { user_id: number }) => u.user_id)).toEqual([older.user_id, newer.user_id]);
    for (const user of res.body.data) expectPublicOnly(user);
    expect(res.body.pagination).toEqual({ page: 1, per_page: 15, previous: null, next: null, total: 2, pages: 1 });
    expect(res.roundTrips).toBeLessThanOrEqual(1);
  });

  it("shows restricted fields to administrators for everyone, private-message fields only to their owner", async () => {
    const user = await createUser();
    const other = await createUser();
    const admin = await createAdmin();

    const asUser = await get("/api/users", { token: user.token });
    expect(asUser.status).toBe(200);
    for (const row of asUser.body.data) {
      if (row.user_id === user.user_id) expectOwnRecord(row);
      else expectPublicOnly(row);
    }
    expect(asUser.body.data.map((u: { user_id: number }) => u.user_id)).toEqual(
      expect.arrayContaining([other.user_id, admin.user_id]),
    );

    const asAdmin = await get("/api/users", { token: admin.token });
    expect(asAdmin.body.data).toHaveLength(3);
    for (const row of asAdmin.body.data) {
      if (row.user_id === admin.user_id) expectOwnRecord(row);
      else expectAdminView(row);
    }
  });

  it("treats a disabled user's token as anonymous", async () => {
    const user = await createUser();
    await disableInDb(user);
    const res = await get("/api/users", { token: user.token, query: { include: "is_me" } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });

  it("orders by create_time and follower_count in both directions; unknown orders fall back to create_time", async () => {
    const time = now();
    const a = await createUser({ create_time: time - 30 });
    const b = await createUser({ create_time: time - 20 });
    const c = await createUser({ create_time: time - 10 });
    await follow(a, b);
    await follow(c, b);
    await follow(b, c);
    const ids = async (order?: string) =>
      (await get("/api/users", { query: { order } })).body.data.map((u: { user_id: number }) => u.user_id);
    expect(await ids("create_time")).toEqual([a.user_id, b.user_id, c.user_id]);
    expect(await ids("-create_time")).toEqual([c.user_id, b.user_id, a.user_id]);
    expect(await ids("-follower_count")).toEqual([b.user_id, c.user_id, a.user_id]);
    expect(await ids("follower_count")).toEqual([a.user_id, c.user_id, b.user_id]);
    expect(await ids("password")).toEqual([a.user_id, b.user_id, c.user_id]);
    expect(await ids("-disable_time")).toEqual([a.user_id, b.user_id, c.user_id]);
  });

  it("lets administrators list only disabled users and order them by disable_time", async () => {
    const time = now();
    const admin = await createAdmin();
    const enabled = await createUser();
    const early = await createUser();
    const late = await createUser();
    await env.DB.batch([
      env.DB.prepare("UPDATE users SET disable_time = ? WHERE user_id = ?").bind(time - 100, early.user_id),
      env.DB.prepare("UPDATE users SET disable_time = ? WHERE user_id = ?").bind(time - 50, late.user_id),
    ]);
    const ids = (res: { body: { data: { user_id: number }[] } }) => res.body.data.map((u) => u.user_id);

    const disabled = await get("/api/users", {
      token: admin.token,
      query: { disabled: "true", order: "-disable_time" },
    });
    expect(disabled.status).toBe(200);
    expect(ids(disabled)).toEqual([late.user_id, early.user_id]);
    expect(disabled.body.data[0].disable_time).toBe(time - 50);
    expect(disabled.body.pagination.total).toBe(2);
    const ascending = await get("/api/users", {
      token: admin.token,
      query: { disabled: "true", order: "disable_time" },
    });
    expect(ids(ascending)).toEqual([early.user_id, late.user_id]);

    const adminDefault = await get("/api/users", { token: admin.token });
    expect(ids(adminDefault).sort()).toEqual([admin.user_id, enabled.user_id].sort());

    const asUser = await get("/api/users", { token: enabled.token, query: { disabled: "true" } });
    expect(ids(asUser).sort()).toEqual([admin.user_id, enabled.user_id].sort());
  });

  it("filters by user_id and by exact username, case-insensitively", async () => {
    const user = await createUser({ username: "MixedCase" });
    await createUser({ username: "MixedCaseToo" });
    await createUser({ disabled: true, username: "Hidden" });

    const byId = await get("/api/users", { query: { user_id: user.user_id } });
    expect(byId.status).toBe(200);
    expect(byId.body.data.map((u: { user_id: number }) => u.user_id)).toEqual([user.user_id]);
    expect(byId.body.pagination.total).toBe(1);

    const byName = await get("/api/users", { query: { username: "mixedcase" } });
    expect(byName.body.data.map((u: { user_id: number }) => u.user_id)).toEqual([user.user_id]);

    const hidden = await get("/api/users", { query: { username: "hidden" } });
    expect(hidden.body.data).toEqual([]);
    expect(hidden.body.pagination).toMatchObject({ total: 0, pages: 0, next: null, previous: null });

    const empty = await get("/api/users", { query: { username: "" } });
    expect(empty.body.pagination.total).toBe(2);
  });

  it("filters by e-mail for administrators only", async () => {
    const admin = await createAdmin();
    const target = await createUser({ email: "Target@Example.test" });
    const user = await createUser();

    const asAdmin = await get("/api/users", { token: admin.token, query: { email: "target@example.TEST" } });
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body.data.map((u: { user_id: number }) => u.user_id)).toEqual([target.user_id]);

    const asUser = await get("/api/users", { token: user.token, query: { email: "target@example.test" } });
    expect(asUser.status).toBe(200);
    expect(asUser.body.pagination.total).toBe(3);
  });

  it.each(["abc", "0", "-1", "1.5", "1e3"])("refuses user_id=%s with 200001 naming user_id", async (value) => {
    const res = await get("/api/users", { query: { user_id: value } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(200001);
    expect(Object.keys(res.body.errors)).toEqual(["user_id"]);
  });

  it("paginates: total, pages, previous and next; per_page is clamped", async () => {
    const before = (await get("/api/users")).body.pagination.total as number;
    const time = now();
    const created: number[] = [];
    for (let i = 0; i < 5; i++) created.push((await createUser({ create_time: time - 100 + i })).user_id);
    const total = before + 5;

    const first = await get("/api/users", { query: { per_page: 2 } });
    expect(first.body.pagination).toEqual({
      page: 1,
      per_page: 2,
      previous: null,
      next: 2,
      total,
      pages: Math.ceil(total / 2),
    });
    expect(first.body.data).toHaveLength(2);

    const pages = Math.ceil(total / 2);
    const last = await get("/api/users", { query: { per_page: 2, page: pages } });
    expect(last.body.pagination).toEqual({ page: pages, per_page: 2, previous: pages - 1, next: null, total, pages });

    const beyond = await get("/api/users", { query: { per_page: 2, page: pages + 5 } });
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.pagination).toMatchObject({ page: pages + 5, previous: pages + 4, next: null });

    const all: number[] = [];
    for (let page = 1; page <= pages; page++) {
      const res = await get("/api/users", { query: { per_page: 2, page } });
      all.push(...res.body.data.map((u: { user_id: number }) => u.user_id));
    }
    expect(new Set(all).size).toBe(total);
    expect(all.filter((id) => created.includes(id))).toEqual(created);

    expect((await get("/api/users", { query: { per_page: 1000 } })).body.pagination.per_page).toBe(100);
    expect((await get("/api/users", { query: { per_page: 0 } })).body.pagination.per_page).toBe(1);
    expect((await get("/api/users", { query: { per_page: "x", page: "-3" } })).body.pagination).toMatchObject({
      page: 1,
      per_page: 1,
    });
  });

  it("answers every include with exact values for a caller, and none for an anonymous one", async () => {
    const me = await createUser();
    const followed = await createUser();
    const follower = await createUser();
    const mutual = await createUser();
    const stranger = await createUser();
    await follow(me, followed);
    await follow(follower, me);
    await follow(me, mutual);
    await follow(mutual, me);

    const res = await get("/api/users", { token: me.token, query: { include: ALL_INCLUDES } });
    expect(res.status).toBe(200);
    const rel = Object.fromEntries(
      res.body.data.map((u: { user_id: number; relationships: unknown }) => [u.user_id, u.relationships]),
    );
    expect(rel[me.user_id]).toEqual({ is_me: true, is_following: false, is_followed: false });
    expect(rel[followed.user_id]).toEqual({ is_me: false, is_following: true, is_followed: false });
    expect(rel[follower.user_id]).toEqual({ is_me: false, is_following: false, is_followed: true });
    expect(rel[mutual.user_id]).toEqual({ is_me: false, is_following: true, is_followed: true });
    expect(rel[stranger.user_id]).toEqual({ is_me: false, is_following: false, is_followed: false });

    const anonymous = await get("/api/users", { query: { include: ALL_INCLUDES } });
    for (const user of anonymous.body.data)
      expect(user.relationships).toEqual({ is_me: false, is_following: false, is_followed: false });

    const some = await get("/api/users", { token: me.token, query: { include: "is_following" } });
    for (const user of some.body.data) expect(Object.keys(user.relationships)).toEqual(["is_following"]);
  });

  it("holds the read budget for a page of 100 with every include", async () => {
    const me = await createUser();
    const ids = await createManyUsers(120, "bulk");
    await env.DB.batch(
      ids
        .slice(0, 60)
        .flatMap((id) => [
          env.DB.prepare("INSERT INTO follows (user_id, followable_id, followable_type) VALUES (?, ?, 'user')").bind(
            me.user_id,
            id,
          ),
          env.DB.prepare("INSERT INTO follows (user_id, followable_id, followable_type) VALUES (?, ?, 'user')").bind(
            id,
            me.user_id,
          ),
        ]),
    );
    const res = await get("/api/users", {
      token: me.token,
      query: { per_page: 100, include: ALL_INCLUDES, order: "-create_time" },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(100);
    expect(res.body.pagination.total).toBe(121);
    const following = res.body.data.filter(
      (u: { relationships: { is_following: boolean } }) => u.relationships.is_following,
    );
    expect(following.length).toBeGreaterThan(0);
    expect(res.roundTrips).toBeLessThanOrEqual(1);
  });
});

describe("GET /api/users/{user_id}", () => {
  it("returns public fields to an anonymous caller", async () => {
    const user = await createUser();
    const res = await get(`/api/users/${user.user_id}`);
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expectPublicOnly(res.body.data);
    expect(res.body.data).toMatchObject({ user_id: user.user_id, username: user.username });
    expect(res.roundTrips).toBeLessThanOrEqual(1);
  });

  it("hides restricted fields from other users and shows them to the user and to administrators", async () => {
    const user = await createUser();
    const other = await createUser();
    const admin = await createAdmin();
    expectPublicOnly((await get(`/api/users/${user.user_id}`, { token: other.token })).body.data);
    expectOwnRecord((await get(`/api/users/${user.user_id}`, { token: user.token })).body.data);
    const asAdmin = await get(`/api/users/${user.user_id}`, { token: admin.token });
    expectAdminView(asAdmin.body.data);
    expect(asAdmin.body.data.email).toBe(user.email);
  });

  it("returns disabled users, with their disable_time for administrators", async () => {
    const admin = await createAdmin();
    const user = await createUser({ disabled: true });
    const anonymous = await get(`/api/users/${user.user_id}`);
    expect(anonymous.status).toBe(200);
    expectPublicOnly(anonymous.body.data);
    const asAdmin = await get(`/api/users/${user.user_id}`, { token: admin.token });
    expect(asAdmin.body.data.disable_time).toBeGreaterThan(0);
  });

  it("answers 201003 for a missing user", async () => {
    const res = await get("/api/users/987654");
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(201003);
  });

  it.each(["abc", "0", "-5", "1.5", "99999999999999999999"])(
    "refuses the id %s with 200001 naming user_id",
    async (id) => {
      const res = await get(`/api/users/${id}`);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(200001);
      expect(Object.keys(res.body.errors)).toEqual(["user_id"]);
    },
  );

  it("answers the includes with exact values, within the read budget", async () => {
    const me = await createUser();
    const other = await createUser();
    await follow(other, me);
    const res = await get(`/api/users/${other.user_id}`, { token: me.token, query: { include: ALL_INCLUDES } });
    expect(res.status).toBe(200);
    expect(res.body.data.relationships).toEqual({ is_me: false, is_following: false, is_followed: true });
    expect(res.roundTrips).toBeLessThanOrEqual(1);
    const anonymous = await get(`/api/users/${other.user_id}`, { query: { include: ALL_INCLUDES } });
    expect(anonymous.body.data.relationships).toEqual({ is_me: false, is_following: false, is_followed: false });
    const self = await get(`/api/users/${me.user_id}`, { token: me.token, query: { include: ALL_INCLUDES } });
    expect(self.body.data.relationships).toEqual({ is_me: true, is_following: false, is_followed: false });
  });
});

describe("PATCH /api/users/{user_id}", () => {
  it("refuses an anonymous caller with 201001", async () => {
    const user = await createUser();
    const res = await patch(`/api/users/${user.user_id}`, { body: { headline: "x" } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(201001);
  });

  it("refuses a normal user with 201002, even on their own record and with a bad body", async () => {
    const user = await createUser();
    const res = await patch(`/api/users/${user.user_id}`, { token: user.token, body: { headline: 5 } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(201002);
  });

  it("refuses a disabled administrator's token with 201001", async () => {
    const admin = await createAdmin();
    const user = await createUser();
    await disableInDb(admin);
    const res = await patch(`/api/users/${user.user_id}`, { token: admin.token, body: { headline: "x" } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(201001);
  });

  it("lets an administrator edit a profile and returns the full record", async () => {
    const admin = await createAdmin();
    const user = await createUser({ create_time: now() - 1000 });
    const res = await patch(`/api/users/${user.user_id}`, {
      token: admin.token,
      body: { headline: "Edited", location: "", unknown: 1 },
      query: { include: ALL_INCLUDES },
    });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expectAdminView(res.body.data);
    expect(res.body.data).toMatchObject({ user_id: user.user_id, headline: "Edited", location: "", bio: "" });
    expect(res.body.data.update_time).toBeGreaterThan(res.body.data.create_time);
    expect(res.body.data.relationships).toEqual({ is_me: false, is_following: false, is_followed: false });
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    const seen = await get(`/api/users/${user.user_id}`);
    expect(seen.body.data.headline).toBe("Edited");
  });

  it("answers 201003 for a missing user and 200001 for a bad id or field", async () => {
    const admin = await createAdmin();
    const missing = await patch("/api/users/987654", { token: admin.token, body: { headline: "x" } });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe(201003);
    const badId = await patch("/api/users/abc", { token: admin.token, body: { headline: "x" } });
    expect(badId.status).toBe(400);
    expect(Object.keys(badId.body.errors)).toEqual(["user_id"]);
    const user = await createUser();
    const badField = await patch(`/api/users/${user.user_id}`, { token: admin.token, body: { bio: "x".repeat(161) } });
    expect(badField.status).toBe(400);
    expect(badField.body.code).toBe(200001);
    expect(Object.keys(badField.body.errors)).toEqual(["bio"]);
  });
});

describe("POST /api/users/{user_ids}/disable", () => {
  it("refuses an anonymous caller with 201001 and a normal user with 201002", async () => {
    const user = await createUser();
    const anonymous = await post(`/api/users/${user.user_id}/disable`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe(201001);
    const normal = await post(`/api/users/${user.user_id}/disable`, { token: user.token });
    expect(normal.status).toBe(403);
    expect(normal.body.code).toBe(201002);
    expect((await get("/api/user", { token: user.token })).status).toBe(200);
  });

  it("disables one user, returns the User and logs them out everywhere", async () => {
    const admin = await createAdmin();
    const user = await createUser();
    const time = now();
    const res = await post(`/api/users/${user.user_id}/disable`, { token: admin.token, query: { include: "is_me" } });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body).not.toHaveProperty("pagination");
    expectAdminView(res.body.data);
    expect(res.body.data.user_id).toBe(user.user_id);
    expect(res.body.data.disable_time).toBeGreaterThanOrEqual(time);
    expect(res.body.data.relationships).toEqual({ is_me: false });
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    expect(await tokenCount(user.user_id)).toBe(0);

    const after = await get("/api/user", { token: user.token });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe(201001);
    const listed = await get("/api/users", { query: { user_id: user.user_id } });
    expect(listed.body.data).toEqual([]);
  });

  it("disables several users, skipping unknown ids, and answers an array without pagination", async () => {
    const admin = await createAdmin();
    const first = await createUser();
    const second = await createUser();
    const bystander = await createUser();
    const res = await post(`/api/users/${second.user_id},987654,${first.user_id}/disable`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body).not.toHaveProperty("pagination");
    expect(res.body.data.map((u: { user_id: number }) => u.user_id)).toEqual([second.user_id, first.user_id]);
    for (const user of res.body.data) expect(user.disable_time).toBeGreaterThan(0);
    expect(await tokenCount(first.user_id)).toBe(0);
    expect(await tokenCount(second.user_id)).toBe(0);
    expect(await tokenCount(bystander.user_id)).toBe(1);
    expect((await get("/api/user", { token: bystander.token })).status).toBe(200);
  });

  it("answers 201003 for one missing id and an empty array for a list of missing ids", async () => {
    const admin = await createAdmin();
    const single = await post("/api/users/987654/disable", { token: admin.token });
    expect(single.status).toBe(404);
    expect(single.body.code).toBe(201003);
    const batch = await post("/api/users/987654,987655/disable", { token: admin.token });
    expect(batch.status).toBe(200);
    expect(batch.body.data).toEqual([]);
  });

  it("refuses an administrator disabling themself with 200001 naming user_id", async () => {
    const admin = await createAdmin();
    const user = await createUser();
    for (const ids of [`${admin.user_id}`, `${user.user_id},${admin.user_id}`]) {
      const res = await post(`/api/users/${ids}/disable`, { token: admin.token });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(200001);
      expect(Object.keys(res.body.errors)).toEqual(["user_id"]);
    }
    expect((await get(`/api/users/${user.user_id}`, { token: admin.token })).body.data.disable_time).toBe(0);
    expect((await get("/api/user", { token: admin.token })).status).toBe(200);
  });

  it("lets an administrator disable another administrator", async () => {
    const admin = await createAdmin();
    const other = await createAdmin();
    const res = await post(`/api/users/${other.user_id}/disable`, { token: admin.token });
    expect(res.status).toBe(200);
    expect((await get("/api/user", { token: other.token })).status).toBe(401);
  });

  it("keeps the first disable_time when a disabled user is disabled again", async () => {
    const admin = await createAdmin();
    const user = await createUser();
    await env.DB.prepare("UPDATE users SET disable_time = 1000 WHERE user_id = ?").bind(user.user_id).run();
    const res = await post(`/api/users/${user.user_id}/disable`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.data.disable_time).toBe(1000);
  });

  it.each([
    ["more than 100 ids", Array.from({ length: 101 }, (_, i) => i + 1).join(",")],
    ["a part that is not an id", "1,abc"],
    ["an empty part", "1,,2"],
    ["a single non-id", "abc"],
  ])("refuses %s with 200001", async (_name, ids) => {
    const admin = await createAdmin();
    const res = await post(`/api/users/${ids}/disable`, { token: admin.token });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(200001);
    expect(Object.keys(res.body.errors)).toEqual(["user_ids"]);
  });

  it("accepts 100 ids and holds the write budget with every include", async () => {
    const admin = await createAdmin();
    const ids = await createManyUsers(100, "batch");
    await env.DB.prepare("INSERT INTO follows (user_id, followable_id, followable_type) VALUES (?, ?, 'user')")
      .bind(admin.user_id, ids[0])
      .run();
    const res = await post(`/api/users/${ids.join(",")}/disable`, {
      token: admin.token,
      query: { include: ALL_INCLUDES },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(100);
    expect(res.body.data[0].relationships).toEqual({ is_me: false, is_following: true, is_followed: false });
    expect(res.body.data[1].relationships).toEqual({ is_me: false, is_following: false, is_followed: false });
    expect(res.roundTrips).toBeLessThanOrEqual(2);
  });
});

describe("POST /api/users/{user_ids}/enable", () => {
  it("refuses an anonymous caller with 201001 and a normal user with 201002", async () => {
    const user = await createUser({ disabled: true });
    const other = await createUser();
    const anonymous = await post(`/api/users/${user.user_id}/enable`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe(201001);
    const normal = await post(`/api/users/${user.user_id}/enable`, { token: other.token });
    expect(normal.status).toBe(403);
    expect(normal.body.code).toBe(201002);
  });

  it("enables one user and returns the User", async () => {
    const admin = await createAdmin();
    const user = await createUser({ disabled: true });
    const res = await post(`/api/users/${user.user_id}/enable`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body.data).toMatchObject({ user_id: user.user_id, disable_time: 0 });
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    const listed = await get("/api/users", { query: { user_id: user.user_id } });
    expect(listed.body.data.map((u: { user_id: number }) => u.user_id)).toEqual([user.user_id]);
  });

  it("enables several users, skipping unknown ids; 201003 for one missing id", async () => {
    const admin = await createAdmin();
    const first = await createUser({ disabled: true });
    const second = await createUser({ disabled: true });
    const res = await post(`/api/users/${first.user_id},${second.user_id},987654/enable`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty("pagination");
    expect(res.body.data.map((u: { user_id: number; disable_time: number }) => [u.user_id, u.disable_time])).toEqual([
      [first.user_id, 0],
      [second.user_id, 0],
    ]);
    const missing = await post("/api/users/987654/enable", { token: admin.token });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe(201003);
    const tooMany = await post(`/api/users/${Array.from({ length: 101 }, (_, i) => i + 1).join(",")}/enable`, {
      token: admin.token,
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.code).toBe(200001);
  });
});

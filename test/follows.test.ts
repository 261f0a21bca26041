/**
 * Follows (docs/operations.md#follows, docs/operations.md#users, docs/counters.md,
 * docs/permissions.md#disabled-users-in-lists): following users over HTTP, the follower and followee lists, exact
 * counters, and the generic behaviour for the other followable types.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { follow, followTargets, unfollow } from "../src/behaviours/followable";
import type { ApiError } from "../src/core/errors";
import { createDb, D1Meter } from "../src/db/client";
import { now } from "../src/lib/time";
import { del, get, post } from "./helpers/api";
import { createAdmin, createUser, type TestUser, uniqueName } from "./helpers/factories";

const ALL_INCLUDES = "is_me,is_following,is_followed";

const followers = (user: { user_id: number }) => `/api/users/${user.user_id}/followers`;
const followees = (user: { user_id: number }) => `/api/users/${user.user_id}/followees`;
const idsOf = (res: { body: { data: { user_id: number }[] } }) => res.body.data.map((u) => u.user_id);

async function disableInDb(user: TestUser): Promise<void> {
  await env.DB.prepare("UPDATE users SET disable_time = ? WHERE user_id = ?").bind(now(), user.user_id).run();
}

/** A follow row with a chosen time, straight into D1 (counters untouched): for list order tests. */
async function followAt(follower: { user_id: number }, followee: { user_id: number }, time: number): Promise<void> {
  await env.DB.prepare(
    "INSERT INTO follows (user_id, followable_id, followable_type, create_time) VALUES (?, ?, 'user', ?)",
  )
    .bind(follower.user_id, followee.user_id, time)
    .run();
}

async function counters(user: { user_id: number }): Promise<{ follower_count: number; followee_count: number }> {
  const row = await env.DB.prepare("SELECT follower_count, followee_count FROM users WHERE user_id = ?")
    .bind(user.user_id)
    .first<{ follower_count: number; followee_count: number }>();
  return row!;
}

async function followRows(): Promise<number> {
  return (await env.DB.prepare("SELECT count(*) AS n FROM follows").first<number>("n")) ?? 0;
}

describe("POST /api/users/{user_id}/followers", () => {
  it("refuses an anonymous caller with 201001", async () => {
    const target = await createUser();
    const res = await post(followers(target));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(201001);
    expect(await followRows()).toBe(0);
  });

  it("refuses a disabled user's token with 201001", async () => {
    const user = await createUser();
    const target = await createUser();
    await disableInDb(user);
    const res = await post(followers(target), { token: user.token });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(201001);
    expect(await followRows()).toBe(0);
  });

  it("follows a user and counts it on both sides, within the write budget", async () => {
    const user = await createUser();
    const target = await createUser({ create_time: now() - 1000 });
    const res = await post(followers(target), { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body.data).toEqual({ follower_count: 1 });
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    expect(await counters(target)).toEqual({ follower_count: 1, followee_count: 0 });
    expect(await counters(user)).toEqual({ follower_count: 0, followee_count: 1 });

    const seen = await get(`/api/users/${target.user_id}`, {
      token: user.token,
      query: { include: "is_following,is_followed" },
    });
    expect(seen.body.data.relationships).toEqual({ is_following: true, is_followed: false });
    // Follows do not change update_time (docs/decisions.md#content).
    const admin = await createAdmin();
    const record = await get(`/api/users/${target.user_id}`, { token: admin.token });
    expect(record.body.data.update_time).toBe(record.body.data.create_time);
  });

  it("changes nothing when following again, and answers the same", async () => {
    const user = await createUser();
    const other = await createUser();
    const target = await createUser();
    await post(followers(target), { token: other.token });
    await post(followers(target), { token: user.token });
    const again = await post(followers(target), { token: user.token });
    expect(again.status).toBe(200);
    expect(again.body.code).toBe(0);
    expect(again.body.data).toEqual({ follower_count: 2 });
    expect(await counters(target)).toEqual({ follower_count: 2, followee_count: 0 });
    expect(await counters(user)).toEqual({ follower_count: 0, followee_count: 1 });
    expect(await followRows()).toBe(2);
  });

  it("counts concurrent follows by the same user once", async () => {
    const user = await createUser();
    const target = await createUser();
    const results = await Promise.all([1, 2, 3].map(() => post(followers(target), { token: user.token })));
    for (const res of results) {
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ follower_count: 1 });
    }
    expect(await counters(target)).toEqual({ follower_count: 1, followee_count: 0 });
    expect(await counters(user)).toEqual({ follower_count: 0, followee_count: 1 });
  });

  it("refuses following oneself with 201009", async () => {
    const user = await createUser();
    const res = await post(followers(user), { token: user.token });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(201009);
    expect(await counters(user)).toEqual({ follower_count: 0, followee_count: 0 });
    expect(await followRows()).toBe(0);
  });

  it("answers 201003 for a missing user and 200001 for a bad id", async () => {
    const user = await createUser();
    const missing = await post("/api/users/987654/followers", { token: user.token });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe(201003);
    expect(await counters(user)).toEqual({ follower_count: 0, followee_count: 0 });
    expect(await followRows()).toBe(0);
    const bad = await post("/api/users/abc/followers", { token: user.token });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(200001);
    expect(Object.keys(bad.body.errors)).toEqual(["user_id"]);
  });

  it("lets a disabled user be followed: they still exist", async () => {
    const user = await createUser();
    const target = await createUser({ disabled: true });
    const res = await post(followers(target), { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ follower_count: 1 });
  });
});

describe("DELETE /api/users/{user_id}/followers", () => {
  it("refuses an anonymous caller with 201001", async () => {
    const target = await createUser();
    const res = await del(followers(target));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(201001);
  });

  it("unfollows and counts it on both sides, within the write budget", async () => {
    const user = await createUser();
    const other = await createUser();
    const target = await createUser();
    await post(followers(target), { token: user.token });
    await post(followers(target), { token: other.token });
    const res = await del(followers(target), { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body.data).toEqual({ follower_count: 1 });
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    expect(await counters(target)).toEqual({ follower_count: 1, followee_count: 0 });
    expect(await counters(user)).toEqual({ follower_count: 0, followee_count: 0 });
    expect(await counters(other)).toEqual({ follower_count: 0, followee_count: 1 });
  });

  it("changes nothing when unfollowing someone not followed, and never goes below 0", async () => {
    const user = await createUser();
    const other = await createUser();
    const target = await createUser();
    await post(followers(target), { token: other.token });
    for (let i = 0; i < 2; i++) {
      const res = await del(followers(target), { token: user.token });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ follower_count: 1 });
    }
    await del(followers(target), { token: other.token });
    const last = await del(followers(target), { token: other.token });
    expect(last.body.data).toEqual({ follower_count: 0 });
    expect(await counters(target)).toEqual({ follower_count: 0, followee_count: 0 });
    expect(await counters(other)).toEqual({ follower_count: 0, followee_count: 0 });
  });

  it("treats unfollowing oneself as a no-op answering one's own follower count", async () => {
    const user = await createUser();
    const fan = await createUser();
    await post(followers(user), { token: fan.token });
    const res = await del(followers(user), { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body.data).toEqual({ follower_count: 1 });
  });

  it("answers 201003 for a missing user and 200001 for a bad id", async () => {
    const user = await createUser();
    const missing = await del("/api/users/987654/followers", { token: user.token });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe(201003);
    const bad = await del("/api/users/0/followers", { token: user.token });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(["user_id"]);
  });
});

describe("GET /api/users/{user_id}/followers", () => {
  it("lists followers newest follow first, for anyone", async () => {
    const target = await createUser();
    const [early, middle, late] = [await createUser(), await createUser(), await createUser()];
    const time = now();
    await followAt(late, target, time - 10);
    await followAt(early, target, time - 30);
    await followAt(middle, target, time - 20);
    const res = await get(followers(target));
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(idsOf(res)).toEqual([late.user_id, middle.user_id, early.user_id]);
    expect(res.body.pagination).toEqual({ page: 1, per_page: 15, previous: null, next: null, total: 3, pages: 1 });
    for (const user of res.body.data) expect(user).not.toHaveProperty("email");
  });

  it("puts the later of two follows made in the same second first", async () => {
    const target = await createUser();
    const first = await createUser();
    const second = await createUser();
    await post(followers(target), { token: first.token });
    await post(followers(target), { token: second.token });
    const time = now();
    await env.DB.prepare("UPDATE follows SET create_time = ?").bind(time).run();
    expect(idsOf(await get(followers(target)))).toEqual([second.user_id, first.user_id]);
  });

  it("leaves disabled followers out of the page and the total", async () => {
    const target = await createUser();
    const active = await createUser();
    const disabled = await createUser();
    await post(followers(target), { token: active.token });
    await post(followers(target), { token: disabled.token });
    await disableInDb(disabled);
    const res = await get(followers(target));
    expect(idsOf(res)).toEqual([active.user_id]);
    expect(res.body.pagination.total).toBe(1);
  });

  it("answers 201003 for a missing user and 200001 for a bad id", async () => {
    const missing = await get("/api/users/987654/followers");
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe(201003);
    const bad = await get("/api/users/abc/followers");
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(200001);
    expect(Object.keys(bad.body.errors)).toEqual(["user_id"]);
  });

  it("paginates", async () => {
    const target = await createUser();
    const time = now();
    const fans: TestUser[] = [];
    for (let i = 0; i < 5; i++) {
      const fan = await createUser();
      await followAt(fan, target, time - 100 + i);
      fans.push(fan);
    }
    const second = await get(followers(target), { query: { per_page: 2, page: 2 } });
    expect(second.body.pagination).toEqual({ page: 2, per_page: 2, previous: 1, next: 3, total: 5, pages: 3 });
    expect(idsOf(second)).toEqual([fans[2]!.user_id, fans[1]!.user_id]);
    const last = await get(followers(target), { query: { per_page: 2, page: 3 } });
    expect(last.body.pagination).toMatchObject({ previous: 2, next: null });
    expect(idsOf(last)).toEqual([fans[0]!.user_id]);
  });

  it("answers the includes with the caller's relations to each follower", async () => {
    const me = await createUser();
    const target = await createUser();
    const friend = await createUser();
    const fan = await createUser();
    for (const user of [me, friend, fan]) await post(followers(target), { token: user.token });
    await post(followers(friend), { token: me.token });
    await post(followers(me), { token: fan.token });
    const res = await get(followers(target), { token: me.token, query: { include: ALL_INCLUDES } });
    const rel = Object.fromEntries(
      res.body.data.map((u: { user_id: number; relationships: unknown }) => [u.user_id, u.relationships]),
    );
    expect(rel).toEqual({
      [me.user_id]: { is_me: true, is_following: false, is_followed: false },
      [friend.user_id]: { is_me: false, is_following: true, is_followed: false },
      [fan.user_id]: { is_me: false, is_following: false, is_followed: true },
    });
    const anonymous = await get(followers(target), { query: { include: ALL_INCLUDES } });
    for (const user of anonymous.body.data)
      expect(user.relationships).toEqual({ is_me: false, is_following: false, is_followed: false });
  });

  it("holds the read budget for a page of 100 with every include", async () => {
    const me = await createUser();
    const target = await createUser();
    const time = now();
    const statements = [];
    for (let i = 0; i < 110; i++) {
      const fan = await env.DB.prepare(
        "INSERT INTO users (username, email, password) VALUES (?, ?, '') RETURNING user_id",
      )
        .bind(`fan${i}`, `fan${i}@example.test`)
        .first<{ user_id: number }>();
      statements.push(
        env.DB.prepare(
          "INSERT INTO follows (user_id, followable_id, followable_type, create_time) VALUES (?, ?, 'user', ?)",
        ).bind(fan!.user_id, target.user_id, time),
        env.DB.prepare(
          "INSERT INTO follows (user_id, followable_id, followable_type, create_time) VALUES (?, ?, 'user', ?)",
        ).bind(me.user_id, fan!.user_id, time),
      );
    }
    await env.DB.batch(statements);
    const res = await get(followers(target), { token: me.token, query: { per_page: 100, include: ALL_INCLUDES } });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(100);
    expect(res.body.pagination.total).toBe(110);
    for (const user of res.body.data)
      expect(user.relationships).toEqual({ is_me: false, is_following: true, is_followed: false });
    expect(res.roundTrips).toBeLessThanOrEqual(1);
  });
});

describe("GET /api/users/{user_id}/followees", () => {
  it("lists the users followed, newest first, disabled ones included", async () => {
    const user = await createUser();
    const [first, second, third] = [await createUser(), await createUser(), await createUser()];
    const time = now();
    await followAt(user, second, time - 10);
    await followAt(user, first, time - 30);
    await followAt(user, third, time - 20);
    await followAt(first, second, time);
    await disableInDb(third);
    const res = await get(followees(user));
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(idsOf(res)).toEqual([second.user_id, third.user_id, first.user_id]);
    expect(res.body.pagination).toMatchObject({ total: 3, pages: 1 });
  });

  it("answers 201003 for a missing user and 200001 for a bad id", async () => {
    const missing = await get("/api/users/987654/followees");
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe(201003);
    const bad = await get("/api/users/x1/followees");
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(["user_id"]);
  });

  it("answers the includes within the read budget", async () => {
    const me = await createUser();
    const other = await createUser();
    await post(followers(other), { token: me.token });
    await post(followers(me), { token: other.token });
    const res = await get(followees(me), { token: me.token, query: { include: ALL_INCLUDES, per_page: 100 } });
    expect(res.body.data.map((u: { relationships: unknown }) => u.relationships)).toEqual([
      { is_me: false, is_following: true, is_followed: true },
    ]);
    expect(res.roundTrips).toBeLessThanOrEqual(1);
  });
});

describe.each([
  ["/api/user/followers", "followers"],
  ["/api/user/followees", "followees"],
] as const)("GET %s", (path, kind) => {
  it("refuses an anonymous caller with 201001", async () => {
    const res = await get(path);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(201001);
  });

  it("refuses a disabled user's token with 201001", async () => {
    const user = await createUser();
    await disableInDb(user);
    const res = await get(path, { token: user.token });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(201001);
  });

  it(`lists the caller's ${kind}, newest first, within the read budget`, async () => {
    const me = await createUser();
    const [a, b] = [await createUser(), await createUser()];
    const stranger = await createUser();
    const time = now();
    for (const [other, at] of [
      [a, time - 20],
      [b, time - 10],
    ] as const) {
      if (kind === "followers") await followAt(other, me, at);
      else await followAt(me, other, at);
    }
    await followAt(stranger, a, time);
    const res = await get(path, { token: me.token, query: { include: ALL_INCLUDES, per_page: 100 } });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(idsOf(res)).toEqual([b.user_id, a.user_id]);
    expect(res.body.pagination).toMatchObject({ total: 2, per_page: 100 });
    expect(res.body.data[0].relationships).toEqual({
      is_me: false,
      is_following: kind === "followees",
      is_followed: kind === "followers",
    });
    expect(res.roundTrips).toBeLessThanOrEqual(1);
  });
});

/** The behaviour for the types the content routes will mount: each type's table, counters and not-found error. */
describe.each([
  [
    "question",
    "INSERT INTO questions (user_id, title) VALUES (?1, ?2) RETURNING question_id AS id",
    "following_question_count",
    202001,
  ],
  [
    "article",
    "INSERT INTO articles (user_id, title) VALUES (?1, ?2) RETURNING article_id AS id",
    "following_article_count",
    206001,
  ],
  ["topic", "INSERT INTO topics (name) VALUES (?2) RETURNING topic_id AS id", "following_topic_count", 205001],
] as const)("following a %s", (type, insert, counter, notFound) => {
  const target = followTargets[type];
  const table = `${type}s`;
  const db = () => createDb(env.DB, new D1Meter());
  const create = async (userId: number) =>
    (await env.DB.prepare(insert).bind(userId, uniqueName(type)).first<number>("id"))!;
  const userCounter = async (userId: number) =>
    env.DB.prepare(`SELECT ${counter} AS n FROM users WHERE user_id = ?`).bind(userId).first<number>("n");
  const itemCounter = async (id: number) =>
    env.DB.prepare(`SELECT follower_count AS n FROM ${table} WHERE ${type}_id = ?`).bind(id).first<number>("n");
  const codeOf = (promise: Promise<unknown>) =>
    promise.then(
      () => 0,
      (error: ApiError) => error.code,
    );

  it("counts a follow once on both sides and an unfollow back to 0, in one round trip each", async () => {
    const user = await createUser();
    const other = await createUser();
    const id = await create(user.user_id);
    const meter = new D1Meter();
    expect(await follow(createDb(env.DB, meter), target, user.user_id, id)).toBe(1);
    expect(meter.roundTrips).toBe(1);
    expect(await follow(db(), target, user.user_id, id)).toBe(1);
    expect(await follow(db(), target, other.user_id, id)).toBe(2);
    expect(await userCounter(user.user_id)).toBe(1);
    expect(await unfollow(db(), target, user.user_id, id)).toBe(1);
    expect(await unfollow(db(), target, user.user_id, id)).toBe(1);
    expect(await userCounter(user.user_id)).toBe(0);
    expect(await itemCounter(id)).toBe(1);
    expect(await userCounter(other.user_id)).toBe(1);
  });

  it(`refuses a missing or trashed ${type} with ${notFound}`, async () => {
    const user = await createUser();
    const id = await create(user.user_id);
    await env.DB.prepare(`UPDATE ${table} SET delete_time = ? WHERE ${type}_id = ?`).bind(now(), id).run();
    expect(await codeOf(follow(db(), target, user.user_id, id))).toBe(notFound);
    expect(await codeOf(follow(db(), target, user.user_id, id + 1000))).toBe(notFound);
    expect(await codeOf(unfollow(db(), target, user.user_id, id))).toBe(notFound);
    expect(await followRows()).toBe(0);
    expect(await userCounter(user.user_id)).toBe(0);
  });

  it("leaves trashed items out of the follower's counter", async () => {
    const user = await createUser();
    const [trashed, live, next] = [await create(user.user_id), await create(user.user_id), await create(user.user_id)];
    await follow(db(), target, user.user_id, trashed);
    await follow(db(), target, user.user_id, live);
    await env.DB.prepare(`UPDATE ${table} SET delete_time = ? WHERE ${type}_id = ?`).bind(now(), trashed).run();
    await follow(db(), target, user.user_id, next);
    expect(await userCounter(user.user_id)).toBe(2);
  });

  it("lets the author follow their own item", async () => {
    const user = await createUser();
    const id = await create(user.user_id);
    expect(await follow(db(), target, user.user_id, id)).toBe(1);
  });
});

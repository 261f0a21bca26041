/**
 * Votes (docs/operations.md#votes, docs/counters.md, docs/permissions.md#disabled-users-in-lists,
 * docs/permissions.md#existence-checks; docs/decisions.md#content), tested once for every votable target through HTTP:
 * access, each vote transition with exact counters, error codes and their order, the voters list, round-trip budgets
 * and concurrent votes.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { now } from "../src/lib/time";
import { type ApiResponse, del, get, post } from "./helpers/api";
import { createAnswer, createArticle, createComment, createQuestion } from "./helpers/content";
import { createUser, type TestUser } from "./helpers/factories";

interface Counts {
  vote_count: number;
  vote_up_count: number;
  vote_down_count: number;
}

interface Kind {
  type: "question" | "answer" | "article" | "comment";
  resource: string;
  idColumn: string;
  notFound: number;
  /** A live item by `authorId`, created `age` seconds ago (so update_time is in the past). */
  create(authorId: number, age: number): Promise<number>;
}

const kinds: Kind[] = [
  {
    type: "question",
    resource: "questions",
    idColumn: "question_id",
    notFound: 202001,
    create: (authorId, age) => createQuestion(authorId, { create_time: now() - age }),
  },
  {
    type: "answer",
    resource: "answers",
    idColumn: "answer_id",
    notFound: 203001,
    create: async (authorId, age) =>
      createAnswer(authorId, await createQuestion(authorId), { create_time: now() - age }),
  },
  {
    type: "article",
    resource: "articles",
    idColumn: "article_id",
    notFound: 206001,
    create: (authorId, age) => createArticle(authorId, { create_time: now() - age }),
  },
  {
    type: "comment",
    resource: "comments",
    idColumn: "comment_id",
    notFound: 204001,
    create: async (authorId, age) =>
      createComment(authorId, "article", await createArticle(authorId), { create_time: now() - age }),
  },
];

const ALL_INCLUDES = "is_me,is_following,is_followed";
const MISSING_ID = 987654;

const counts = (vote_count: number, vote_up_count: number, vote_down_count: number): Counts => ({
  vote_count,
  vote_up_count,
  vote_down_count,
});
const idsOf = (res: ApiResponse) => res.body.data.map((u: { user_id: number }) => u.user_id);

async function disableInDb(user: TestUser): Promise<void> {
  await env.DB.prepare("UPDATE users SET disable_time = ? WHERE user_id = ?").bind(now(), user.user_id).run();
}

async function follow(follower: TestUser, followee: TestUser): Promise<void> {
  await env.DB.prepare(
    "INSERT INTO follows (user_id, followable_id, followable_type, create_time) VALUES (?, ?, 'user', ?)",
  )
    .bind(follower.user_id, followee.user_id, now())
    .run();
}

async function voteRows(): Promise<number> {
  return (await env.DB.prepare("SELECT count(*) AS n FROM votes").first<number>("n")) ?? 0;
}

describe.each(kinds)("/api/$resource/{id}/voters", (kind) => {
  const table = kind.resource;
  const voters = (id: number) => `/api/${kind.resource}/${id}/voters`;
  const castVote = (id: number, user: TestUser, type: string) =>
    post(voters(id), { token: user.token, body: { type } });
  const withdraw = (id: number, user: TestUser) => del(voters(id), { token: user.token });

  async function newItem(age = 1000): Promise<number> {
    return kind.create((await createUser()).user_id, age);
  }

  async function stored(id: number): Promise<Counts> {
    const row = await env.DB.prepare(
      `SELECT vote_count, vote_up_count, vote_down_count FROM ${table} WHERE ${kind.idColumn} = ?`,
    )
      .bind(id)
      .first<Counts>();
    return row!;
  }

  /** The counters as the vote rows say they should be. */
  async function tallied(id: number): Promise<Counts> {
    const row = await env.DB.prepare(
      `SELECT count(*) FILTER (WHERE type = 'up') - count(*) FILTER (WHERE type = 'down') AS vote_count,
              count(*) FILTER (WHERE type = 'up') AS vote_up_count, count(*) FILTER (WHERE type = 'down') AS vote_down_count
       FROM votes WHERE votable_type = ? AND votable_id = ?`,
    )
      .bind(kind.type, id)
      .first<Counts>();
    return row!;
  }

  async function voteRow(id: number, user: TestUser) {
    return env.DB.prepare(
      "SELECT type, create_time FROM votes WHERE votable_type = ? AND votable_id = ? AND user_id = ?",
    )
      .bind(kind.type, id, user.user_id)
      .first<{ type: string; create_time: number }>();
  }

  async function dateVotes(id: number, time: number, user?: TestUser): Promise<void> {
    await env.DB.prepare(
      `UPDATE votes SET create_time = ? WHERE votable_type = ? AND votable_id = ? ${user ? "AND user_id = ?" : ""}`,
    )
      .bind(time, kind.type, id, ...(user ? [user.user_id] : []))
      .run();
  }

  async function updateTime(id: number): Promise<number | null> {
    return env.DB.prepare(`SELECT update_time FROM ${table} WHERE ${kind.idColumn} = ?`)
      .bind(id)
      .first<number>("update_time");
  }

  async function trash(id: number): Promise<void> {
    await env.DB.prepare(`UPDATE ${table} SET delete_time = ? WHERE ${kind.idColumn} = ?`).bind(now(), id).run();
  }

  /** The answer, the stored counters and the vote rows all agree on `expected`. */
  async function expectCounts(res: ApiResponse, id: number, expected: Counts): Promise<void> {
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body.data).toEqual(expected);
    expect(await stored(id)).toEqual(expected);
    expect(await tallied(id)).toEqual(expected);
  }

  describe(`POST /api/${kind.resource}/{${kind.idColumn}}/voters`, () => {
    it("refuses an anonymous caller with 201001, even with a bad type", async () => {
      const id = await newItem();
      for (const body of [{ type: "up" }, { type: "sideways" }]) {
        const res = await post(voters(id), { body });
        expect(res.status).toBe(401);
        expect(res.body.code).toBe(201001);
      }
      expect(await voteRows()).toBe(0);
    });

    it("refuses a disabled user's token with 201001", async () => {
      const id = await newItem();
      const user = await createUser();
      await disableInDb(user);
      const res = await castVote(id, user, "up");
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(201001);
      expect(await voteRows()).toBe(0);
    });

    it("counts an up vote, within the write budget", async () => {
      const id = await newItem();
      const user = await createUser();
      const res = await castVote(id, user, "up");
      await expectCounts(res, id, counts(1, 1, 0));
      expect(res.roundTrips).toBeLessThanOrEqual(2);
      expect(await voteRow(id, user)).toEqual({ type: "up", create_time: expect.any(Number) });
    });

    it("counts a down vote, taking vote_count below 0", async () => {
      const id = await newItem();
      const res = await castVote(id, await createUser(), "down");
      await expectCounts(res, id, counts(-1, 0, 1));
      expect(res.roundTrips).toBeLessThanOrEqual(2);
    });

    it("changes an up vote to down and back, re-dating the vote each time", async () => {
      const id = await newItem();
      const user = await createUser();
      await expectCounts(await castVote(id, user, "up"), id, counts(1, 1, 0));
      const past = now() - 500;
      await dateVotes(id, past);
      const before = now();

      const down = await castVote(id, user, "down");
      await expectCounts(down, id, counts(-1, 0, 1));
      expect(down.roundTrips).toBeLessThanOrEqual(2);
      expect((await voteRow(id, user))?.type).toBe("down");
      expect((await voteRow(id, user))?.create_time).toBeGreaterThanOrEqual(before);

      await dateVotes(id, past);
      await expectCounts(await castVote(id, user, "up"), id, counts(1, 1, 0));
      expect((await voteRow(id, user))?.create_time).toBeGreaterThanOrEqual(before);
      expect(await voteRows()).toBe(1);
    });

    it("changes nothing when the same vote is cast twice", async () => {
      const id = await newItem();
      const user = await createUser();
      await castVote(id, user, "down");
      const past = now() - 500;
      await dateVotes(id, past);
      const again = await castVote(id, user, "down");
      await expectCounts(again, id, counts(-1, 0, 1));
      expect(await voteRow(id, user)).toEqual({ type: "down", create_time: past });
      expect(await voteRows()).toBe(1);
    });

    it("keeps the counters exact after every step with several voters", async () => {
      const id = await newItem();
      const [a, b, c, d, e] = await Promise.all([createUser(), createUser(), createUser(), createUser(), createUser()]);
      const steps: [() => Promise<ApiResponse>, Counts][] = [
        [() => castVote(id, a!, "up"), counts(1, 1, 0)],
        [() => castVote(id, b!, "up"), counts(2, 2, 0)],
        [() => castVote(id, c!, "down"), counts(1, 2, 1)],
        [() => castVote(id, b!, "up"), counts(1, 2, 1)],
        [() => castVote(id, a!, "down"), counts(-1, 1, 2)],
        [() => castVote(id, d!, "down"), counts(-2, 1, 3)],
        [() => withdraw(id, b!), counts(-3, 0, 3)],
        [() => withdraw(id, b!), counts(-3, 0, 3)],
        [() => castVote(id, e!, "up"), counts(-2, 1, 3)],
        [() => castVote(id, c!, "up"), counts(0, 2, 2)],
        [() => withdraw(id, d!), counts(1, 2, 1)],
      ];
      for (const [step, expected] of steps) await expectCounts(await step(), id, expected);
    });

    it("lets the author vote on their own content", async () => {
      const author = await createUser();
      const id = await kind.create(author.user_id, 0);
      await expectCounts(await castVote(id, author, "up"), id, counts(1, 1, 0));
    });

    it("answers 200006 for a type other than up or down, checked before the target exists", async () => {
      const user = await createUser();
      const id = await newItem();
      const trashed = await newItem();
      await trash(trashed);
      for (const target of [id, trashed, MISSING_ID]) {
        for (const body of [{ type: "sideways" }, { type: "UP" }, { type: 1 }, { type: null }, {}, ["up"]]) {
          const res = await post(voters(target), { token: user.token, body });
          expect(res.status).toBe(400);
          expect(res.body.code).toBe(200006);
        }
        const empty = await post(voters(target), {
          token: user.token,
          headers: { "content-type": "application/json" },
        });
        expect(empty.body.code).toBe(200006);
      }
      expect(await voteRows()).toBe(0);
      expect(await stored(id)).toEqual(counts(0, 0, 0));
    });

    it(`answers ${kind.notFound} for a missing or trashed ${kind.type}`, async () => {
      const user = await createUser();
      const id = await newItem();
      await trash(id);
      for (const target of [id, MISSING_ID]) {
        const res = await castVote(target, user, "up");
        expect(res.status).toBe(404);
        expect(res.body.code).toBe(kind.notFound);
      }
      expect(await voteRows()).toBe(0);
      expect(await stored(id)).toEqual(counts(0, 0, 0));
    });

    it("leaves a vote on an item that was trashed since as it was", async () => {
      const user = await createUser();
      const id = await newItem();
      await castVote(id, user, "up");
      await trash(id);
      expect((await castVote(id, user, "down")).body.code).toBe(kind.notFound);
      expect(await voteRow(id, user)).toMatchObject({ type: "up" });
      expect(await stored(id)).toEqual(counts(1, 1, 0));
    });

    it("answers 200001 naming the id for a bad id", async () => {
      const user = await createUser();
      const res = await post(`/api/${kind.resource}/abc/voters`, { token: user.token, body: { type: "sideways" } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(200001);
      expect(Object.keys(res.body.errors)).toEqual([kind.idColumn]);
    });

    it("does not move the item's update_time", async () => {
      const id = await newItem(1000);
      const before = await updateTime(id);
      const [a, b] = [await createUser(), await createUser()];
      await castVote(id, a, "up");
      await castVote(id, b, "down");
      await castVote(id, a, "down");
      await withdraw(id, b);
      const after = await updateTime(id);
      expect(after).toBe(before);
      expect(after).toBeLessThan(now() - 900);
    });
  });

  describe(`DELETE /api/${kind.resource}/{${kind.idColumn}}/voters`, () => {
    it("refuses an anonymous caller with 201001", async () => {
      const id = await newItem();
      await castVote(id, await createUser(), "up");
      const res = await del(voters(id));
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(201001);
      expect(await voteRows()).toBe(1);
    });

    it("refuses a disabled user's token with 201001", async () => {
      const id = await newItem();
      const user = await createUser();
      await castVote(id, user, "up");
      await disableInDb(user);
      const res = await withdraw(id, user);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(201001);
      expect(await voteRows()).toBe(1);
    });

    it("withdraws an up or a down vote, within the write budget", async () => {
      const id = await newItem();
      const [up, down, other] = [await createUser(), await createUser(), await createUser()];
      await castVote(id, up, "up");
      await castVote(id, down, "down");
      await castVote(id, other, "down");
      const first = await withdraw(id, up);
      await expectCounts(first, id, counts(-2, 0, 2));
      expect(first.roundTrips).toBeLessThanOrEqual(2);
      await expectCounts(await withdraw(id, down), id, counts(-1, 0, 1));
      expect(await voteRow(id, up)).toBeNull();
    });

    it("changes nothing when the caller has not voted", async () => {
      const id = await newItem();
      const [voter, user] = [await createUser(), await createUser()];
      await castVote(id, voter, "up");
      for (let i = 0; i < 2; i++) await expectCounts(await withdraw(id, user), id, counts(1, 1, 0));
      await expectCounts(await withdraw(id, voter), id, counts(0, 0, 0));
      await expectCounts(await withdraw(id, voter), id, counts(0, 0, 0));
    });

    it(`answers ${kind.notFound} for a missing or trashed ${kind.type}, keeping the vote`, async () => {
      const user = await createUser();
      const id = await newItem();
      await castVote(id, user, "down");
      await trash(id);
      for (const target of [id, MISSING_ID]) {
        const res = await withdraw(target, user);
        expect(res.status).toBe(404);
        expect(res.body.code).toBe(kind.notFound);
      }
      expect(await voteRow(id, user)).toMatchObject({ type: "down" });
      expect(await stored(id)).toEqual(counts(-1, 0, 1));
    });
  });

  describe(`GET /api/${kind.resource}/{${kind.idColumn}}/voters`, () => {
    it("lists voters newest vote first for anyone, filtered by type", async () => {
      const id = await newItem();
      const [a, b, c, d] = [await createUser(), await createUser(), await createUser(), await createUser()];
      const time = now();
      for (const [user, type, age] of [
        [a, "up", 40],
        [b, "down", 10],
        [c, "up", 20],
        [d, "down", 30],
      ] as const) {
        await castVote(id, user, type);
        await dateVotes(id, time - age, user);
      }
      const all = await get(voters(id));
      expect(all.status).toBe(200);
      expect(all.body.code).toBe(0);
      expect(idsOf(all)).toEqual([b.user_id, c.user_id, d.user_id, a.user_id]);
      expect(all.body.pagination).toEqual({ page: 1, per_page: 15, previous: null, next: null, total: 4, pages: 1 });
      for (const user of all.body.data) {
        expect(user).not.toHaveProperty("email");
        expect(user).not.toHaveProperty("password");
        expect(user).not.toHaveProperty("relationships");
      }
      const up = await get(voters(id), { query: { type: "up" } });
      expect(idsOf(up)).toEqual([c.user_id, a.user_id]);
      expect(up.body.pagination.total).toBe(2);
      const down = await get(voters(id), { query: { type: "down" } });
      expect(idsOf(down)).toEqual([b.user_id, d.user_id]);
      // The reference applies the filter only to up and down.
      expect(idsOf(await get(voters(id), { query: { type: "sideways" } }))).toEqual(idsOf(all));
    });

    it("lists only this item's voters", async () => {
      const id = await newItem();
      const other = await newItem();
      const [a, b] = [await createUser(), await createUser()];
      await castVote(id, a, "up");
      await castVote(other, b, "up");
      expect(idsOf(await get(voters(id)))).toEqual([a.user_id]);
    });

    it("puts a vote changed within the same second before the votes cast earlier", async () => {
      const id = await newItem();
      const [first, second] = [await createUser(), await createUser()];
      await castVote(id, first, "up");
      await castVote(id, second, "up");
      await castVote(id, first, "down");
      await dateVotes(id, now());
      expect(idsOf(await get(voters(id)))).toEqual([first.user_id, second.user_id]);
    });

    it("leaves disabled voters out of the page and the total, but counts their votes", async () => {
      const id = await newItem();
      const [active, disabled] = [await createUser(), await createUser()];
      await castVote(id, active, "up");
      await castVote(id, disabled, "up");
      await disableInDb(disabled);
      const res = await get(voters(id));
      expect(idsOf(res)).toEqual([active.user_id]);
      expect(res.body.pagination.total).toBe(1);
      expect(await stored(id)).toEqual(counts(2, 2, 0));
    });

    it("answers the includes with the caller's relations to each voter", async () => {
      const id = await newItem();
      const [me, friend, fan, stranger] = [
        await createUser(),
        await createUser(),
        await createUser(),
        await createUser(),
      ];
      for (const user of [me, friend, fan, stranger]) await castVote(id, user, "up");
      await follow(me, friend);
      await follow(fan, me);
      const res = await get(voters(id), { token: me.token, query: { include: `${ALL_INCLUDES},unknown` } });
      const rel = Object.fromEntries(
        res.body.data.map((u: { user_id: number; relationships: unknown }) => [u.user_id, u.relationships]),
      );
      expect(rel).toEqual({
        [me.user_id]: { is_me: true, is_following: false, is_followed: false },
        [friend.user_id]: { is_me: false, is_following: true, is_followed: false },
        [fan.user_id]: { is_me: false, is_following: false, is_followed: true },
        [stranger.user_id]: { is_me: false, is_following: false, is_followed: false },
      });
      const one = await get(voters(id), { token: me.token, query: { include: "is_me" } });
      for (const user of one.body.data) expect(user.relationships).toEqual({ is_me: user.user_id === me.user_id });
      const anonymous = await get(voters(id), { query: { include: ALL_INCLUDES } });
      for (const user of anonymous.body.data)
        expect(user.relationships).toEqual({ is_me: false, is_following: false, is_followed: false });
    });

    it("paginates", async () => {
      const id = await newItem();
      const time = now();
      const fans: TestUser[] = [];
      for (let i = 0; i < 5; i++) {
        const fan = await createUser();
        await castVote(id, fan, i % 2 ? "down" : "up");
        await dateVotes(id, time - 100 + i, fan);
        fans.push(fan);
      }
      const second = await get(voters(id), { query: { per_page: 2, page: 2 } });
      expect(second.body.pagination).toEqual({ page: 2, per_page: 2, previous: 1, next: 3, total: 5, pages: 3 });
      expect(idsOf(second)).toEqual([fans[2]!.user_id, fans[1]!.user_id]);
      const last = await get(voters(id), { query: { per_page: 2, page: 3 } });
      expect(last.body.pagination).toMatchObject({ previous: 2, next: null });
      expect(idsOf(last)).toEqual([fans[0]!.user_id]);
      const beyond = await get(voters(id), { query: { per_page: 2, page: 9 } });
      expect(beyond.body.data).toEqual([]);
    });

    it("holds the read budget for a page of 100 with every include", async () => {
      const me = await createUser();
      const id = await newItem();
      const time = now();
      const statements = [];
      for (let i = 0; i < 110; i++) {
        const voter = await env.DB.prepare(
          "INSERT INTO users (username, email, password) VALUES (?, ?, '') RETURNING user_id",
        )
          .bind(`voter${i}`, `voter${i}@example.test`)
          .first<{ user_id: number }>();
        statements.push(
          env.DB.prepare(
            "INSERT INTO votes (user_id, votable_id, votable_type, type, create_time) VALUES (?, ?, ?, ?, ?)",
          ).bind(voter!.user_id, id, kind.type, i % 3 ? "up" : "down", time),
          env.DB.prepare(
            "INSERT INTO follows (user_id, followable_id, followable_type, create_time) VALUES (?, ?, 'user', ?)",
          ).bind(me.user_id, voter!.user_id, time),
        );
      }
      await env.DB.batch(statements);
      const res = await get(voters(id), { token: me.token, query: { per_page: 100, include: ALL_INCLUDES } });
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(100);
      expect(res.body.pagination.total).toBe(110);
      for (const user of res.body.data)
        expect(user.relationships).toEqual({ is_me: false, is_following: true, is_followed: false });
      expect(res.roundTrips).toBeLessThanOrEqual(1);
      const filtered = await get(voters(id), {
        token: me.token,
        query: { per_page: 100, include: ALL_INCLUDES, type: "down" },
      });
      expect(filtered.body.pagination.total).toBe(37);
      expect(filtered.roundTrips).toBeLessThanOrEqual(1);
    });

    it(`answers ${kind.notFound} for a missing or trashed ${kind.type}, and 200001 for a bad id`, async () => {
      const id = await newItem();
      await castVote(id, await createUser(), "up");
      await trash(id);
      for (const target of [id, MISSING_ID]) {
        const res = await get(voters(target));
        expect(res.status).toBe(404);
        expect(res.body.code).toBe(kind.notFound);
      }
      const bad = await get(`/api/${kind.resource}/0/voters`);
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe(200001);
      expect(Object.keys(bad.body.errors)).toEqual([kind.idColumn]);
    });
  });

  describe("concurrent votes", () => {
    it("counts votes fired at once by one user as one vote", async () => {
      const id = await newItem();
      const user = await createUser();
      const types = ["up", "down", "up", "up", "down", "down", "up"];
      const results = await Promise.all(types.map((type) => castVote(id, user, type)));
      for (const res of results) {
        expect(res.status).toBe(200);
        expect([counts(1, 1, 0), counts(-1, 0, 1)]).toContainEqual(res.body.data);
      }
      expect(await voteRows()).toBe(1);
      expect(await stored(id)).toEqual(await tallied(id));
    });

    it("keeps the counters equal to the vote rows under concurrent votes and withdrawals by many users", async () => {
      const id = await newItem();
      const users = await Promise.all(Array.from({ length: 8 }, () => createUser()));
      await Promise.all(users.map((user, i) => castVote(id, user, i % 3 ? "up" : "down")));
      expect(await stored(id)).toEqual(await tallied(id));
      const results = await Promise.all(
        users.flatMap((user, i) => [
          castVote(id, user, i % 2 ? "up" : "down"),
          i % 4 === 0 ? withdraw(id, user) : castVote(id, user, "up"),
        ]),
      );
      for (const res of results) {
        expect(res.status).toBe(200);
        expect(res.body.data.vote_count).toBe(res.body.data.vote_up_count - res.body.data.vote_down_count);
      }
      const final = await stored(id);
      expect(final).toEqual(await tallied(id));
      expect(final.vote_up_count + final.vote_down_count).toBe(await voteRows());
    });
  });
});

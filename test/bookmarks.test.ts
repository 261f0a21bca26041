/**
 * Bookmarks (docs/operations.md#bookmarks), tested once for every bookmarkable kind through HTTP: who may bookmark,
 * the not-found codes, `is_bookmarked` on records and lists, what trash, untrash and delete do, and the caller's
 * list of bookmarks of every kind with its records, its privacy and its round-trip budget.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { now } from "../src/lib/time";
import { type ApiResponse, del, get, post, put } from "./helpers/api";
import { createAnswer, createArticle, createQuestion } from "./helpers/content";
import { createAdmin, createUser, setOptions, type TestUser } from "./helpers/factories";

interface Kind {
  type: "question" | "answer" | "article";
  resource: string;
  idColumn: string;
  notFound: number;
  create(authorId: number): Promise<number>;
}

const kinds: Kind[] = [
  {
    type: "question",
    resource: "questions",
    idColumn: "question_id",
    notFound: 202001,
    create: (authorId) => createQuestion(authorId),
  },
  {
    type: "answer",
    resource: "answers",
    idColumn: "answer_id",
    notFound: 203001,
    create: async (authorId) => createAnswer(authorId, await createQuestion(authorId)),
  },
  {
    type: "article",
    resource: "articles",
    idColumn: "article_id",
    notFound: 206001,
    create: (authorId) => createArticle(authorId),
  },
];

const MISSING_ID = 987654;

async function bookmarkRows(user?: TestUser): Promise<{ bookmarkable_type: string; bookmarkable_id: number }[]> {
  const { results } = await env.DB.prepare(
    `SELECT bookmarkable_type, bookmarkable_id FROM bookmarks ${user ? "WHERE user_id = ?" : ""} ORDER BY rowid`,
  )
    .bind(...(user ? [user.user_id] : []))
    .all<{ bookmarkable_type: string; bookmarkable_id: number }>();
  return results;
}

async function disabledMember(): Promise<TestUser> {
  const user = await createUser();
  await env.DB.prepare("UPDATE users SET disable_time = ? WHERE user_id = ?").bind(now(), user.user_id).run();
  return user;
}

function expectError(res: ApiResponse, status: number, code: number) {
  expect(res.status).toBe(status);
  expect(res.body.code).toBe(code);
}

describe.each(kinds)("/api/$resource/{id}/bookmark", (kind) => {
  const path = (id: number) => `/api/${kind.resource}/${id}/bookmark`;
  const newItem = async () => kind.create((await createUser()).user_id);

  it("bookmarks a live item for the caller, once, keeping the first bookmark's time", async () => {
    const [member, id] = [await createUser(), await newItem()];
    const before = now();

    const res = await put(path(id), { token: member.token });

    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body.data).toEqual({
      bookmarkable_type: kind.type,
      bookmarkable_id: id,
      create_time: expect.any(Number),
    });
    expect(res.body.data.create_time).toBeGreaterThanOrEqual(before);
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    await env.DB.prepare("UPDATE bookmarks SET create_time = 1000").run();
    const again = await put(path(id), { token: member.token });
    expect(again.body.data.create_time).toBe(1000);
    expect(await bookmarkRows()).toEqual([{ bookmarkable_type: kind.type, bookmarkable_id: id }]);
  });

  it("lets the author bookmark their own item, and each member keeps their own bookmark", async () => {
    const author = await createUser();
    const id = await kind.create(author.user_id);
    const other = await createUser();

    expect((await put(path(id), { token: author.token })).status).toBe(200);
    expect((await put(path(id), { token: other.token })).status).toBe(200);
    await del(path(id), { token: other.token });

    expect(await bookmarkRows(author)).toHaveLength(1);
    expect(await bookmarkRows(other)).toEqual([]);
  });

  it("removes the caller's bookmark; removing none changes nothing", async () => {
    const [member, id] = [await createUser(), await newItem()];
    await put(path(id), { token: member.token });

    const res = await del(path(id), { token: member.token });
    const again = await del(path(id), { token: member.token });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ code: 0, data: null });
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    expect(again.status).toBe(200);
    expect(await bookmarkRows()).toEqual([]);
  });

  it("refuses anonymous callers and disabled members with 201001, writing nothing", async () => {
    const id = await newItem();
    const disabled = await disabledMember();

    for (const token of [undefined, disabled.token]) {
      expectError(await put(path(id), { token }), 401, 201001);
      expectError(await del(path(id), { token }), 401, 201001);
    }
    expect(await bookmarkRows()).toEqual([]);
  });

  it(`answers ${kind.notFound} for a missing or trashed ${kind.type}, administrators too`, async () => {
    const [member, admin, id] = [await createUser(), await createAdmin(), await newItem()];
    await put(path(id), { token: member.token });
    await post(`/api/${kind.resource}/${id}/trash`, { token: admin.token });

    for (const caller of [member, admin]) {
      expectError(await put(path(MISSING_ID), { token: caller.token }), 404, kind.notFound);
      expectError(await put(path(id), { token: caller.token }), 404, kind.notFound);
      expectError(await del(path(id), { token: caller.token }), 404, kind.notFound);
    }
    // The member's bookmark of the trashed item is kept for its untrash.
    expect(await bookmarkRows()).toEqual([{ bookmarkable_type: kind.type, bookmarkable_id: id }]);
  });

  it("answers is_bookmarked to the caller alone, on the record and in lists", async () => {
    const [member, other, id] = [await createUser(), await createUser(), await newItem()];
    await put(path(id), { token: member.token });
    const include = { include: "is_bookmarked" };
    const one = (token?: string) => get(`/api/${kind.resource}/${id}`, { token, query: include });

    expect((await one(member.token)).body.data.relationships).toEqual({ is_bookmarked: true });
    expect((await one(other.token)).body.data.relationships).toEqual({ is_bookmarked: false });
    expect((await one()).body.data.relationships).toEqual({ is_bookmarked: false });
    const read = await one(member.token);
    expect(read.roundTrips).toBe(1);

    const admin = await createAdmin();
    const list = await get(`/api/${kind.resource}`, { token: admin.token, query: include });
    expect(list.status).toBe(200);
    expect(list.body.data.find((r: Record<string, number>) => r[kind.idColumn] === id).relationships).toEqual({
      is_bookmarked: false,
    });
    const mine = await get(`/api/users/${member.user_id}/${kind.resource}`, { token: member.token, query: include });
    expect(mine.status).toBe(200);
  });

  it("removes an item's bookmarks when the item is deleted", async () => {
    const [member, admin, id] = [await createUser(), await createAdmin(), await newItem()];
    const kept = await newItem();
    await put(path(id), { token: member.token });
    await put(path(kept), { token: member.token });

    expect((await del(`/api/${kind.resource}/${id}`, { token: admin.token })).status).toBe(200);

    expect(await bookmarkRows()).toEqual([{ bookmarkable_type: kind.type, bookmarkable_id: kept }]);
  });
});

describe("GET /api/user/bookmarks", () => {
  /** A question, an answer and an article, bookmarked by `member` in that order. */
  async function bookmarkedSet(member: TestUser) {
    const author = await createUser();
    const question = await createQuestion(author.user_id, { title: "Bookmarked question" });
    const answer = await createAnswer(author.user_id, question);
    const article = await createArticle(author.user_id, { title: "Bookmarked article" });
    for (const [resource, id] of [
      ["questions", question],
      ["answers", answer],
      ["articles", article],
    ] as const) {
      expect((await put(`/api/${resource}/${id}/bookmark`, { token: member.token })).status).toBe(200);
    }
    return { author, question, answer, article };
  }

  const pairs = (res: ApiResponse) =>
    res.body.data.map((b: { bookmarkable_type: string; bookmarkable_id: number }) => [
      b.bookmarkable_type,
      b.bookmarkable_id,
    ]);

  it("lists the caller's bookmarks of every kind, newest first, each with its record", async () => {
    const member = await createUser();
    const { author, question, answer, article } = await bookmarkedSet(member);

    const res = await get("/api/user/bookmarks", { token: member.token, query: { include: "user,is_bookmarked" } });

    expect(res.status).toBe(200);
    expect(res.roundTrips).toBe(1);
    expect(pairs(res)).toEqual([
      ["article", article],
      ["answer", answer],
      ["question", question],
    ]);
    expect(res.body.pagination).toMatchObject({ page: 1, total: 3, pages: 1 });
    const [a, b, q] = res.body.data;
    expect(Object.keys(a).sort()).toEqual(["article", "bookmarkable_id", "bookmarkable_type", "create_time"]);
    expect(a.article).toMatchObject({ article_id: article, title: "Bookmarked article" });
    expect(a.article.relationships).toMatchObject({ user: { user_id: author.user_id }, is_bookmarked: true });
    expect(b.answer).toMatchObject({ answer_id: answer, question_id: question });
    expect(b.question).toBeUndefined();
    expect(q.question).toMatchObject({ question_id: question, title: "Bookmarked question", accepted_answer_id: 0 });
    // A record here is the one the item's own route answers.
    const own = await get(`/api/questions/${question}`, {
      token: member.token,
      query: { include: "user,is_bookmarked" },
    });
    expect(q.question).toEqual(own.body.data);
  });

  it("filters on type, pages, and answers 200001 naming type for another kind", async () => {
    const member = await createUser();
    const { question, answer } = await bookmarkedSet(member);

    const answers = await get("/api/user/bookmarks", { token: member.token, query: { type: "answer" } });
    const second = await get("/api/user/bookmarks", { token: member.token, query: { per_page: 1, page: 2 } });
    const bad = await get("/api/user/bookmarks", { token: member.token, query: { type: "comment" } });

    expect(pairs(answers)).toEqual([["answer", answer]]);
    expect(answers.body.pagination.total).toBe(1);
    expect(pairs(second)).toEqual([["answer", answer]]);
    expect(second.body.pagination).toMatchObject({ page: 2, per_page: 1, total: 3, pages: 3, previous: 1, next: 3 });
    expectError(bad, 400, 200001);
    expect(Object.keys(bad.body.errors)).toEqual(["type"]);
    expect(question).toBeGreaterThan(0);
  });

  it("is private: another member sees only their own, anonymous callers and disabled members get 201001", async () => {
    const [member, other] = [await createUser(), await createUser()];
    await bookmarkedSet(member);
    const disabled = await disabledMember();

    const theirs = await get("/api/user/bookmarks", { token: other.token });

    expect(theirs.status).toBe(200);
    expect(theirs.body.data).toEqual([]);
    expect(theirs.body.pagination.total).toBe(0);
    expectError(await get("/api/user/bookmarks"), 401, 201001);
    expectError(await get("/api/user/bookmarks", { token: disabled.token }), 401, 201001);
    // No route reads anyone else's bookmarks.
    expectError(await get(`/api/users/${member.user_id}/bookmarks`), 404, 100004);
  });

  it("leaves trashed items out of the list and its total, and shows them again on untrash", async () => {
    const [member, admin] = [await createUser(), await createAdmin()];
    const { question, answer, article } = await bookmarkedSet(member);
    await post(`/api/answers/${answer}/trash`, { token: admin.token });

    const trashed = await get("/api/user/bookmarks", { token: admin.token });
    const res = await get("/api/user/bookmarks", { token: member.token });
    expect(trashed.body.data).toEqual([]);
    expect(pairs(res)).toEqual([
      ["article", article],
      ["question", question],
    ]);
    expect(res.body.pagination.total).toBe(2);

    await post(`/api/answers/${answer}/untrash`, { token: admin.token });
    expect((await get("/api/user/bookmarks", { token: member.token })).body.pagination.total).toBe(3);
  });

  it("drops the bookmarks of a question's answers when the question is deleted", async () => {
    await setOptions({ question_can_delete: true, question_can_delete_only_no_answer: false });
    const member = await createUser();
    const { author, question, article } = await bookmarkedSet(member);

    expect((await del(`/api/questions/${question}`, { token: author.token })).status).toBe(200);

    expect(pairs(await get("/api/user/bookmarks", { token: member.token }))).toEqual([["article", article]]);
    expect(await bookmarkRows()).toEqual([{ bookmarkable_type: "article", bookmarkable_id: article }]);
  });
});

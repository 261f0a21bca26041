/**
 * Reports (spec "Report" and operation 7; docs/conventions.md#object-shapes, docs/operations.md#reports,
 * docs/deletion.md#cascade; docs/decisions.md#one-vote-follow-and-report-per-user-and-target "one report per user and
 * target", "report list total", path lists), through HTTP: access for every route, each error code and the order of
 * checks, one report per user and target under concurrency, the grouped list, the reports of a target, includes with
 * their exact shapes, deletes, the cascade of a hard delete, and the round-trip budgets.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { now } from "../src/lib/time";
import { type ApiResponse, BASE, del, get, post } from "./helpers/api";
import { createAnswer, createArticle, createComment, createQuestion } from "./helpers/content";
import { createAdmin, createToken, createUser, type TestUser } from "./helpers/factories";
import { type Json, loadDocument } from "./helpers/openapi-doc";

type ReportableType = "question" | "answer" | "article" | "comment" | "user";

const T = now() - 100_000;
const MISSING_ID = 987654;
const ALL_INCLUDES = "reporter,question,answer,article,comment,user";
const GROUP_INCLUDES = "question,answer,article,comment,user";

async function run(sql: string, ...values: unknown[]): Promise<void> {
  await env.DB.prepare(sql)
    .bind(...values)
    .run();
}

async function all<T>(sql: string, ...values: unknown[]): Promise<T[]> {
  return (
    await env.DB.prepare(sql)
      .bind(...values)
      .all<T>()
  ).results;
}

/** A report written straight into D1, dated `time`, for the list tests. */
async function report(user: TestUser, type: ReportableType, id: number, time = now(), reason = "spam"): Promise<void> {
  await run(
    "INSERT INTO reports (reportable_id, reportable_type, user_id, reason, create_time) VALUES (?, ?, ?, ?, ?)",
    id,
    type,
    user.user_id,
    reason,
    time,
  );
}

/** Remaining reports as `type:id<-user` keys, sorted. */
async function remainingReports(): Promise<string[]> {
  const rows = await all<{ k: string }>(
    "SELECT reportable_type || ':' || reportable_id || '<-' || user_id AS k FROM reports ORDER BY 1",
  );
  return rows.map((r) => r.k);
}

const key = (type: ReportableType, id: number, user: TestUser) => `${type}:${id}<-${user.user_id}`;

async function trash(type: ReportableType, id: number): Promise<void> {
  await run(`UPDATE ${type}s SET delete_time = ? WHERE ${type}_id = ?`, now(), id);
}

/** A user whose token would be valid but who is disabled: requests count as anonymous. */
async function disabledToken(): Promise<string> {
  const user = await createUser({ disabled: true });
  return createToken(user.user_id);
}

const avatar = {
  original: `${BASE}/static/default/avatar.png`,
  small: `${BASE}/static/default/avatar_small.png`,
  middle: `${BASE}/static/default/avatar_middle.png`,
  large: `${BASE}/static/default/avatar_large.png`,
};
const userSummary = (user: TestUser) => ({ user_id: user.user_id, username: user.username, headline: "", avatar });

interface Kind {
  type: ReportableType;
  notFound: number;
  /** A live target by `author`, dated T. */
  create(author: TestUser): Promise<number>;
  /** Its exact summary (docs/conventions.md#object-shapes). */
  summary(id: number): unknown;
}

const kinds: Kind[] = [
  {
    type: "question",
    notFound: 202001,
    create: (author) => createQuestion(author.user_id, { title: "Reported question", create_time: T }),
    summary: (id) => ({ question_id: id, title: "Reported question", create_time: T, update_time: T }),
  },
  {
    type: "answer",
    notFound: 203001,
    create: async (author) => {
      const questionId = await createQuestion(author.user_id, { create_time: T });
      return createAnswer(author.user_id, questionId, { content_markdown: "An **answer** body", create_time: T });
    },
    summary: async (id: number) => ({
      answer_id: id,
      question_id: (await all<{ q: number }>("SELECT question_id AS q FROM answers WHERE answer_id = ?", id))[0]!.q,
      content_summary: "An **answer** body",
      create_time: T,
      update_time: T,
    }),
  },
  {
    type: "article",
    notFound: 206001,
    create: (author) => createArticle(author.user_id, { title: "Reported article", create_time: T }),
    summary: (id) => ({ article_id: id, title: "Reported article", create_time: T, update_time: T }),
  },
  {
    type: "comment",
    notFound: 204001,
    create: async (author) =>
      createComment(author.user_id, "article", await createArticle(author.user_id), {
        content: "A reported comment",
        create_time: T,
      }),
    summary: (id) => ({ comment_id: id, content_summary: "A reported comment", create_time: T, update_time: T }),
  },
  {
    type: "user",
    notFound: 201003,
    create: async () => (await createUser()).user_id,
    summary: async (id: number) => {
      const [user] = await all<{ username: string }>("SELECT username FROM users WHERE user_id = ?", id);
      return { user_id: id, username: user!.username, headline: "", avatar };
    },
  },
];

const kindOf = (type: ReportableType) => kinds.find((k) => k.type === type)!;
/** Content can be trashed; users cannot. */
const trashable = kinds.filter((k) => k.type !== "user");

function expectError(res: ApiResponse, status: number, code: number): void {
  expect(res.status).toBe(status);
  expect(res.body.code).toBe(code);
}

describe("POST /api/reports/{type}:{id}", () => {
  describe("access", () => {
    it("refuses an anonymous caller with 201001", async () => {
      const author = await createUser();
      const id = await createQuestion(author.user_id);
      expectError(await post(`/api/reports/question:${id}`, { body: { reason: "spam" } }), 401, 201001);
    });

    it("refuses a disabled user's token with 201001", async () => {
      const author = await createUser();
      const id = await createQuestion(author.user_id);
      expectError(
        await post(`/api/reports/question:${id}`, { token: await disabledToken(), body: { reason: "spam" } }),
        401,
        201001,
      );
    });

    it("checks access before the type and the body", async () => {
      expectError(await post("/api/reports/topic:1", { body: { reason: 5 } }), 401, 201001);
    });

    it("lets an administrator report too", async () => {
      const admin = await createAdmin();
      const id = await createQuestion(admin.user_id);
      const res = await post(`/api/reports/question:${id}`, { token: admin.token, body: { reason: "spam" } });
      expect(res.status).toBe(200);
      expect(res.body.data.user_id).toBe(admin.user_id);
    });
  });

  describe.each(kinds)("on a $type", (kind) => {
    it("creates the report and answers the Report record", async () => {
      const [author, reporter] = [await createUser(), await createUser()];
      const id = await kind.create(author);
      const before = now();
      const res = await post(`/api/reports/${kind.type}:${id}`, {
        token: reporter.token,
        body: { reason: "Spam & <b>ads</b>" },
      });
      expect(res.status).toBe(200);
      expect(res.body.code).toBe(0);
      expect(res.body.data).toEqual({
        report_id: expect.any(Number),
        reportable_id: id,
        reportable_type: kind.type,
        user_id: reporter.user_id,
        reason: "Spam & <b>ads</b>",
        create_time: expect.any(Number),
      });
      expect(res.body.data.create_time).toBeGreaterThanOrEqual(before);
      expect(res.body.data.create_time).toBeLessThanOrEqual(now());
      const [stored] = await all("SELECT * FROM reports WHERE report_id = ?", res.body.data.report_id);
      expect(stored).toEqual(res.body.data);
    });

    it("includes the reporter and the target's summary under its type, and nothing for other types", async () => {
      const [author, reporter] = [await createUser(), await createUser()];
      const id = await kind.create(author);
      const res = await post(`/api/reports/${kind.type}:${id}`, {
        token: reporter.token,
        query: { include: `${ALL_INCLUDES},unknown` },
        body: { reason: "spam" },
      });
      expect(res.status).toBe(200);
      expect(res.body.data.relationships).toEqual({
        reporter: userSummary(reporter),
        [kind.type]: await kind.summary(id),
      });
    });

    it(`answers ${kind.notFound} for a missing target`, async () => {
      const reporter = await createUser();
      const res = await post(`/api/reports/${kind.type}:${MISSING_ID}`, {
        token: reporter.token,
        body: { reason: "spam" },
      });
      expectError(res, 404, kind.notFound);
      expect(await remainingReports()).toEqual([]);
    });

    it("refuses a second report by the same user with 207003 (HTTP 409)", async () => {
      const [author, reporter, other] = [await createUser(), await createUser(), await createUser()];
      const id = await kind.create(author);
      expect(
        (await post(`/api/reports/${kind.type}:${id}`, { token: reporter.token, body: { reason: "spam" } })).status,
      ).toBe(200);
      expectError(
        await post(`/api/reports/${kind.type}:${id}`, { token: reporter.token, body: { reason: "other reason" } }),
        409,
        207003,
      );
      expect(
        (await post(`/api/reports/${kind.type}:${id}`, { token: other.token, body: { reason: "spam" } })).status,
      ).toBe(200);
      expect(await remainingReports()).toEqual([key(kind.type, id, reporter), key(kind.type, id, other)].sort());
    });

    it("lets a user report their own content (or themself)", async () => {
      const author = await createUser();
      const id = kind.type === "user" ? author.user_id : await kind.create(author);
      const res = await post(`/api/reports/${kind.type}:${id}`, { token: author.token, body: { reason: "mine" } });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ reportable_id: id, user_id: author.user_id });
    });
  });

  it.each(trashable)("answers the not-found code for a trashed $type", async (kind) => {
    const [author, reporter] = [await createUser(), await createUser()];
    const id = await kind.create(author);
    await trash(kind.type, id);
    expectError(
      await post(`/api/reports/${kind.type}:${id}`, { token: reporter.token, body: { reason: "spam" } }),
      404,
      kind.notFound,
    );
    expect(await remainingReports()).toEqual([]);
  });

  it("reports a disabled user: users only have to exist", async () => {
    const [reporter, disabled] = [await createUser(), await createUser({ disabled: true })];
    const res = await post(`/api/reports/user:${disabled.user_id}`, {
      token: reporter.token,
      body: { reason: "spam" },
    });
    expect(res.status).toBe(200);
  });

  it("gives a null summary only for the included type, and a relationships key only with includes", async () => {
    const [author, reporter] = [await createUser(), await createUser()];
    const id = await createQuestion(author.user_id);
    const res = await post(`/api/reports/question:${id}`, {
      token: reporter.token,
      query: { include: "answer" },
      body: { reason: "spam" },
    });
    expect(res.body.data.relationships).toEqual({});
  });

  describe("the type", () => {
    it.each(["topic", "foo", "Question", ""])("refuses %j with 207002", async (type) => {
      const user = await createUser();
      expectError(await post(`/api/reports/${type}:1`, { token: user.token, body: { reason: "spam" } }), 400, 207002);
    });

    const malformed = ["question:abc", "question:0", "question:-1", "question:1.5", "question", "question:"];
    it.each(malformed)("refuses the malformed segment %j with 200001", async (segment) => {
      const user = await createUser();
      const res = await post(`/api/reports/${segment}`, { token: user.token, body: { reason: "spam" } });
      expectError(res, 400, 200001);
      expect(res.body.errors).toEqual({ target: expect.any(String) });
    });
  });

  describe("the reason", () => {
    const cases: [string, unknown][] = [
      ["missing", undefined],
      ["null", null],
      ["a number", 12345],
      ["an array", ["spam"]],
      ["one character", "x"],
      ["empty", ""],
      ["201 characters", "r".repeat(201)],
      ["201 code points (emoji)", "😀".repeat(201)],
    ];

    it.each(cases)("refuses a reason that is %s with 200001 on reason", async (_, reason) => {
      const [author, reporter] = [await createUser(), await createUser()];
      const id = await createQuestion(author.user_id);
      const res = await post(`/api/reports/question:${id}`, {
        token: reporter.token,
        body: reason === undefined ? {} : { reason },
      });
      expectError(res, 400, 200001);
      expect(res.body.errors).toEqual({ reason: expect.any(String) });
      expect(await remainingReports()).toEqual([]);
    });

    it("refuses a request without any body with 200001 on reason", async () => {
      const [author, reporter] = [await createUser(), await createUser()];
      const id = await createQuestion(author.user_id);
      const res = await post(`/api/reports/question:${id}`, { token: reporter.token });
      expectError(res, 400, 200001);
      expect(res.body.errors).toEqual({ reason: expect.any(String) });
    });

    it.each([
      ["2 characters", "ab"],
      ["200 characters", "r".repeat(200)],
      ["200 emoji (400 UTF-16 units)", "😀".repeat(200)],
      ["untrimmed spaces", "  x "],
    ])("accepts %s and stores it as written", async (_, reason) => {
      const [author, reporter] = [await createUser(), await createUser()];
      const id = await createQuestion(author.user_id);
      const res = await post(`/api/reports/question:${id}`, { token: reporter.token, body: { reason } });
      expect(res.status).toBe(200);
      expect(res.body.data.reason).toBe(reason);
      const [stored] = await all<{ reason: string }>("SELECT reason FROM reports");
      expect(stored!.reason).toBe(reason);
    });

    it("answers malformed JSON with 100006", async () => {
      const [author, reporter] = [await createUser(), await createUser()];
      const id = await createQuestion(author.user_id);
      const res = await post(`/api/reports/question:${id}`, {
        token: reporter.token,
        rawBody: '{"reason": ',
        headers: { "content-type": "application/json" },
      });
      expectError(res, 400, 100006);
    });
  });

  describe("order of checks: type, target, reason, duplicate", () => {
    it("answers the type before the target and the reason", async () => {
      const user = await createUser();
      expectError(
        await post(`/api/reports/topic:${MISSING_ID}`, { token: user.token, body: { reason: 1 } }),
        400,
        207002,
      );
    });

    it("answers a missing or trashed target before the reason", async () => {
      const [author, user] = [await createUser(), await createUser()];
      expectError(
        await post(`/api/reports/answer:${MISSING_ID}`, { token: user.token, body: { reason: "x" } }),
        404,
        203001,
      );
      const id = await createArticle(author.user_id);
      await trash("article", id);
      expectError(await post(`/api/reports/article:${id}`, { token: user.token, body: {} }), 404, 206001);
    });

    it("answers the reason before the duplicate", async () => {
      const [author, user] = [await createUser(), await createUser()];
      const id = await createQuestion(author.user_id);
      expect((await post(`/api/reports/question:${id}`, { token: user.token, body: { reason: "spam" } })).status).toBe(
        200,
      );
      const res = await post(`/api/reports/question:${id}`, { token: user.token, body: { reason: "x" } });
      expectError(res, 400, 200001);
      expect(res.body.errors).toEqual({ reason: expect.any(String) });
    });
  });

  it("keeps one report when the same user reports the same target concurrently", async () => {
    const [author, reporter] = [await createUser(), await createUser()];
    const id = await createQuestion(author.user_id);
    const responses = await Promise.all(
      Array.from({ length: 6 }, () =>
        post(`/api/reports/question:${id}`, { token: reporter.token, body: { reason: "spam" } }),
      ),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    expect(responses.filter((r) => r.status === 409).every((r) => r.body.code === 207003)).toBe(true);
    expect(await remainingReports()).toEqual([key("question", id, reporter)]);
  });

  it("stays within 3 round trips, success or failure, with every include", async () => {
    const [author, reporter] = [await createUser(), await createUser()];
    const id = await createQuestion(author.user_id);
    const path = `/api/reports/question:${id}`;
    const options = { token: reporter.token, query: { include: ALL_INCLUDES } };
    const created = await post(path, { ...options, body: { reason: "spam" } });
    expect(created.status).toBe(200);
    const duplicate = await post(path, { ...options, body: { reason: "spam" } });
    const badReason = await post(path, { ...options, body: { reason: "" } });
    const missing = await post(`/api/reports/question:${MISSING_ID}`, { ...options, body: { reason: "spam" } });
    for (const res of [created, duplicate, badReason, missing]) expect(res.roundTrips).toBeLessThanOrEqual(2);
    expect([duplicate.body.code, badReason.body.code, missing.body.code]).toEqual([207003, 200001, 202001]);
  });
});

/** Access to the administrators' routes: 201001 anonymous or disabled, 201002 for a user. */
function describeAdminAccess(request: (token?: string) => Promise<ApiResponse>) {
  it("refuses an anonymous caller with 201001", async () => {
    expectError(await request(), 401, 201001);
  });

  it("refuses a disabled user's token with 201001", async () => {
    expectError(await request(await disabledToken()), 401, 201001);
  });

  it("refuses a user who is not an administrator with 201002", async () => {
    expectError(await request((await createUser()).token), 403, 201002);
  });

  it("serves an administrator", async () => {
    const res = await request((await createAdmin()).token);
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
  });
}

describe("GET /api/reports", () => {
  describe("access", () => {
    describeAdminAccess((token) => get("/api/reports", { token }));

    it("checks access before the query", async () => {
      const user = await createUser();
      expectError(await get("/api/reports", { token: user.token, query: { reportable_type: "topic" } }), 403, 201002);
    });
  });

  /** Targets of every type with reports at known times; the newest report decides a target's place. */
  async function scene() {
    const admin = await createAdmin();
    const [a, b, c] = [await createUser(), await createUser(), await createUser()];
    const question = await kindOf("question").create(a);
    const answer = await kindOf("answer").create(a);
    const article = await kindOf("article").create(a);
    const comment = await kindOf("comment").create(a);
    const user = await kindOf("user").create(a);
    await report(a, "question", question, T + 10);
    await report(b, "question", question, T + 50);
    await report(c, "question", question, T + 20);
    await report(a, "answer", answer, T + 40);
    await report(a, "article", article, T + 30);
    await report(b, "article", article, T + 5);
    await report(b, "comment", comment, T + 60);
    await report(c, "user", user, T + 1);
    return { admin, question, answer, article, comment, user };
  }

  it("lists one row per target with reporter_count, the most recently reported first", async () => {
    const s = await scene();
    const res = await get("/api/reports", { token: s.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { reportable_id: s.comment, reportable_type: "comment", reporter_count: 1 },
      { reportable_id: s.question, reportable_type: "question", reporter_count: 3 },
      { reportable_id: s.answer, reportable_type: "answer", reporter_count: 1 },
      { reportable_id: s.article, reportable_type: "article", reporter_count: 2 },
      { reportable_id: s.user, reportable_type: "user", reporter_count: 1 },
    ]);
    expect(res.body.pagination).toEqual({ page: 1, per_page: 15, previous: null, next: null, total: 5, pages: 1 });
  });

  it("orders targets last reported in the same second by their newest report", async () => {
    const admin = await createAdmin();
    const [a, b] = [await createUser(), await createUser()];
    const [first, second, third] = [
      await createQuestion(a.user_id),
      await createQuestion(a.user_id),
      await createQuestion(a.user_id),
    ];
    await report(a, "question", second, T);
    await report(a, "question", first, T);
    await report(b, "question", third, T);
    await report(b, "question", second, T);
    const res = await get("/api/reports", { token: admin.token });
    expect(res.body.data.map((g: { reportable_id: number }) => g.reportable_id)).toEqual([second, third, first]);
  });

  it("pages over distinct targets: total counts targets, not reports", async () => {
    const s = await scene();
    const res = await get("/api/reports", { token: s.admin.token, query: { per_page: 2, page: 2 } });
    expect(res.body.data.map((g: { reportable_type: string }) => g.reportable_type)).toEqual(["answer", "article"]);
    expect(res.body.pagination).toEqual({ page: 2, per_page: 2, previous: 1, next: 3, total: 5, pages: 3 });
  });

  it("filters by reportable_type", async () => {
    const s = await scene();
    const extra = await createUser();
    const otherArticle = await createArticle(extra.user_id);
    await report(extra, "article", otherArticle, T + 100);
    const res = await get("/api/reports", { token: s.admin.token, query: { reportable_type: "article" } });
    expect(res.body.data).toEqual([
      { reportable_id: otherArticle, reportable_type: "article", reporter_count: 1 },
      { reportable_id: s.article, reportable_type: "article", reporter_count: 2 },
    ]);
    expect(res.body.pagination.total).toBe(2);
  });

  it("refuses an unknown reportable_type filter with 200001", async () => {
    const admin = await createAdmin();
    const res = await get("/api/reports", { token: admin.token, query: { reportable_type: "topic" } });
    expectError(res, 400, 200001);
    expect(res.body.errors).toEqual({ reportable_type: expect.any(String) });
  });

  it("answers an empty page when nothing is reported", async () => {
    const admin = await createAdmin();
    const res = await get("/api/reports", { token: admin.token });
    expect(res.body.data).toEqual([]);
    expect(res.body.pagination).toEqual({ page: 1, per_page: 15, previous: null, next: null, total: 0, pages: 0 });
  });

  it("includes each target's summary under its own type only, with the exact shapes", async () => {
    const s = await scene();
    const res = await get("/api/reports", {
      token: s.admin.token,
      query: { include: `${GROUP_INCLUDES},reporter,unknown` },
    });
    expect(res.status).toBe(200);
    const relationshipsOf = Object.fromEntries(
      res.body.data.map((g: { reportable_type: string; relationships: unknown }) => [
        g.reportable_type,
        g.relationships,
      ]),
    );
    expect(relationshipsOf).toEqual({
      question: { question: await kindOf("question").summary(s.question) },
      answer: { answer: await kindOf("answer").summary(s.answer) },
      article: { article: await kindOf("article").summary(s.article) },
      comment: { comment: await kindOf("comment").summary(s.comment) },
      user: { user: await kindOf("user").summary(s.user) },
    });
  });

  it("gives rows of a type that is not included an empty relationships object, and none without includes", async () => {
    const s = await scene();
    const some = await get("/api/reports", { token: s.admin.token, query: { include: "question" } });
    for (const group of some.body.data as { reportable_type: string; relationships: Record<string, unknown> }[]) {
      expect(group.relationships).toEqual(
        group.reportable_type === "question" ? { question: await kindOf("question").summary(s.question) } : {},
      );
    }
    const none = await get("/api/reports", { token: s.admin.token });
    for (const group of none.body.data) expect(group).not.toHaveProperty("relationships");
  });

  it("gives null for a trashed or missing target", async () => {
    const admin = await createAdmin();
    const user = await createUser();
    const trashed = await createAnswer(user.user_id, await createQuestion(user.user_id));
    await trash("answer", trashed);
    await report(user, "answer", trashed, T + 2);
    await report(user, "comment", MISSING_ID, T + 1);
    const res = await get("/api/reports", { token: admin.token, query: { include: GROUP_INCLUDES } });
    expect(res.body.data).toEqual([
      { reportable_id: trashed, reportable_type: "answer", reporter_count: 1, relationships: { answer: null } },
      { reportable_id: MISSING_ID, reportable_type: "comment", reporter_count: 1, relationships: { comment: null } },
    ]);
  });

  it("stays within 2 round trips with per_page=100 and every include", async () => {
    const s = await scene();
    const res = await get("/api/reports", { token: s.admin.token, query: { per_page: 100, include: GROUP_INCLUDES } });
    expect(res.body.data).toHaveLength(5);
    expect(res.roundTrips).toBeLessThanOrEqual(1);
  });
});

describe("GET /api/reports/{type}:{id} (spec operation 7)", () => {
  describe("access", () => {
    describeAdminAccess((token) => get("/api/reports/question:1", { token }));

    it("checks access before the type", async () => {
      expectError(await get("/api/reports/topic:1", { token: (await createUser()).token }), 403, 201002);
    });
  });

  describe.each(kinds)("of a $type", (kind) => {
    it("lists its reports newest first, field for field, with pagination", async () => {
      const admin = await createAdmin();
      const [author, a, b, c] = [await createUser(), await createUser(), await createUser(), await createUser()];
      const id = await kind.create(author);
      const other = await kind.create(author);
      await report(a, kind.type, id, T + 1, "first");
      await report(b, kind.type, id, T + 3, "newest");
      await report(c, kind.type, id, T + 2, "middle");
      await report(a, kind.type, other, T + 9, "elsewhere");
      const reports = await all<Record<string, unknown>>(
        "SELECT * FROM reports WHERE reportable_id = ? AND reportable_type = ?",
        id,
        kind.type,
      );
      const byReason = (reason: string) => reports.find((r) => r.reason === reason);

      const first = await get(`/api/reports/${kind.type}:${id}`, { token: admin.token, query: { per_page: 2 } });
      expect(first.status).toBe(200);
      expect(first.body.code).toBe(0);
      expect(first.body.data).toEqual([byReason("newest"), byReason("middle")]);
      expect(first.body.data[0]).toEqual({
        report_id: expect.any(Number),
        reportable_id: id,
        reportable_type: kind.type,
        user_id: b.user_id,
        reason: "newest",
        create_time: T + 3,
      });
      expect(first.body.pagination).toEqual({ page: 1, per_page: 2, previous: null, next: 2, total: 3, pages: 2 });

      const second = await get(`/api/reports/${kind.type}:${id}`, {
        token: admin.token,
        query: { per_page: 2, page: 2 },
      });
      expect(second.body.data).toEqual([byReason("first")]);
      expect(second.body.pagination).toEqual({ page: 2, per_page: 2, previous: 1, next: null, total: 3, pages: 2 });
    });

    it("includes the reporter and the target's summary, and no other type", async () => {
      const admin = await createAdmin();
      const [author, reporter] = [await createUser(), await createUser()];
      const id = await kind.create(author);
      await report(reporter, kind.type, id);
      const res = await get(`/api/reports/${kind.type}:${id}`, {
        token: admin.token,
        query: { include: `${ALL_INCLUDES},unknown` },
      });
      expect(res.body.data).toHaveLength(1);
      expect(res.body.data[0].relationships).toEqual({
        reporter: userSummary(reporter),
        [kind.type]: await kind.summary(id),
      });
    });
  });

  it.each(trashable)("gives a null summary for a trashed $type and still lists its reports", async (kind) => {
    const admin = await createAdmin();
    const [author, reporter] = [await createUser(), await createUser()];
    const id = await kind.create(author);
    await report(reporter, kind.type, id);
    await trash(kind.type, id);
    const res = await get(`/api/reports/${kind.type}:${id}`, { token: admin.token, query: { include: kind.type } });
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0].relationships).toEqual({ [kind.type]: null });
  });

  it("orders reports made in the same second by their order of arrival", async () => {
    const admin = await createAdmin();
    const [author, a, b] = [await createUser(), await createUser(), await createUser()];
    const id = await createQuestion(author.user_id);
    await report(a, "question", id, T, "earlier");
    await report(b, "question", id, T, "later");
    const res = await get(`/api/reports/question:${id}`, { token: admin.token });
    expect(res.body.data.map((r: { reason: string }) => r.reason)).toEqual(["later", "earlier"]);
  });

  it("has no relationships key without includes, and an empty one for another type only", async () => {
    const admin = await createAdmin();
    const [author, reporter] = [await createUser(), await createUser()];
    const id = await createQuestion(author.user_id);
    await report(reporter, "question", id);
    const none = await get(`/api/reports/question:${id}`, { token: admin.token });
    expect(none.body.data[0]).not.toHaveProperty("relationships");
    const other = await get(`/api/reports/question:${id}`, { token: admin.token, query: { include: "answer" } });
    expect(other.body.data[0].relationships).toEqual({});
  });

  it("answers an empty page for a target without reports, existing or not", async () => {
    const admin = await createAdmin();
    const id = await createQuestion(admin.user_id);
    for (const path of [`/api/reports/question:${id}`, `/api/reports/user:${MISSING_ID}`]) {
      const res = await get(path, { token: admin.token, query: { include: ALL_INCLUDES } });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
      expect(res.body.pagination).toEqual({ page: 1, per_page: 15, previous: null, next: null, total: 0, pages: 0 });
    }
  });

  it("refuses an unknown type with 207002 and a malformed segment with 200001", async () => {
    const admin = await createAdmin();
    expectError(await get("/api/reports/topic:1", { token: admin.token }), 400, 207002);
    const malformed = await get("/api/reports/question:x", { token: admin.token });
    expectError(malformed, 400, 200001);
    expect(malformed.body.errors).toEqual({ target: expect.any(String) });
  });

  it("stays within 2 round trips with per_page=100 and every include", async () => {
    const admin = await createAdmin();
    const author = await createUser();
    const id = await createQuestion(author.user_id);
    for (let i = 0; i < 12; i += 1) await report(await createUser(), "question", id, T + i);
    const res = await get(`/api/reports/question:${id}`, {
      token: admin.token,
      query: { per_page: 100, include: ALL_INCLUDES },
    });
    expect(res.body.data).toHaveLength(12);
    expect(
      res.body.data.every(
        (r: { relationships: Record<string, unknown> }) => r.relationships.reporter && r.relationships.question,
      ),
    ).toBe(true);
    expect(res.roundTrips).toBeLessThanOrEqual(1);
  });
});

describe("DELETE /api/reports/{targets}", () => {
  describe("access", () => {
    describeAdminAccess((token) => del("/api/reports/question:1", { token }));

    it("checks access before the list", async () => {
      expectError(await del("/api/reports/foo", { token: (await createUser()).token }), 403, 201002);
    });
  });

  async function reported() {
    const admin = await createAdmin();
    const [a, b] = [await createUser(), await createUser()];
    const question = await createQuestion(a.user_id);
    const answer = await createAnswer(a.user_id, question);
    await report(a, "question", question);
    await report(b, "question", question);
    await report(a, "answer", answer);
    await report(b, "user", a.user_id);
    // Same id, other type: must survive a delete of question:{question}.
    await report(a, "article", question);
    return { admin, a, b, question, answer };
  }

  it("deletes every report on one target and answers null", async () => {
    const s = await reported();
    const res = await del(`/api/reports/question:${s.question}`, { token: s.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ code: 0, data: null });
    expect(await remainingReports()).toEqual(
      [key("answer", s.answer, s.a), key("article", s.question, s.a), key("user", s.a.user_id, s.b)].sort(),
    );
    expect(res.roundTrips).toBeLessThanOrEqual(2);
  });

  it("deletes the reports of every listed target", async () => {
    const s = await reported();
    const list = `question:${s.question},answer:${s.answer},user:${s.a.user_id},comment:${MISSING_ID}`;
    const res = await del(`/api/reports/${list}`, { token: s.admin.token });
    expect(res.body).toEqual({ code: 0, data: null });
    expect(await remainingReports()).toEqual([key("article", s.question, s.a)]);
    expect(res.roundTrips).toBeLessThanOrEqual(2);
  });

  it("accepts 100 targets and refuses 101 with 200001 on target", async () => {
    const s = await reported();
    const list = (n: number) =>
      [`question:${s.question}`, ...Array.from({ length: n - 1 }, (_, i) => `answer:${MISSING_ID + i}`)].join(",");
    const tooMany = await del(`/api/reports/${list(101)}`, { token: s.admin.token });
    expectError(tooMany, 400, 200001);
    expect(tooMany.body.errors).toEqual({ target: expect.any(String) });
    expect(await remainingReports()).toHaveLength(5);
    const hundred = await del(`/api/reports/${list(100)}`, { token: s.admin.token });
    expect(hundred.status).toBe(200);
    expect(await remainingReports()).toHaveLength(3);
  });

  const malformed = ["question:1,answer", "question:1,answer:x", "question:1,", ",question:1"];
  it.each(malformed)("refuses the malformed list %j with 200001 and deletes nothing", async (list) => {
    const s = await reported();
    const res = await del(`/api/reports/${list}`, { token: s.admin.token });
    expectError(res, 400, 200001);
    expect(res.body.errors).toEqual({ target: expect.any(String) });
    expect(await remainingReports()).toHaveLength(5);
  });

  it("refuses an unknown type, alone or in a list, with 207002", async () => {
    const s = await reported();
    expectError(await del("/api/reports/topic:1", { token: s.admin.token }), 400, 207002);
    expectError(await del(`/api/reports/question:${s.question},topic:1`, { token: s.admin.token }), 400, 207002);
    expect(await remainingReports()).toHaveLength(5);
  });
});

describe("hard deletes take the reports with them (docs/deletion.md#cascade)", () => {
  it("deleting a question removes its reports and those of its answers, comments and replies", async () => {
    const admin = await createAdmin();
    const [author, reporter] = [await createUser(), await createUser()];
    const question = await createQuestion(author.user_id);
    const answer = await createAnswer(author.user_id, question);
    const onQuestion = await createComment(author.user_id, "question", question);
    const onAnswer = await createComment(author.user_id, "answer", answer);
    const reply = await createComment(author.user_id, "comment", onAnswer);
    const keep = await createQuestion(author.user_id);
    for (const [type, id] of [
      ["question", question],
      ["answer", answer],
      ["comment", onQuestion],
      ["comment", onAnswer],
      ["comment", reply],
      ["question", keep],
      ["user", author.user_id],
    ] as const) {
      expect(
        (await post(`/api/reports/${type}:${id}`, { token: reporter.token, body: { reason: "spam" } })).status,
      ).toBe(200);
    }
    const res = await del(`/api/questions/${question}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(await remainingReports()).toEqual(
      [key("question", keep, reporter), key("user", author.user_id, reporter)].sort(),
    );
    const list = await get("/api/reports", { token: admin.token });
    expect(list.body.pagination.total).toBe(2);
  });

  it("deleting a comment removes its reports and those of its replies", async () => {
    const admin = await createAdmin();
    const [author, reporter] = [await createUser(), await createUser()];
    const article = await createArticle(author.user_id);
    const comment = await createComment(author.user_id, "article", article);
    const reply = await createComment(author.user_id, "comment", comment);
    await report(reporter, "comment", comment);
    await report(reporter, "comment", reply);
    await report(reporter, "article", article);
    expect((await del(`/api/comments/${comment}`, { token: admin.token })).status).toBe(200);
    expect(await remainingReports()).toEqual([key("article", article, reporter)]);
  });
});

describe("GET /api/openapi.json", () => {
  it("documents the report routes under the spec's template, with both parameters", async () => {
    const doc = await loadDocument();
    const template = "/api/reports/{reportable_type}:{reportable_id}";
    expect(Object.keys(doc.paths["/api/reports"] ?? {})).toEqual(["get"]);
    expect(Object.keys(doc.paths[template] ?? {}).sort()).toEqual(["delete", "get", "post"]);
    expect(Object.keys(doc.paths).filter((path) => path.includes("{target}"))).toEqual([]);
    for (const method of ["post", "get", "delete"]) {
      const params = (doc.paths[template][method].parameters as Json[]).filter((p) => p.in === "path");
      expect(params.map((p) => [p.name, p.required])).toEqual([
        ["reportable_type", true],
        ["reportable_id", true],
      ]);
      expect(params[0].schema.enum).toEqual(["question", "answer", "article", "comment", "user", "message"]);
      expect(params[1].schema.type).toBe(method === "delete" ? "string" : "integer");
    }
  });

  it("serves what a client fills into the template", async () => {
    const [admin, reporter, author] = [await createAdmin(), await createUser(), await createUser()];
    const question = await createQuestion(author.user_id);
    const path = "/api/reports/{reportable_type}:{reportable_id}"
      .replace("{reportable_type}", "question")
      .replace("{reportable_id}", String(question));
    const res = await post(path, { token: reporter.token, body: { reason: "spam spam" } });
    expect([res.status, res.body.code, res.body.data?.reportable_type]).toEqual([200, 0, "question"]);
    const listed = await get(path, { token: admin.token });
    expect([listed.status, listed.body.pagination?.total]).toEqual([200, 1]);
  });
});

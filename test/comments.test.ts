/**
 * Comments (docs/operations.md#comments-and-replies, docs/operations.md#comments,
 * docs/operations.md#user-content-lists, docs/counters.md, docs/permissions.md#author-edit-and-delete-rules,
 * docs/permissions.md#restricted-fields, docs/permissions.md#existence-checks, docs/content.md#validation; spec
 * operations 4 and 5): the family once for every target (question, answer, article, and comment for replies), one
 * comment and its edit, the administrators' list, users' comments, and the D1 budget.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { now } from "../src/lib/time";
import { type ApiResponse, get, patch, post } from "./helpers/api";
import { type CommentTarget, createAnswer, createArticle, createComment, createQuestion, row } from "./helpers/content";
import { createAdmin, createUser, setOptions, type TestUser } from "./helpers/factories";

const T = now() - 100_000;

const imageUrls = {
  original: expect.any(String),
  small: expect.any(String),
  middle: expect.any(String),
  large: expect.any(String),
};
const userSummary = (user: TestUser) => ({
  user_id: user.user_id,
  username: user.username,
  headline: "",
  avatar: imageUrls,
});

const idsOf = (res: ApiResponse) => (res.body.data as { comment_id: number }[]).map((c) => c.comment_id);

async function setComment(id: number, fields: Record<string, number>): Promise<void> {
  const names = Object.keys(fields);
  await env.DB.prepare(`UPDATE comments SET ${names.map((n) => `${n} = ?`).join(", ")} WHERE comment_id = ?`)
    .bind(...Object.values(fields), id)
    .run();
}

async function disableInDb(user: TestUser): Promise<void> {
  await env.DB.prepare("UPDATE users SET disable_time = ? WHERE user_id = ?").bind(now(), user.user_id).run();
}

async function vote(user: TestUser, commentId: number, type: "up" | "down"): Promise<void> {
  await env.DB.prepare(
    "INSERT INTO votes (user_id, votable_id, votable_type, type, create_time) VALUES (?, ?, 'comment', ?, ?)",
  )
    .bind(user.user_id, commentId, type, now())
    .run();
}

const commentRows = async () => (await env.DB.prepare("SELECT count(*) AS n FROM comments").first<number>("n")) ?? 0;

interface TargetCase {
  type: CommentTarget;
  table: string;
  idColumn: string;
  counter: "comment_count" | "reply_count";
  notFound: number;
  param: string;
  path: (id: number | string) => string;
  /** A live target authored by `user`, created at T. */
  create: (user: TestUser) => Promise<number>;
}

const targets: TargetCase[] = [
  {
    type: "question",
    table: "questions",
    idColumn: "question_id",
    counter: "comment_count",
    notFound: 202001,
    param: "question_id",
    path: (id) => `/api/questions/${id}/comments`,
    create: (user) => createQuestion(user.user_id, { create_time: T }),
  },
  {
    type: "answer",
    table: "answers",
    idColumn: "answer_id",
    counter: "comment_count",
    notFound: 203001,
    param: "answer_id",
    path: (id) => `/api/answers/${id}/comments`,
    create: async (user) => createAnswer(user.user_id, await createQuestion(user.user_id), { create_time: T }),
  },
  {
    type: "article",
    table: "articles",
    idColumn: "article_id",
    counter: "comment_count",
    notFound: 206001,
    param: "article_id",
    path: (id) => `/api/articles/${id}/comments`,
    create: (user) => createArticle(user.user_id, { create_time: T }),
  },
  {
    type: "comment",
    table: "comments",
    idColumn: "comment_id",
    counter: "reply_count",
    notFound: 204001,
    param: "comment_id",
    path: (id) => `/api/comments/${id}/replies`,
    create: async (user) =>
      createComment(user.user_id, "article", await createArticle(user.user_id), { create_time: T }),
  },
];

describe.each(targets)("the COMMENTS family on a $type", (target) => {
  const targetRow = (id: number) => row<Record<string, number>>(target.table, target.idColumn, id);
  const trashTarget = (id: number) =>
    env.DB.prepare(`UPDATE ${target.table} SET delete_time = ? WHERE ${target.idColumn} = ?`).bind(now(), id).run();

  describe(`GET ${target.path(`{${target.param}}`)}`, () => {
    it("lists the target's live comments newest first, for anonymous callers", async () => {
      const author = await createUser();
      const id = await target.create(author);
      const older = await createComment(author.user_id, target.type, id, { create_time: T + 1 });
      const newer = await createComment(author.user_id, target.type, id, { create_time: T + 2 });
      const trashed = await createComment(author.user_id, target.type, id, { create_time: T + 3 });
      await setComment(trashed, { delete_time: now() });
      // Same id, other kind of target: not this target's comment.
      const otherType = target.type === "article" ? "question" : "article";
      await createComment(author.user_id, otherType, id, { create_time: T + 4 });
      const res = await get(target.path(id), { query: { include: "user,voting" } });
      expect(res.status).toBe(200);
      expect(res.body.code).toBe(0);
      expect(idsOf(res)).toEqual([newer, older]);
      expect(res.body.pagination).toEqual({ page: 1, per_page: 15, previous: null, next: null, total: 2, pages: 1 });
      expect(res.body.data[0]).toEqual({
        comment_id: newer,
        commentable_id: id,
        commentable_type: target.type,
        user_id: author.user_id,
        content: "a comment",
        reply_count: 0,
        vote_count: 0,
        vote_up_count: 0,
        vote_down_count: 0,
        create_time: T + 2,
        update_time: T + 2,
        relationships: { user: userSummary(author), voting: "" },
      });
    });

    it("orders by vote_count and create_time, and by delete_time for administrators only", async () => {
      const author = await createUser();
      const admin = await createAdmin();
      const id = await target.create(author);
      const b = await createComment(author.user_id, target.type, id, { create_time: T + 2 });
      const a = await createComment(author.user_id, target.type, id, { create_time: T + 1 });
      await setComment(a, { vote_count: 3 });
      expect(idsOf(await get(target.path(id), { query: { order: "create_time" } }))).toEqual([a, b]);
      expect(idsOf(await get(target.path(id), { query: { order: "-vote_count" } }))).toEqual([a, b]);
      expect(idsOf(await get(target.path(id), { query: { order: "vote_count" } }))).toEqual([b, a]);
      // delete_time ties (all live) fall back to the id; others get the default order.
      expect(idsOf(await get(target.path(id), { token: admin.token, query: { order: "delete_time" } }))).toEqual([
        b,
        a,
      ]);
      expect(idsOf(await get(target.path(id), { token: author.token, query: { order: "delete_time" } }))).toEqual([
        b,
        a,
      ]);
      expect(idsOf(await get(target.path(id), { token: author.token, query: { order: "-delete_time" } }))).toEqual([
        b,
        a,
      ]);
      expect(idsOf(await get(target.path(id), { token: admin.token, query: { order: "-delete_time" } }))).toEqual([
        a,
        b,
      ]);
    });

    it(`answers ${target.notFound} for a missing or trashed ${target.type}, and 200001 for an id that is not one`, async () => {
      const author = await createUser();
      const admin = await createAdmin();
      const id = await target.create(author);
      await trashTarget(id);
      for (const path of [target.path(987654), target.path(id)]) {
        const res = await get(path, { token: admin.token });
        expect(res.status).toBe(404);
        expect(res.body.code).toBe(target.notFound);
      }
      const bad = await get(target.path("x1"));
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe(200001);
      expect(Object.keys(bad.body.errors)).toEqual([target.param]);
    });

    it("holds the read budget for a full page with every include", async () => {
      const author = await createUser();
      const reader = await createUser();
      const id = await target.create(author);
      const inserts = Array.from({ length: 110 }, (_, i) =>
        env.DB.prepare(
          "INSERT INTO comments (commentable_id, commentable_type, user_id, content, create_time, update_time) VALUES (?, ?, ?, ?, ?, ?)",
        ).bind(id, target.type, author.user_id, `comment ${i}`, T + i, T + i),
      );
      await env.DB.batch(inserts);
      const ids = await env.DB.prepare(
        "SELECT comment_id AS id FROM comments WHERE commentable_type = ? AND commentable_id = ?",
      )
        .bind(target.type, id)
        .all<{ id: number }>();
      await env.DB.batch(
        ids.results.map(({ id: commentId }) =>
          env.DB.prepare(
            "INSERT INTO votes (user_id, votable_id, votable_type, type, create_time) VALUES (?, ?, 'comment', 'down', ?)",
          ).bind(reader.user_id, commentId, T),
        ),
      );
      const res = await get(target.path(id), { token: reader.token, query: { per_page: 100, include: "user,voting" } });
      expect(res.status).toBe(200);
      expect(res.roundTrips).toBeLessThanOrEqual(1);
      expect(res.body.data).toHaveLength(100);
      expect(res.body.pagination.total).toBe(110);
      for (const comment of res.body.data)
        expect(comment.relationships).toEqual({ user: userSummary(author), voting: "down" });
    });
  });

  describe(`POST ${target.path(`{${target.param}}`)}`, () => {
    it("refuses an anonymous caller with 201001, before the target and the body", async () => {
      const res = await post(target.path(987654), { body: {} });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(201001);
    });

    it("refuses a disabled user's token with 201001", async () => {
      const user = await createUser();
      const id = await target.create(user);
      await disableInDb(user);
      const res = await post(target.path(id), { token: user.token, body: { content: "hello" } });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(201001);
    });

    it("posts a comment, counts it on the target without moving its update_time, within the write budget", async () => {
      const author = await createUser();
      const commenter = await createUser();
      const id = await target.create(author);
      const before = await targetRow(id);
      const res = await post(target.path(id), {
        token: commenter.token,
        query: { include: "user,voting" },
        body: { content: '  <b>"Tom & Jerry"</b>  ' },
      });
      expect(res.status).toBe(200);
      expect(res.body.code).toBe(0);
      expect(res.roundTrips).toBeLessThanOrEqual(2);
      const data = res.body.data;
      expect(data).toEqual({
        comment_id: expect.any(Number),
        commentable_id: id,
        commentable_type: target.type,
        user_id: commenter.user_id,
        // Trimmed, and stored and returned as written: no HTML escaping (docs/decisions.md#wire-format).
        content: '<b>"Tom & Jerry"</b>',
        reply_count: 0,
        vote_count: 0,
        vote_up_count: 0,
        vote_down_count: 0,
        create_time: expect.any(Number),
        update_time: data.create_time,
        relationships: { user: userSummary(commenter), voting: "" },
      });
      const after = await targetRow(id);
      expect(after[target.counter]).toBe((before[target.counter] ?? 0) + 1);
      expect(after.update_time).toBe(before.update_time);
      const stored = await row<{ content: string }>("comments", "comment_id", data.comment_id);
      expect(stored.content).toBe('<b>"Tom & Jerry"</b>');
    });

    it("counts every comment exactly", async () => {
      const author = await createUser();
      const id = await target.create(author);
      const before = (await targetRow(id))[target.counter] ?? 0;
      for (const content of ["one", "two", "three"])
        expect((await post(target.path(id), { token: author.token, body: { content } })).status).toBe(200);
      expect((await targetRow(id))[target.counter]).toBe(before + 3);
      expect(idsOf(await get(target.path(id)))).toHaveLength(3);
    });

    it("shows delete_time to an administrator only", async () => {
      const author = await createUser();
      const admin = await createAdmin();
      const id = await target.create(author);
      const res = await post(target.path(id), { token: admin.token, body: { content: "from the admin" } });
      expect(res.status).toBe(200);
      expect(res.body.data.delete_time).toBe(0);
      expect(res.body.data).not.toHaveProperty("relationships");
    });

    it(`answers ${target.notFound} for a missing or trashed ${target.type} before looking at the body`, async () => {
      const author = await createUser();
      const id = await target.create(author);
      await trashTarget(id);
      const before = await commentRows();
      for (const path of [target.path(987654), target.path(id)]) {
        const res = await post(path, { token: author.token, body: { content: "" } });
        expect(res.status).toBe(404);
        expect(res.body.code).toBe(target.notFound);
      }
      expect(await commentRows()).toBe(before);
    });

    it(`answers 200001 naming ${target.param} for an id that is not one`, async () => {
      const user = await createUser();
      const res = await post(target.path("1e3"), { token: user.token, body: { content: "hello" } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(200001);
      expect(Object.keys(res.body.errors)).toEqual([target.param]);
    });

    it.each([
      ["missing", {}],
      ["empty", { content: "" }],
      ["only spaces", { content: "   \n " }],
      ["1001 characters", { content: "x".repeat(1001) }],
      ["not a string", { content: 42 }],
    ])("refuses content that is %s with 200001 on content", async (_, body) => {
      const author = await createUser();
      const id = await target.create(author);
      const before = await commentRows();
      const res = await post(target.path(id), { token: author.token, body });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(200001);
      expect(Object.keys(res.body.errors)).toEqual(["content"]);
      expect(await commentRows()).toBe(before);
    });

    it("accepts 1000 characters counted as code points", async () => {
      const author = await createUser();
      const id = await target.create(author);
      const content = "😀".repeat(1000);
      const res = await post(target.path(id), { token: author.token, body: { content } });
      expect(res.status).toBe(200);
      expect(res.body.data.content).toBe(content);
    });
  });
});

describe("POST /api/articles/{article_id}/comments (spec operation 4)", () => {
  it("answers the Comment field for field with its relationships", async () => {
    const author = await createUser();
    const commenter = await createUser();
    const article = await createArticle(author.user_id);
    const res = await post(`/api/articles/${article}/comments`, {
      token: commenter.token,
      query: { include: "user,voting" },
      body: { content: "Nice article" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      code: 0,
      data: {
        comment_id: expect.any(Number),
        commentable_id: article,
        commentable_type: "article",
        user_id: commenter.user_id,
        content: "Nice article",
        reply_count: 0,
        vote_count: 0,
        vote_up_count: 0,
        vote_down_count: 0,
        create_time: expect.any(Number),
        update_time: res.body.data.create_time,
        relationships: { user: userSummary(commenter), voting: "" },
      },
    });
    expect(Math.abs(res.body.data.create_time - now())).toBeLessThanOrEqual(2);
    expect((await row<{ comment_count: number }>("articles", "article_id", article)).comment_count).toBe(1);
  });
});

describe("replies", () => {
  it("nest without limit, each level counting its own replies", async () => {
    const user = await createUser();
    const article = await createArticle(user.user_id);
    const top = (await post(`/api/articles/${article}/comments`, { token: user.token, body: { content: "top" } })).body
      .data.comment_id;
    const reply = (await post(`/api/comments/${top}/replies`, { token: user.token, body: { content: "reply" } })).body
      .data;
    expect(reply.commentable_type).toBe("comment");
    expect(reply.commentable_id).toBe(top);
    const deeper = (
      await post(`/api/comments/${reply.comment_id}/replies`, { token: user.token, body: { content: "deeper" } })
    ).body.data;
    expect(deeper.commentable_id).toBe(reply.comment_id);
    expect((await get(`/api/comments/${top}`)).body.data.reply_count).toBe(1);
    expect((await get(`/api/comments/${reply.comment_id}`)).body.data.reply_count).toBe(1);
    // Replies are not comments of the article.
    expect((await row<{ comment_count: number }>("articles", "article_id", article)).comment_count).toBe(1);
    expect(idsOf(await get(`/api/articles/${article}/comments`))).toEqual([top]);
    expect(idsOf(await get(`/api/comments/${top}/replies`))).toEqual([reply.comment_id]);
  });
});

describe("GET /api/comments/{comment_id} (spec operation 5)", () => {
  it("answers the Comment field for field, with voting '' for an anonymous caller", async () => {
    const author = await createUser();
    const question = await createQuestion(author.user_id);
    const id = await createComment(author.user_id, "question", question, { create_time: T, content: "Why & how?" });
    const res = await get(`/api/comments/${id}`, { query: { include: "user,voting" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      code: 0,
      data: {
        comment_id: id,
        commentable_id: question,
        commentable_type: "question",
        user_id: author.user_id,
        content: "Why & how?",
        reply_count: 0,
        vote_count: 0,
        vote_up_count: 0,
        vote_down_count: 0,
        create_time: T,
        update_time: T,
        relationships: { user: userSummary(author), voting: "" },
      },
    });
  });

  it("gives the caller's vote, '' when they have not voted, within the read budget", async () => {
    const author = await createUser();
    const voter = await createUser();
    const id = await createComment(author.user_id, "article", await createArticle(author.user_id));
    await vote(voter, id, "up");
    const voted = await get(`/api/comments/${id}`, { token: voter.token, query: { include: "voting" } });
    expect(voted.status).toBe(200);
    expect(voted.roundTrips).toBeLessThanOrEqual(1);
    expect(voted.body.data.relationships).toEqual({ voting: "up" });
    const notVoted = await get(`/api/comments/${id}`, { token: author.token, query: { include: "voting" } });
    expect(notVoted.body.data.relationships).toEqual({ voting: "" });
    // A disabled user's token no longer works: they read as an anonymous caller.
    await disableInDb(voter);
    const disabled = await get(`/api/comments/${id}`, { token: voter.token, query: { include: "voting" } });
    expect(disabled.status).toBe(200);
    expect(disabled.body.data.relationships).toEqual({ voting: "" });
    const none = await get(`/api/comments/${id}`, { token: author.token, query: { include: "nothing" } });
    expect(none.body.data).not.toHaveProperty("relationships");
    expect(none.body.data).not.toHaveProperty("delete_time");
  });

  it("hides a trashed comment with 204001 from everyone but administrators, who see delete_time", async () => {
    const author = await createUser();
    const admin = await createAdmin();
    const id = await createComment(author.user_id, "article", await createArticle(author.user_id));
    expect((await get(`/api/comments/${id}`, { token: admin.token })).body.data.delete_time).toBe(0);
    await setComment(id, { delete_time: T });
    for (const token of [undefined, author.token]) {
      const res = await get(`/api/comments/${id}`, { token });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(204001);
    }
    const res = await get(`/api/comments/${id}`, { token: admin.token, query: { include: "user" } });
    expect(res.status).toBe(200);
    expect(res.body.data.delete_time).toBe(T);
    expect(res.body.data.relationships).toEqual({ user: userSummary(author) });
  });

  it("answers 204001 for a missing comment and 200001 for an id that is not one", async () => {
    const missing = await get("/api/comments/987654");
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe(204001);
    const bad = await get("/api/comments/abc");
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(200001);
    expect(Object.keys(bad.body.errors)).toEqual(["comment_id"]);
  });
});

describe("PATCH /api/comments/{comment_id}", () => {
  const allowEdits = () => setOptions({ comment_can_edit: true });
  const newComment = async (user: TestUser, fields: { create_time?: number } = {}) =>
    createComment(user.user_id, "article", await createArticle(user.user_id), { create_time: T, ...fields });

  it("refuses anonymous callers and disabled users' tokens with 201001", async () => {
    const author = await createUser();
    const id = await newComment(author);
    expect((await patch(`/api/comments/${id}`, { body: { content: "edit" } })).body.code).toBe(201001);
    await disableInDb(author);
    const res = await patch(`/api/comments/${id}`, { token: author.token, body: { content: "edit" } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(201001);
  });

  it("answers 204001 for a missing or trashed comment, for administrators too, before looking at the body", async () => {
    const admin = await createAdmin();
    const id = await newComment(admin);
    await setComment(id, { delete_time: T });
    for (const path of ["/api/comments/987654", `/api/comments/${id}`]) {
      const res = await patch(path, { token: admin.token, body: { content: 5 } });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(204001);
    }
  });

  it("refuses someone else with 204003 before looking at the body", async () => {
    await allowEdits();
    const author = await createUser();
    const other = await createUser();
    const id = await newComment(author);
    const res = await patch(`/api/comments/${id}`, { token: other.token, body: { content: "" } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(204003);
  });

  it("refuses the author with 204002 while comment_can_edit is off (the default)", async () => {
    const author = await createUser();
    const id = await newComment(author);
    const res = await patch(`/api/comments/${id}`, { token: author.token, body: { content: "edit" } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(204002);
  });

  it("refuses the author with 204004 after comment_can_edit_before seconds", async () => {
    await setOptions({ comment_can_edit: true, comment_can_edit_before: 60 });
    const author = await createUser();
    const late = await newComment(author, { create_time: now() - 120 });
    const res = await patch(`/api/comments/${late}`, { token: author.token, body: { content: "edit" } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(204004);
    const early = await newComment(author, { create_time: now() - 5 });
    expect((await patch(`/api/comments/${early}`, { token: author.token, body: { content: "edit" } })).status).toBe(
      200,
    );
  });

  it("lets the author edit, which moves update_time, within the write budget", async () => {
    await allowEdits();
    const author = await createUser();
    const id = await newComment(author);
    const res = await patch(`/api/comments/${id}`, {
      token: author.token,
      query: { include: "user,voting" },
      body: { content: "  <i>edited</i> " },
    });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    expect(res.body.data).toMatchObject({
      comment_id: id,
      content: "<i>edited</i>",
      create_time: T,
      relationships: { user: userSummary(author), voting: "" },
    });
    expect(res.body.data.update_time).toBeGreaterThan(T);
  });

  it("changes nothing without content", async () => {
    await allowEdits();
    const author = await createUser();
    const id = await newComment(author);
    const res = await patch(`/api/comments/${id}`, { token: author.token, body: {} });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ content: "a comment", update_time: T });
  });

  it.each([
    ["empty", { content: " " }],
    ["1001 characters", { content: "y".repeat(1001) }],
    ["null", { content: null }],
  ])("refuses content that is %s with 200001 on content, after the checks", async (_, body) => {
    await allowEdits();
    const author = await createUser();
    const id = await newComment(author);
    const res = await patch(`/api/comments/${id}`, { token: author.token, body });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(200001);
    expect(Object.keys(res.body.errors)).toEqual(["content"]);
    expect((await row<{ content: string }>("comments", "comment_id", id)).content).toBe("a comment");
  });

  it("lets an administrator edit anyone's comment whatever the settings", async () => {
    const author = await createUser();
    const admin = await createAdmin();
    const id = await newComment(author);
    const res = await patch(`/api/comments/${id}`, { token: admin.token, body: { content: "moderated" } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ content: "moderated", delete_time: 0 });
  });
});

describe("GET /api/comments (administrators)", () => {
  it("refuses anonymous callers with 201001 and other users with 201002", async () => {
    const user = await createUser();
    const anonymous = await get("/api/comments");
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe(201001);
    const normal = await get("/api/comments", { token: user.token });
    expect(normal.status).toBe(403);
    expect(normal.body.code).toBe(201002);
    const admin = await createAdmin();
    await disableInDb(admin);
    expect((await get("/api/comments", { token: admin.token })).body.code).toBe(201001);
  });

  it("lists every live comment newest first, with the filters and the trash", async () => {
    const admin = await createAdmin();
    const [alice, bob] = [await createUser(), await createUser()];
    const article = await createArticle(alice.user_id);
    const question = await createQuestion(alice.user_id);
    const a1 = await createComment(alice.user_id, "article", article, { create_time: T + 1 });
    const b1 = await createComment(bob.user_id, "question", question, { create_time: T + 2 });
    const r1 = await createComment(bob.user_id, "comment", a1, { create_time: T + 3 });
    const trashed = await createComment(alice.user_id, "article", article, { create_time: T + 4 });
    await setComment(trashed, { delete_time: T + 10 });
    const list = (query: Record<string, string | number>) => get("/api/comments", { token: admin.token, query });
    const all = await list({});
    expect(all.status).toBe(200);
    expect(all.roundTrips).toBeLessThanOrEqual(1);
    expect(idsOf(all)).toEqual([r1, b1, a1]);
    expect(all.body.data[0].delete_time).toBe(0);
    expect(idsOf(await list({ user_id: bob.user_id }))).toEqual([r1, b1]);
    expect(idsOf(await list({ commentable_type: "comment" }))).toEqual([r1]);
    expect(idsOf(await list({ commentable_type: "article", commentable_id: article }))).toEqual([a1]);
    expect(idsOf(await list({ comment_id: b1 }))).toEqual([b1]);
    expect(idsOf(await list({ trashed: "true" }))).toEqual([trashed]);
    expect(idsOf(await list({ order: "create_time" }))).toEqual([a1, b1, r1]);
    await setComment(a1, { delete_time: T + 20 });
    expect(idsOf(await list({ trashed: "true", order: "-delete_time" }))).toEqual([a1, trashed]);
    expect(idsOf(await list({ trashed: "true", order: "delete_time" }))).toEqual([trashed, a1]);
  });

  it("refuses a bad filter with 200001 naming it", async () => {
    const admin = await createAdmin();
    for (const [name, value] of [
      ["commentable_type", "topic"],
      ["user_id", "me"],
    ]) {
      const res = await get("/api/comments", { token: admin.token, query: { [name!]: value } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(200001);
      expect(Object.keys(res.body.errors)).toEqual([name]);
    }
  });
});

describe("GET /api/users/{user_id}/comments and /api/user/comments", () => {
  it("lists a user's live comments and replies, newest first", async () => {
    const user = await createUser();
    const other = await createUser();
    const article = await createArticle(other.user_id);
    const comment = await createComment(user.user_id, "article", article, { create_time: T });
    const reply = await createComment(user.user_id, "comment", comment, { create_time: T + 1 });
    await createComment(other.user_id, "article", article);
    const trashed = await createComment(user.user_id, "article", article);
    await setComment(trashed, { delete_time: T });
    const res = await get(`/api/users/${user.user_id}/comments`, { query: { include: "user" } });
    expect(res.status).toBe(200);
    expect(res.roundTrips).toBeLessThanOrEqual(1);
    expect(idsOf(res)).toEqual([reply, comment]);
    expect(res.body.data[1].relationships).toEqual({ user: userSummary(user) });
    expect(idsOf(await get(`/api/users/${user.user_id}/comments`, { query: { order: "create_time" } }))).toEqual([
      comment,
      reply,
    ]);
    const mine = await get("/api/user/comments", { token: user.token });
    expect(mine.status).toBe(200);
    expect(idsOf(mine)).toEqual([reply, comment]);
  });

  it("answers 201003 for a missing user and 201001 for an anonymous or disabled /user call", async () => {
    const missing = await get("/api/users/987654/comments");
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe(201003);
    expect((await get("/api/user/comments")).body.code).toBe(201001);
    const user = await createUser();
    await disableInDb(user);
    const disabled = await get("/api/user/comments", { token: user.token });
    expect(disabled.status).toBe(401);
    expect(disabled.body.code).toBe(201001);
  });
});

describe("the OpenAPI document", () => {
  it("lists the comment routes", async () => {
    const res = await get("/api/openapi.json");
    const paths = res.body.paths as Record<string, Record<string, unknown>>;
    const routes = Object.entries(paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const family = [
      "questions/{question_id}/comments",
      "answers/{answer_id}/comments",
      "articles/{article_id}/comments",
      "comments/{comment_id}/replies",
    ];
    expect(routes).toEqual(
      expect.arrayContaining([
        ...family.flatMap((path) => [`GET /api/${path}`, `POST /api/${path}`]),
        "GET /api/comments",
        "GET /api/comments/{comment_id}",
        "PATCH /api/comments/{comment_id}",
        "GET /api/users/{user_id}/comments",
        "GET /api/user/comments",
      ]),
    );
    expect(res.body.components.schemas.Comment.properties).toHaveProperty("reply_count");
  });
});

/**
 * Answers (spec operation 2, docs/operations.md#answers, docs/operations.md#users, docs/counters.md,
 * docs/permissions.md#author-edit-and-delete-rules): answering field for field with every counter a new answer moves,
 * editing under the site's permission rules, records and lists with trashed answers hidden from all but administrators,
 * and the D1 round-trip budget.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { now } from "../src/lib/time";
import { get, patch, post } from "./helpers/api";
import { createAnswer, createComment, createQuestion, row } from "./helpers/content";
import { createAdmin, createUser, setOptions, type TestUser } from "./helpers/factories";

const ANSWER_FIELDS = [
  "answer_id",
  "question_id",
  "user_id",
  "content_markdown",
  "content_rendered",
  "comment_count",
  "vote_count",
  "vote_up_count",
  "vote_down_count",
  "create_time",
  "update_time",
];
const ALL_INCLUDES = "user,question,voting";

async function disableInDb(user: TestUser): Promise<void> {
  await env.DB.prepare("UPDATE users SET disable_time = ? WHERE user_id = ?").bind(now(), user.user_id).run();
}

/** Trash routes belong to another module: trashed state is set straight in D1. */
async function trash(table: "questions" | "answers", idColumn: string, id: number, time = now()): Promise<void> {
  await env.DB.prepare(`UPDATE ${table} SET delete_time = ? WHERE ${idColumn} = ?`).bind(time, id).run();
}

async function setAnswer(id: number, fields: Record<string, number>): Promise<void> {
  const sets = Object.keys(fields).map((name) => `${name} = ?`);
  await env.DB.prepare(`UPDATE answers SET ${sets.join(", ")} WHERE answer_id = ?`)
    .bind(...Object.values(fields), id)
    .run();
}

async function answerCount(): Promise<number> {
  return (await env.DB.prepare("SELECT count(*) AS n FROM answers").first<number>("n")) ?? 0;
}

const ids = (res: { body: { data: { answer_id: number }[] } }) => res.body.data.map((a) => a.answer_id);

/** 100 answers to one question straight into D1 in one batch, with distinct times. */
async function createManyAnswers(userId: number, questionId: number, count = 100): Promise<number[]> {
  const results = await env.DB.batch(
    Array.from({ length: count }, (_, i) =>
      env.DB.prepare(
        "INSERT INTO answers (question_id, user_id, content_rendered, create_time, update_time) VALUES (?, ?, '<p>a</p>', ?, ?) RETURNING answer_id",
      ).bind(questionId, userId, i + 1, i + 1),
    ),
  );
  return results.map((r) => (r.results[0] as { answer_id: number }).answer_id);
}

describe("POST /api/questions/{question_id}/answers", () => {
  it("refuses anonymous and disabled callers with 201001 before anything else", async () => {
    const asker = await createUser();
    const question = await createQuestion(asker.user_id);
    const disabled = await createUser();
    await disableInDb(disabled);
    for (const [id, token] of [
      [question, undefined],
      [question, disabled.token],
      [999999, undefined],
    ] as const) {
      const res = await post(`/api/questions/${id}/answers`, { token, body: { content_markdown: 5 } });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(201001);
    }
    expect(await answerCount()).toBe(0);
  });

  it("answers with the spec's Answer, field for field, and moves every counter in one write", async () => {
    const asker = await createUser();
    const answerer = await createUser();
    const asked = now() - 1000;
    const question = await createQuestion(asker.user_id, { title: "Why is the sky blue?", create_time: asked });
    const before = now();
    const res = await post(`/api/questions/${question}/answers`, {
      token: answerer.token,
      body: { content_markdown: "Rayleigh *scattering*." },
      query: { include: ALL_INCLUDES },
    });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    const answer = res.body.data;
    expect(Object.keys(answer).sort()).toEqual([...ANSWER_FIELDS, "relationships"].sort());
    expect(answer).toEqual({
      answer_id: expect.any(Number),
      question_id: question,
      user_id: answerer.user_id,
      content_markdown: "Rayleigh *scattering*.",
      content_rendered: "<p>Rayleigh <em>scattering</em>.</p>",
      comment_count: 0,
      vote_count: 0,
      vote_up_count: 0,
      vote_down_count: 0,
      create_time: expect.any(Number),
      update_time: answer.create_time,
      relationships: {
        user: {
          user_id: answerer.user_id,
          username: answerer.username,
          headline: "",
          avatar: {
            original: expect.any(String),
            small: expect.any(String),
            middle: expect.any(String),
            large: expect.any(String),
          },
        },
        question: {
          question_id: question,
          title: "Why is the sky blue?",
          create_time: asked,
          update_time: answer.create_time,
        },
        voting: "",
      },
    });
    expect(answer.create_time).toBeGreaterThanOrEqual(before);
    expect(res.roundTrips).toBeLessThanOrEqual(2);

    expect(await row("questions", "question_id", question)).toMatchObject({
      answer_count: 1,
      last_answer_time: answer.create_time,
      update_time: answer.create_time,
      create_time: asked,
    });
    expect((await row("users", "user_id", answerer.user_id)).answer_count).toBe(1);
    expect(await row("users", "user_id", asker.user_id)).toMatchObject({ answer_count: 0, question_count: 1 });
    expect(await row("answers", "answer_id", answer.answer_id)).toMatchObject({
      question_id: question,
      user_id: answerer.user_id,
      delete_time: 0,
    });
  });

  it("answers no relationships without include, and delete_time to an administrator", async () => {
    const asker = await createUser();
    const question = await createQuestion(asker.user_id);
    const user = await post(`/api/questions/${question}/answers`, {
      token: asker.token,
      body: { content_markdown: "mine" },
    });
    expect(user.status).toBe(200);
    expect(user.body.data).not.toHaveProperty("relationships");
    expect(user.body.data).not.toHaveProperty("delete_time");
    const admin = await createAdmin();
    const res = await post(`/api/questions/${question}/answers`, {
      token: admin.token,
      body: { content_rendered: "<p>admin</p>" },
    });
    expect(res.body.data.delete_time).toBe(0);
  });

  it("lets anyone answer any number of times, their own question included, counting each", async () => {
    const asker = await createUser();
    const question = await createQuestion(asker.user_id);
    for (let i = 0; i < 3; i += 1) {
      const res = await post(`/api/questions/${question}/answers`, {
        token: asker.token,
        body: { content_markdown: `answer ${i}` },
      });
      expect(res.status).toBe(200);
    }
    expect((await row("questions", "question_id", question)).answer_count).toBe(3);
    expect(await row("users", "user_id", asker.user_id)).toMatchObject({ answer_count: 3, question_count: 1 });
  });

  it("takes markdown when both are sent, and converts sanitised HTML when it is the only content", async () => {
    const asker = await createUser();
    const question = await createQuestion(asker.user_id);
    const both = await post(`/api/questions/${question}/answers`, {
      token: asker.token,
      body: { content_markdown: "**md**", content_rendered: "<p>html</p>" },
    });
    expect(both.body.data).toMatchObject({
      content_markdown: "**md**",
      content_rendered: "<p><strong>md</strong></p>",
    });
    const html = await post(`/api/questions/${question}/answers`, {
      token: asker.token,
      body: {
        content_rendered: '<h2>Title</h2><p><a href="javascript:alert(1)">x</a> <img src=x onerror=alert(1)></p>',
      },
    });
    expect(html.status).toBe(200);
    expect(html.body.data.content_markdown).toContain("## Title");
    expect(html.body.data.content_rendered).not.toMatch(/javascript:|onerror/);
  });

  it("answers 202001 for a missing or trashed question, before looking at the body", async () => {
    const asker = await createUser();
    const trashed = await createQuestion(asker.user_id, { delete_time: now() });
    const admin = await createAdmin();
    for (const [id, token] of [
      [trashed, asker.token],
      [trashed, admin.token],
      [999999, asker.token],
    ] as const) {
      const res = await post(`/api/questions/${id}/answers`, { token, body: { content_markdown: 5 } });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(202001);
    }
    expect(await answerCount()).toBe(0);
    expect((await row("questions", "question_id", trashed)).answer_count).toBe(0);
  });

  it.each([
    ["an empty body", undefined, ["content_markdown", "content_rendered"]],
    ["blank content", { content_markdown: " \n ", content_rendered: "" }, ["content_markdown", "content_rendered"]],
    ["HTML with no text", { content_rendered: "<script>alert(1)</script>" }, ["content_markdown", "content_rendered"]],
    ["content that is not a string", { content_markdown: ["x"] }, ["content_markdown"]],
    ["a body that is not an object", "text", ["body"]],
  ])("refuses %s with 200001 naming the fields, writing nothing", async (_, body, fields) => {
    const asker = await createUser();
    const created = now() - 100;
    const question = await createQuestion(asker.user_id, { create_time: created });
    const res = await post(`/api/questions/${question}/answers`, { token: asker.token, body });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(200001);
    expect(Object.keys(res.body.errors).sort()).toEqual(fields);
    expect(await answerCount()).toBe(0);
    expect(await row("questions", "question_id", question)).toMatchObject({
      answer_count: 0,
      last_answer_time: 0,
      update_time: created,
    });
  });

  it("answers 200001 naming question_id for an id that is not one", async () => {
    const user = await createUser();
    const res = await post("/api/questions/x/answers", { token: user.token, body: { content_markdown: "x" } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(200001);
    expect(Object.keys(res.body.errors)).toEqual(["question_id"]);
  });
});

describe("GET /api/questions/{question_id}/answers", () => {
  async function threeAnswers() {
    const asker = await createUser();
    const question = await createQuestion(asker.user_id);
    const time = now() - 1000;
    const a = await createAnswer(asker.user_id, question, { create_time: time });
    const b = await createAnswer(asker.user_id, question, { create_time: time + 10 });
    const c = await createAnswer(asker.user_id, question, { create_time: time + 20 });
    await setAnswer(a, { update_time: time + 30, vote_count: 3 });
    await setAnswer(b, { vote_count: -2 });
    await setAnswer(c, { vote_count: 3 });
    await createAnswer(asker.user_id, question, { delete_time: now() });
    await createAnswer(asker.user_id, await createQuestion(asker.user_id));
    return { asker, question, a, b, c };
  }

  it("lists the question's live answers by -create_time by default, for anyone", async () => {
    const { asker, question, a, b, c } = await threeAnswers();
    const disabled = await createUser();
    await disableInDb(disabled);
    for (const token of [undefined, asker.token, disabled.token]) {
      const res = await get(`/api/questions/${question}/answers`, { token });
      expect(res.status).toBe(200);
      expect(res.body.code).toBe(0);
      expect(ids(res)).toEqual([c, b, a]);
      expect(res.body.data[0]).not.toHaveProperty("delete_time");
      expect(res.body.pagination).toEqual({ page: 1, per_page: 15, previous: null, next: null, total: 3, pages: 1 });
    }
  });

  it("orders by each allowed field both ways, ties broken by id; delete_time for administrators only", async () => {
    const { question, a, b, c } = await threeAnswers();
    const orders: [string, number[]][] = [
      ["create_time", [a, b, c]],
      ["update_time", [b, c, a]],
      ["-update_time", [a, c, b]],
      ["vote_count", [b, a, c]],
      ["-vote_count", [c, a, b]],
      ["delete_time", [c, b, a]],
    ];
    for (const [order, expected] of orders)
      expect(ids(await get(`/api/questions/${question}/answers`, { query: { order } })), order).toEqual(expected);
    const admin = await createAdmin();
    const byDelete = await get(`/api/questions/${question}/answers`, {
      token: admin.token,
      query: { order: "-delete_time" },
    });
    expect(ids(byDelete)).toEqual([c, b, a]);
    expect(byDelete.body.data[0].delete_time).toBe(0);
  });

  it("answers 202001 for a missing or trashed question", async () => {
    const asker = await createUser();
    const trashed = await createQuestion(asker.user_id, { delete_time: now() });
    for (const id of [trashed, 999999]) {
      const res = await get(`/api/questions/${id}/answers`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(202001);
    }
  });

  it("holds the read budget for a page of 100 with every include", async () => {
    const asker = await createUser();
    const question = await createQuestion(asker.user_id, { title: "Many answers" });
    const created = await createManyAnswers(asker.user_id, question);
    await env.DB.prepare("INSERT INTO votes (user_id, votable_id, votable_type, type) VALUES (?, ?, 'answer', 'up')")
      .bind(asker.user_id, created[99])
      .run();
    const res = await get(`/api/questions/${question}/answers`, {
      token: asker.token,
      query: { per_page: 100, include: ALL_INCLUDES },
    });
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([...created].reverse());
    expect(res.body.data[0].relationships).toMatchObject({
      user: { user_id: asker.user_id },
      question: { question_id: question, title: "Many answers" },
      voting: "up",
    });
    expect(res.body.data[1].relationships.voting).toBe("");
    expect(res.roundTrips).toBeLessThanOrEqual(1);
  });
});

describe("GET /api/answers/{answer_id}", () => {
  it("answers the answer to anyone, with the caller's vote, within the read budget", async () => {
    const asker = await createUser();
    const viewer = await createUser();
    const question = await createQuestion(asker.user_id);
    const id = await createAnswer(asker.user_id, question, { content_markdown: "hello" });
    await env.DB.prepare("INSERT INTO votes (user_id, votable_id, votable_type, type) VALUES (?, ?, 'answer', 'down')")
      .bind(viewer.user_id, id)
      .run();
    const res = await get(`/api/answers/${id}`, { token: viewer.token, query: { include: `${ALL_INCLUDES},topics` } });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(Object.keys(res.body.data).sort()).toEqual([...ANSWER_FIELDS, "relationships"].sort());
    expect(res.body.data).toMatchObject({ answer_id: id, question_id: question, content_markdown: "hello" });
    expect(Object.keys(res.body.data.relationships).sort()).toEqual(["question", "user", "voting"]);
    expect(res.body.data.relationships.voting).toBe("down");
    expect(res.roundTrips).toBeLessThanOrEqual(1);
    const anonymous = await get(`/api/answers/${id}`, { query: { include: "voting" } });
    expect(anonymous.body.data.relationships).toEqual({ voting: "" });
  });

  it("treats a disabled user's token as anonymous", async () => {
    const asker = await createUser();
    const id = await createAnswer(asker.user_id, await createQuestion(asker.user_id));
    await env.DB.prepare("INSERT INTO votes (user_id, votable_id, votable_type, type) VALUES (?, ?, 'answer', 'up')")
      .bind(asker.user_id, id)
      .run();
    await disableInDb(asker);
    const res = await get(`/api/answers/${id}`, { token: asker.token, query: { include: "voting" } });
    expect(res.status).toBe(200);
    expect(res.body.data.relationships).toEqual({ voting: "" });
  });

  it("answers a trashed question as null", async () => {
    const asker = await createUser();
    const question = await createQuestion(asker.user_id);
    const id = await createAnswer(asker.user_id, question);
    await trash("questions", "question_id", question);
    const res = await get(`/api/answers/${id}`, { query: { include: "question" } });
    expect(res.status).toBe(200);
    expect(res.body.data.relationships).toEqual({ question: null });
  });

  it("answers 203001 for a trashed answer to everyone but administrators, who see delete_time", async () => {
    const asker = await createUser();
    const time = now() - 7;
    const id = await createAnswer(asker.user_id, await createQuestion(asker.user_id), { delete_time: time });
    for (const token of [undefined, asker.token]) {
      const res = await get(`/api/answers/${id}`, { token });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(203001);
    }
    const admin = await createAdmin();
    const res = await get(`/api/answers/${id}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.data.delete_time).toBe(time);
  });

  it("answers 203001 for a missing answer and 200001 naming answer_id for a bad id", async () => {
    const missing = await get("/api/answers/999999");
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe(203001);
    const bad = await get("/api/answers/0");
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(["answer_id"]);
  });
});

describe("PATCH /api/answers/{answer_id}", () => {
  const editable = { answer_can_edit: true, answer_can_edit_before: 0, answer_can_edit_only_no_comment: true };

  it("refuses anonymous and disabled callers with 201001 before anything else", async () => {
    const author = await createUser();
    const id = await createAnswer(author.user_id, await createQuestion(author.user_id));
    await disableInDb(author);
    for (const token of [undefined, author.token]) {
      const res = await patch(`/api/answers/${id}`, { token, body: { content_markdown: 5 } });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(201001);
    }
  });

  it("answers 203001 for a missing or trashed answer, administrators included, before the body", async () => {
    const author = await createUser();
    const admin = await createAdmin();
    const trashed = await createAnswer(author.user_id, await createQuestion(author.user_id), { delete_time: now() });
    for (const [id, token] of [
      [trashed, author.token],
      [trashed, admin.token],
      [999999, admin.token],
    ] as const) {
      const res = await patch(`/api/answers/${id}`, { token, body: { content_markdown: 5 } });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(203001);
    }
  });

  it("refuses each rule's case with its code, before looking at the body", async () => {
    const author = await createUser();
    const other = await createUser();
    const question = await createQuestion(other.user_id);
    const fresh = await createAnswer(author.user_id, question);
    const old = await createAnswer(author.user_id, question, { create_time: now() - 120 });
    const commented = await createAnswer(author.user_id, question);
    await createComment(other.user_id, "answer", commented);
    const refusal = async (id: number, token: string) => {
      const res = await patch(`/api/answers/${id}`, { token, body: { content_markdown: 5 } });
      expect(res.status).toBe(403);
      return res.body.code;
    };

    expect(await refusal(fresh, author.token)).toBe(203002);
    await setOptions({ ...editable, answer_can_edit_before: 60 });
    expect(await refusal(fresh, other.token)).toBe(203003);
    expect(await refusal(old, author.token)).toBe(203004);
    expect(await refusal(commented, author.token)).toBe(203005);
    await setOptions({ answer_can_edit_before: 0, answer_can_edit_only_no_comment: false });
    for (const id of [old, commented]) {
      const res = await patch(`/api/answers/${id}`, { token: author.token, body: { content_markdown: "allowed now" } });
      expect(res.status).toBe(200);
    }
    expect((await row("answers", "answer_id", fresh)).content_markdown).toBe("answer body");
  });

  it("edits the content, moving only the answer's update_time, within the write budget", async () => {
    await setOptions(editable);
    const author = await createUser();
    const created = now() - 100;
    const question = await createQuestion(author.user_id, { create_time: created - 100 });
    const id = await createAnswer(author.user_id, question, { create_time: created });
    const questionBefore = await row("questions", "question_id", question);
    const before = now();
    const res = await patch(`/api/answers/${id}`, {
      token: author.token,
      body: { content_markdown: "better *answer*" },
      query: { include: ALL_INCLUDES },
    });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body.data).toMatchObject({
      content_markdown: "better *answer*",
      content_rendered: "<p>better <em>answer</em></p>",
      create_time: created,
    });
    expect(res.body.data.update_time).toBeGreaterThanOrEqual(before);
    expect(res.body.data.relationships).toMatchObject({
      user: { user_id: author.user_id },
      question: { question_id: question },
      voting: "",
    });
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    expect(await row("questions", "question_id", question)).toEqual(questionBefore);
    expect((await row("users", "user_id", author.user_id)).answer_count).toBe(1);
  });

  it("changes nothing when no content field is sent", async () => {
    await setOptions(editable);
    const author = await createUser();
    const created = now() - 100;
    const id = await createAnswer(author.user_id, await createQuestion(author.user_id), { create_time: created });
    const res = await patch(`/api/answers/${id}`, { token: author.token, body: { unknown: "ignored" } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ content_markdown: "answer body", update_time: created });
  });

  it("validates the body after the permission check, writing nothing on failure", async () => {
    await setOptions(editable);
    const author = await createUser();
    const id = await createAnswer(author.user_id, await createQuestion(author.user_id));
    for (const [body, fields] of [
      [{ content_markdown: "" }, ["content_markdown", "content_rendered"]],
      [{ content_rendered: "<p> </p>" }, ["content_markdown", "content_rendered"]],
      [{ content_rendered: 3 }, ["content_rendered"]],
    ] as const) {
      const res = await patch(`/api/answers/${id}`, { token: author.token, body });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(200001);
      expect(Object.keys(res.body.errors).sort()).toEqual(fields);
    }
    expect((await row("answers", "answer_id", id)).content_markdown).toBe("answer body");
  });

  it("lets an administrator edit anyone's answer whatever the settings", async () => {
    const author = await createUser();
    const admin = await createAdmin();
    const id = await createAnswer(author.user_id, await createQuestion(author.user_id), { create_time: now() - 1000 });
    await createComment(author.user_id, "answer", id);
    const res = await patch(`/api/answers/${id}`, {
      token: admin.token,
      body: { content_rendered: "<p>moderated</p>" },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ content_markdown: "moderated", user_id: author.user_id, delete_time: 0 });
  });
});

describe("GET /api/answers", () => {
  it("refuses anonymous and disabled callers with 201001 and users with 201002", async () => {
    const user = await createUser();
    const disabled = await createAdmin();
    await disableInDb(disabled);
    for (const [token, status, code] of [
      [undefined, 401, 201001],
      [disabled.token, 401, 201001],
      [user.token, 403, 201002],
    ] as const) {
      const res = await get("/api/answers", { token, query: { answer_id: "bad" } });
      expect(res.status).toBe(status);
      expect(res.body.code).toBe(code);
    }
  });

  it("lists every live answer for administrators, -create_time by default, with each filter", async () => {
    const admin = await createAdmin();
    const [x, y] = [await createUser(), await createUser()];
    const [q1, q2] = [await createQuestion(x.user_id), await createQuestion(y.user_id)];
    const time = now() - 100;
    const a = await createAnswer(x.user_id, q1, { create_time: time });
    const b = await createAnswer(y.user_id, q1, { create_time: time + 10 });
    const c = await createAnswer(x.user_id, q2, { create_time: time + 20 });
    const trashed = await createAnswer(y.user_id, q2, { delete_time: now() });
    const all = await get("/api/answers", { token: admin.token });
    expect(all.status).toBe(200);
    expect(all.body.code).toBe(0);
    expect(ids(all)).toEqual([c, b, a]);
    expect(all.body.data[0].delete_time).toBe(0);
    expect(ids(await get("/api/answers", { token: admin.token, query: { order: "create_time" } }))).toEqual([a, b, c]);
    expect(ids(await get("/api/answers", { token: admin.token, query: { answer_id: b } }))).toEqual([b]);
    expect(ids(await get("/api/answers", { token: admin.token, query: { question_id: q1 } }))).toEqual([b, a]);
    expect(ids(await get("/api/answers", { token: admin.token, query: { user_id: x.user_id } }))).toEqual([c, a]);
    expect(
      ids(await get("/api/answers", { token: admin.token, query: { user_id: x.user_id, question_id: q2 } })),
    ).toEqual([c]);
    const onlyTrashed = await get("/api/answers", { token: admin.token, query: { trashed: "true" } });
    expect(ids(onlyTrashed)).toEqual([trashed]);
    expect(onlyTrashed.body.data[0].delete_time).toBeGreaterThan(0);
    for (const name of ["answer_id", "question_id", "user_id"]) {
      const res = await get("/api/answers", { token: admin.token, query: { [name]: "1.5" } });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.errors)).toEqual([name]);
    }
  });

  it("holds the read budget for a page of 100 with every include", async () => {
    const admin = await createAdmin();
    const asker = await createUser();
    await createManyAnswers(asker.user_id, await createQuestion(asker.user_id));
    const res = await get("/api/answers", { token: admin.token, query: { per_page: 100, include: ALL_INCLUDES } });
    expect(res.body.data).toHaveLength(100);
    expect(res.roundTrips).toBeLessThanOrEqual(1);
  });
});

describe("GET /api/users/{user_id}/answers and /api/user/answers", () => {
  it("lists a user's live answers by -create_time by default", async () => {
    const author = await createUser();
    const other = await createUser();
    const question = await createQuestion(other.user_id);
    const time = now() - 100;
    const a = await createAnswer(author.user_id, question, { create_time: time });
    const b = await createAnswer(author.user_id, question, { create_time: time + 10 });
    await createAnswer(author.user_id, question, { delete_time: now() });
    await createAnswer(other.user_id, question);
    const res = await get(`/api/users/${author.user_id}/answers`);
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(ids(res)).toEqual([b, a]);
    expect(ids(await get(`/api/users/${author.user_id}/answers`, { query: { order: "create_time" } }))).toEqual([a, b]);
    const own = await get("/api/user/answers", { token: author.token, query: { include: "question" } });
    expect(ids(own)).toEqual([b, a]);
    expect(own.body.data[0].relationships.question.question_id).toBe(question);
  });

  it("lists a disabled author's answers, and shows administrators delete_time and its order", async () => {
    const author = await createUser();
    const question = await createQuestion(author.user_id);
    const a = await createAnswer(author.user_id, question, { create_time: now() - 10 });
    const b = await createAnswer(author.user_id, question);
    await disableInDb(author);
    const admin = await createAdmin();
    const res = await get(`/api/users/${author.user_id}/answers`, {
      token: admin.token,
      query: { order: "delete_time" },
    });
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([a, b]);
    expect(res.body.data[0].delete_time).toBe(0);
  });

  it("answers 201003 for a missing user, 200001 for a bad id, and 201001 on /user without a working token", async () => {
    const missing = await get("/api/users/999999/answers");
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe(201003);
    const bad = await get("/api/users/1,2/answers");
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(["user_id"]);
    const disabled = await createUser();
    await disableInDb(disabled);
    for (const token of [undefined, disabled.token]) {
      const res = await get("/api/user/answers", { token });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(201001);
    }
  });

  it("holds the read budget for a page of 100 with every include", async () => {
    const author = await createUser();
    await createManyAnswers(author.user_id, await createQuestion(author.user_id));
    const res = await get(`/api/users/${author.user_id}/answers`, {
      token: author.token,
      query: { per_page: 100, include: ALL_INCLUDES },
    });
    expect(res.body.data).toHaveLength(100);
    expect(res.roundTrips).toBeLessThanOrEqual(1);
  });
});

describe("GET /api/openapi.json", () => {
  it("documents the answers routes and the Answer record", async () => {
    const res = await get("/api/openapi.json");
    const paths = res.body.paths;
    expect(Object.keys(paths["/api/questions/{question_id}/answers"]).sort()).toEqual(["get", "post"]);
    expect(Object.keys(paths["/api/answers/{answer_id}"]).sort()).toEqual(expect.arrayContaining(["get", "patch"]));
    for (const path of ["/api/answers", "/api/users/{user_id}/answers", "/api/user/answers"])
      expect(paths[path]).toHaveProperty("get");
    expect(Object.keys(res.body.components.schemas.Answer.properties).sort()).toEqual(
      [...ANSWER_FIELDS, "delete_time", "relationships"].sort(),
    );
    expect(paths["/api/questions/{question_id}/answers"].post.requestBody.content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/AnswerContent",
    });
  });
});

/**
 * Questions (docs/operations.md#questions, docs/operations.md#users, docs/counters.md,
 * docs/permissions.md#author-edit-and-delete-rules, docs/content.md#validation): asking, editing under the site's
 * permission rules, the topic set and its counters, records and lists with trashed questions hidden from all but
 * administrators, followers and followed questions, and the D1 round-trip budget.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { now } from "../src/lib/time";
import { del, get, patch, post } from "./helpers/api";
import { createAnswer, createComment, createQuestion, createTopic, row } from "./helpers/content";
import { createAdmin, createUser, setOptions, type TestUser } from "./helpers/factories";

const QUESTION_FIELDS = [
  "question_id",
  "user_id",
  "title",
  "content_markdown",
  "content_rendered",
  "comment_count",
  "answer_count",
  "follower_count",
  "vote_count",
  "vote_up_count",
  "vote_down_count",
  "last_answer_time",
  "create_time",
  "update_time",
  // An addition to the spec's record (docs/operations.md#accepted-answer).
  "accepted_answer_id",
];
const ALL_INCLUDES = "user,topics,is_following,voting";

async function disableInDb(user: TestUser): Promise<void> {
  await env.DB.prepare("UPDATE users SET disable_time = ? WHERE user_id = ?").bind(now(), user.user_id).run();
}

/** Trash routes belong to another module: trashed state is set straight in D1. */
async function trash(table: "questions" | "topics", idColumn: string, id: number, time = now()): Promise<void> {
  await env.DB.prepare(`UPDATE ${table} SET delete_time = ? WHERE ${idColumn} = ?`).bind(time, id).run();
}

async function setQuestion(id: number, fields: Record<string, number>): Promise<void> {
  const sets = Object.keys(fields).map((name) => `${name} = ?`);
  await env.DB.prepare(`UPDATE questions SET ${sets.join(", ")} WHERE question_id = ?`)
    .bind(...Object.values(fields), id)
    .run();
}

async function followAt(user: { user_id: number }, id: number, time: number): Promise<void> {
  await env.DB.prepare(
    "INSERT INTO follows (user_id, followable_id, followable_type, create_time) VALUES (?, ?, 'question', ?)",
  )
    .bind(user.user_id, id, time)
    .run();
}

async function questionCount(): Promise<number> {
  return (await env.DB.prepare("SELECT count(*) AS n FROM questions").first<number>("n")) ?? 0;
}

async function linkedTopics(questionId: number): Promise<number[]> {
  const { results } = await env.DB.prepare(
    "SELECT topic_id FROM topicables WHERE topicable_type = 'question' AND topicable_id = ? ORDER BY rowid",
  )
    .bind(questionId)
    .all<{ topic_id: number }>();
  return results.map((r) => r.topic_id);
}

const topicCounts = async (...ids: number[]) =>
  Promise.all(ids.map(async (id) => (await row("topics", "topic_id", id)).question_count));

const ids = (res: { body: { data: { question_id: number }[] } }) => res.body.data.map((q) => q.question_id);

/** 100 questions straight into D1 in one batch, each filed under `topicId`, with distinct times. */
async function createManyQuestions(userId: number, topicId: number, count = 100): Promise<number[]> {
  const results = await env.DB.batch(
    Array.from({ length: count }, (_, i) =>
      env.DB.prepare(
        "INSERT INTO questions (user_id, title, create_time, update_time) VALUES (?, ?, ?, ?) RETURNING question_id",
      ).bind(userId, `q${i}`, i + 1, i + 1),
    ),
  );
  const created = results.map((r) => (r.results[0] as { question_id: number }).question_id);
  await env.DB.batch(
    created.map((id) =>
      env.DB.prepare("INSERT INTO topicables (topic_id, topicable_id, topicable_type) VALUES (?, ?, 'question')").bind(
        topicId,
        id,
      ),
    ),
  );
  return created;
}

describe("POST /api/questions", () => {
  it("refuses anonymous and disabled callers with 201001 before looking at the body", async () => {
    const disabled = await createUser();
    await disableInDb(disabled);
    for (const token of [undefined, disabled.token]) {
      const res = await post("/api/questions", { token, body: { title: 5 } });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(201001);
    }
    expect(await questionCount()).toBe(0);
  });

  it("creates the question with its topics and counters in one write, within the budget", async () => {
    const author = await createUser();
    const [a, b] = [await createTopic(), await createTopic()];
    const before = now();
    const res = await post("/api/questions", {
      token: author.token,
      body: { title: "  How do cats purr?  ", content_markdown: "They **just** do.", topic_ids: [b, a, b] },
      query: { include: ALL_INCLUDES },
    });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    const question = res.body.data;
    expect(Object.keys(question).sort()).toEqual([...QUESTION_FIELDS, "relationships"].sort());
    expect(question).toMatchObject({
      user_id: author.user_id,
      title: "How do cats purr?",
      content_markdown: "They **just** do.",
      content_rendered: "<p>They <strong>just</strong> do.</p>",
      comment_count: 0,
      answer_count: 0,
      follower_count: 0,
      vote_count: 0,
      vote_up_count: 0,
      vote_down_count: 0,
      last_answer_time: 0,
    });
    expect(question.create_time).toBeGreaterThanOrEqual(before);
    expect(question.update_time).toBe(question.create_time);
    expect(Object.keys(question.relationships).sort()).toEqual(["is_following", "topics", "user", "voting"]);
    expect(question.relationships.user).toEqual({
      user_id: author.user_id,
      username: author.username,
      headline: "",
      avatar: {
        original: expect.any(String),
        small: expect.any(String),
        middle: expect.any(String),
        large: expect.any(String),
      },
    });
    expect(question.relationships.topics.map((t: { topic_id: number }) => t.topic_id)).toEqual([b, a]);
    expect(Object.keys(question.relationships.topics[0]).sort()).toEqual(["cover", "name", "topic_id"]);
    expect(question.relationships.is_following).toBe(false);
    expect(question.relationships.voting).toBe("");
    expect(res.roundTrips).toBeLessThanOrEqual(2);

    expect(await linkedTopics(question.question_id)).toEqual([b, a]);
    expect(await topicCounts(a, b)).toEqual([1, 1]);
    expect((await row("users", "user_id", author.user_id)).question_count).toBe(1);
    // No auto-follow (docs/operations.md#questions).
    expect((await row("questions", "question_id", question.question_id)).follower_count).toBe(0);
  });

  it("answers no relationships without include, and delete_time to an administrator", async () => {
    const admin = await createAdmin();
    const topic = await createTopic();
    const res = await post("/api/questions", {
      token: admin.token,
      body: { title: "Admin asks", content_markdown: "x", topic_ids: [topic] },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).not.toHaveProperty("relationships");
    expect(res.body.data.delete_time).toBe(0);
  });

  it("takes markdown over HTML, and converts sanitised HTML when it is the only content", async () => {
    const author = await createUser();
    const topic = await createTopic();
    const both = await post("/api/questions", {
      token: author.token,
      body: { title: "Both sent", content_markdown: "*md*", content_rendered: "<p>html</p>", topic_ids: [topic] },
    });
    expect(both.body.data).toMatchObject({ content_markdown: "*md*", content_rendered: "<p><em>md</em></p>" });
    const html = await post("/api/questions", {
      token: author.token,
      body: {
        title: "HTML only",
        content_rendered: '<p onclick="x()">Hello <b>world</b><script>alert(1)</script></p>',
        topic_ids: [topic],
      },
    });
    expect(html.status).toBe(200);
    expect(html.body.data.content_markdown).toContain("**world**");
    expect(html.body.data.content_rendered).toBe("<p>Hello <strong>world</strong></p>");
  });

  it("counts a title in characters and keeps de-duplicated topic lists of up to 10", async () => {
    const author = await createUser();
    const topic = await createTopic();
    const title = "猫".repeat(80);
    const res = await post("/api/questions", {
      token: author.token,
      body: { title, content_markdown: "x", topic_ids: Array(12).fill(topic) },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.title).toBe(title);
    expect(await linkedTopics(res.body.data.question_id)).toEqual([topic]);
  });

  it.each([
    ["no title", { content_markdown: "x", topic_ids: "T" }, ["title"]],
    ["a title of one character", { title: " a ", content_markdown: "x", topic_ids: "T" }, ["title"]],
    ["a title of 81 characters", { title: "猫".repeat(81), content_markdown: "x", topic_ids: "T" }, ["title"]],
    ["a title that is not a string", { title: 12, content_markdown: "x", topic_ids: "T" }, ["title"]],
    ["no content", { title: "Fine title", topic_ids: "T" }, ["content_markdown", "content_rendered"]],
    [
      "blank content",
      { title: "Fine title", content_markdown: "  ", content_rendered: "<p></p>", topic_ids: "T" },
      ["content_markdown", "content_rendered"],
    ],
    [
      "content that is not a string",
      { title: "Fine title", content_markdown: 5, topic_ids: "T" },
      ["content_markdown"],
    ],
    ["no topic_ids", { title: "Fine title", content_markdown: "x" }, ["topic_ids"]],
    ["topic_ids that is not an array", { title: "Fine title", content_markdown: "x", topic_ids: 1 }, ["topic_ids"]],
    ["an empty topic_ids", { title: "Fine title", content_markdown: "x", topic_ids: [] }, ["topic_ids"]],
    [
      "a topic id that is not an integer",
      { title: "Fine title", content_markdown: "x", topic_ids: ["1"] },
      ["topic_ids"],
    ],
    ["a topic id that is not positive", { title: "Fine title", content_markdown: "x", topic_ids: [0] }, ["topic_ids"]],
    ["more than 10 topics", { title: "Fine title", content_markdown: "x", topic_ids: "11" }, ["topic_ids"]],
    ["an unknown topic", { title: "Fine title", content_markdown: "x", topic_ids: [999999] }, ["topic_ids"]],
    ["a trashed topic", { title: "Fine title", content_markdown: "x", topic_ids: "trashed" }, ["topic_ids"]],
    ["a body that is not an object", [1, 2], ["body"]],
  ])("refuses %s with 200001 naming the field, writing nothing", async (_, body, fields) => {
    const author = await createUser();
    const topic = await createTopic();
    const trashed = await createTopic();
    await trash("topics", "topic_id", trashed);
    const eleven = await Promise.all(Array.from({ length: 11 }, () => createTopic()));
    const topicIds = { T: [topic], "11": eleven, trashed: [topic, trashed] };
    const sent = Array.isArray(body)
      ? body
      : {
          ...body,
          ...("topic_ids" in body && typeof body.topic_ids === "string"
            ? { topic_ids: topicIds[body.topic_ids as keyof typeof topicIds] }
            : {}),
        };
    const res = await post("/api/questions", { token: author.token, body: sent });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(200001);
    expect(Object.keys(res.body.errors).sort()).toEqual(fields);
    expect(await questionCount()).toBe(0);
    expect((await row("users", "user_id", author.user_id)).question_count).toBe(0);
    expect(await topicCounts(topic)).toEqual([0]);
  });

  it("answers 100006 for malformed JSON", async () => {
    const author = await createUser();
    const res = await post("/api/questions", {
      token: author.token,
      rawBody: "{oops",
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(100006);
  });
});

describe("GET /api/questions/{question_id}", () => {
  it("answers the question to anyone, with the caller's relations, within the read budget", async () => {
    const author = await createUser();
    const viewer = await createUser();
    const topic = await createTopic();
    const id = await createQuestion(author.user_id, { title: "Why?", topic_ids: [topic] });
    await followAt(viewer, id, now());
    await env.DB.prepare("INSERT INTO votes (user_id, votable_id, votable_type, type) VALUES (?, ?, 'question', 'up')")
      .bind(viewer.user_id, id)
      .run();
    const res = await get(`/api/questions/${id}`, { token: viewer.token, query: { include: ALL_INCLUDES } });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(Object.keys(res.body.data).sort()).toEqual([...QUESTION_FIELDS, "relationships"].sort());
    expect(res.body.data).toMatchObject({ question_id: id, user_id: author.user_id, title: "Why?" });
    expect(res.body.data.relationships).toMatchObject({
      user: { user_id: author.user_id },
      is_following: true,
      voting: "up",
    });
    expect(res.body.data.relationships.topics.map((t: { topic_id: number }) => t.topic_id)).toEqual([topic]);
    expect(res.roundTrips).toBeLessThanOrEqual(1);
    const anonymous = await get(`/api/questions/${id}`, { query: { include: ALL_INCLUDES } });
    expect(anonymous.body.data.relationships).toMatchObject({ is_following: false, voting: "" });
  });

  it("treats a disabled user's token as anonymous", async () => {
    const author = await createUser();
    const disabled = await createUser();
    const id = await createQuestion(author.user_id);
    await followAt(disabled, id, now());
    await disableInDb(disabled);
    const res = await get(`/api/questions/${id}`, { token: disabled.token, query: { include: "is_following" } });
    expect(res.status).toBe(200);
    expect(res.body.data.relationships).toEqual({ is_following: false });
  });

  it("answers 202001 for a trashed question to everyone but administrators, who see delete_time", async () => {
    const author = await createUser();
    const time = now() - 5;
    const id = await createQuestion(author.user_id, { delete_time: time });
    for (const token of [undefined, author.token, (await createUser()).token]) {
      const res = await get(`/api/questions/${id}`, { token });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(202001);
    }
    const admin = await createAdmin();
    const res = await get(`/api/questions/${id}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.data.delete_time).toBe(time);
  });

  it("answers 202001 for a missing question and 200001 naming question_id for a bad id", async () => {
    const missing = await get("/api/questions/987654");
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe(202001);
    const bad = await get("/api/questions/1e3");
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(200001);
    expect(Object.keys(bad.body.errors)).toEqual(["question_id"]);
  });

  it("shows a trashed topic to nobody and a missing author as null", async () => {
    const author = await createUser();
    const [live, trashed] = [await createTopic(), await createTopic()];
    const id = await createQuestion(author.user_id, { topic_ids: [live, trashed] });
    await trash("topics", "topic_id", trashed);
    await env.DB.prepare("DELETE FROM users WHERE user_id = ?").bind(author.user_id).run();
    const res = await get(`/api/questions/${id}`, { query: { include: "user,topics" } });
    expect(res.body.data.relationships.user).toBeNull();
    expect(res.body.data.relationships.topics.map((t: { topic_id: number }) => t.topic_id)).toEqual([live]);
  });
});

describe("PATCH /api/questions/{question_id}", () => {
  const editable = {
    question_can_edit: true,
    question_can_edit_before: 0,
    question_can_edit_only_no_comment: true,
    question_can_edit_only_no_answer: true,
  };

  it("refuses anonymous and disabled callers with 201001 before anything else", async () => {
    const author = await createUser();
    const id = await createQuestion(author.user_id);
    await disableInDb(author);
    for (const token of [undefined, author.token]) {
      const res = await patch(`/api/questions/${id}`, { token, body: { title: 5 } });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(201001);
    }
  });

  it("answers 202001 for a missing or trashed question, administrators included, before the body", async () => {
    const author = await createUser();
    const admin = await createAdmin();
    const trashed = await createQuestion(author.user_id, { delete_time: now() });
    for (const [id, token] of [
      [trashed, author.token],
      [trashed, admin.token],
      [999999, admin.token],
    ] as const) {
      const res = await patch(`/api/questions/${id}`, { token, body: { title: 5 } });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(202001);
    }
    const bad = await patch("/api/questions/abc", { token: admin.token, body: {} });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(["question_id"]);
  });

  it("refuses each rule's case with its code, before looking at the body", async () => {
    const author = await createUser();
    const other = await createUser();
    const time = now();
    const fresh = await createQuestion(author.user_id);
    const old = await createQuestion(author.user_id, { create_time: time - 120 });
    const commented = await createQuestion(author.user_id);
    await createComment(other.user_id, "question", commented);
    const answered = await createQuestion(author.user_id);
    await createAnswer(other.user_id, answered);
    const bad = { title: 5, topic_ids: "x" };
    const refusal = async (id: number, token: string) => {
      const res = await patch(`/api/questions/${id}`, { token, body: bad });
      expect(res.status).toBe(403);
      return res.body.code;
    };

    expect(await refusal(fresh, author.token)).toBe(202002);
    await setOptions({ ...editable, question_can_edit_before: 60 });
    expect(await refusal(fresh, other.token)).toBe(202003);
    expect(await refusal(old, author.token)).toBe(202004);
    expect(await refusal(commented, author.token)).toBe(202006);
    expect(await refusal(answered, author.token)).toBe(202005);
    await setOptions({
      question_can_edit_only_no_answer: false,
      question_can_edit_only_no_comment: false,
      question_can_edit_before: 0,
    });
    for (const id of [old, commented, answered]) {
      const res = await patch(`/api/questions/${id}`, { token: author.token, body: { title: "Allowed now" } });
      expect(res.status).toBe(200);
    }
    const stillOther = await patch(`/api/questions/${fresh}`, { token: other.token, body: { title: "Not mine" } });
    expect(stillOther.body.code).toBe(202003);
    expect((await row("questions", "question_id", fresh)).title).toBe("A question title");
  });

  it("edits title and content, moving update_time, within the write budget", async () => {
    await setOptions(editable);
    const author = await createUser();
    const created = now() - 100;
    const topic = await createTopic();
    const id = await createQuestion(author.user_id, { create_time: created, topic_ids: [topic] });
    const before = now();
    const res = await patch(`/api/questions/${id}`, {
      token: author.token,
      body: { title: " New title ", content_rendered: "<p>new <i>body</i></p>" },
      query: { include: ALL_INCLUDES },
    });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body.data).toMatchObject({
      title: "New title",
      content_markdown: "new *body*",
      content_rendered: "<p>new <em>body</em></p>",
      create_time: created,
    });
    expect(res.body.data.update_time).toBeGreaterThanOrEqual(before);
    expect(res.body.data.relationships.topics.map((t: { topic_id: number }) => t.topic_id)).toEqual([topic]);
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    expect(await row("questions", "question_id", id)).toMatchObject({
      title: "New title",
      update_time: res.body.data.update_time,
    });
  });

  it("replaces the topic set, moving only the changed topics' counters and not update_time", async () => {
    await setOptions(editable);
    const author = await createUser();
    const [a, b, c, d] = [await createTopic(), await createTopic(), await createTopic(), await createTopic()];
    const created = now() - 100;
    const id = await createQuestion(author.user_id, { create_time: created, topic_ids: [a, b] });
    const neighbour = await createQuestion(author.user_id, { topic_ids: [b, c] });
    expect(await topicCounts(a, b, c, d)).toEqual([1, 2, 1, 0]);

    const res = await patch(`/api/questions/${id}`, {
      token: author.token,
      body: { topic_ids: [d, b, c, d] },
      query: { include: "topics" },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.update_time).toBe(created);
    expect(res.body.data.relationships.topics.map((t: { topic_id: number }) => t.topic_id)).toEqual([b, d, c]);
    expect(await linkedTopics(id)).toEqual([b, d, c]);
    expect(await topicCounts(a, b, c, d)).toEqual([0, 2, 2, 1]);
    expect(await linkedTopics(neighbour)).toEqual([b, c]);

    // Sending the same set again changes nothing.
    await patch(`/api/questions/${id}`, { token: author.token, body: { topic_ids: [c, b, d] } });
    expect(await topicCounts(a, b, c, d)).toEqual([0, 2, 2, 1]);
    expect((await row("users", "user_id", author.user_id)).question_count).toBe(2);
  });

  it("keeps links to trashed topics, which nobody sees, when the set is replaced", async () => {
    await setOptions(editable);
    const author = await createUser();
    const [live, trashed, added] = [await createTopic(), await createTopic(), await createTopic()];
    const id = await createQuestion(author.user_id, { topic_ids: [live, trashed] });
    await trash("topics", "topic_id", trashed);
    const res = await patch(`/api/questions/${id}`, { token: author.token, body: { topic_ids: [added] } });
    expect(res.status).toBe(200);
    expect(await linkedTopics(id)).toEqual([trashed, added]);
    expect(await topicCounts(live, trashed, added)).toEqual([0, 1, 1]);
  });

  it("validates the body after the permission check, writing nothing on failure", async () => {
    await setOptions(editable);
    const author = await createUser();
    const topic = await createTopic();
    const id = await createQuestion(author.user_id, { topic_ids: [topic] });
    const cases: [Record<string, unknown>, string[]][] = [
      [{ title: "x" }, ["title"]],
      [{ title: "ok title", content_markdown: "" }, ["content_markdown", "content_rendered"]],
      [{ topic_ids: [] }, ["topic_ids"]],
      [{ topic_ids: [topic, 999999] }, ["topic_ids"]],
      [{ topic_ids: "1" }, ["topic_ids"]],
      [{ title: 7, topic_ids: [1.5] }, ["title", "topic_ids"]],
    ];
    for (const [body, fields] of cases) {
      const res = await patch(`/api/questions/${id}`, { token: author.token, body });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(200001);
      expect(Object.keys(res.body.errors).sort()).toEqual(fields);
    }
    expect(await row("questions", "question_id", id)).toMatchObject({
      title: "A question title",
      content_markdown: "question body",
    });
    expect(await linkedTopics(id)).toEqual([topic]);
    expect(await topicCounts(topic)).toEqual([1]);
  });

  it("changes nothing for an empty body", async () => {
    await setOptions(editable);
    const author = await createUser();
    const created = now() - 100;
    const id = await createQuestion(author.user_id, { create_time: created });
    const res = await patch(`/api/questions/${id}`, { token: author.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ title: "A question title", update_time: created });
  });

  it("lets an administrator edit anyone's question whatever the settings", async () => {
    const author = await createUser();
    const admin = await createAdmin();
    const id = await createQuestion(author.user_id, { create_time: now() - 1000 });
    await createComment(author.user_id, "question", id);
    await createAnswer(author.user_id, id);
    const res = await patch(`/api/questions/${id}`, { token: admin.token, body: { title: "Fixed by admin" } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ title: "Fixed by admin", user_id: author.user_id, delete_time: 0 });
  });
});

describe("GET /api/questions", () => {
  async function threeQuestions() {
    const author = await createUser();
    const other = await createUser();
    const time = now() - 1000;
    const a = await createQuestion(author.user_id, { create_time: time });
    const b = await createQuestion(other.user_id, { create_time: time + 10 });
    const c = await createQuestion(author.user_id, { create_time: time + 20 });
    await setQuestion(a, { update_time: time + 30, vote_count: 2 });
    await setQuestion(b, { vote_count: -1 });
    await setQuestion(c, { vote_count: 2 });
    return { author, other, a, b, c };
  }

  it("lists live questions by -update_time by default, for anyone", async () => {
    const { a, b, c } = await threeQuestions();
    const author = await createUser();
    await createQuestion(author.user_id, { delete_time: now() });
    const disabled = await createUser();
    await disableInDb(disabled);
    for (const token of [undefined, author.token, disabled.token]) {
      const res = await get("/api/questions", { token });
      expect(res.status).toBe(200);
      expect(res.body.code).toBe(0);
      expect(ids(res)).toEqual([a, c, b]);
      expect(res.body.data[0]).not.toHaveProperty("delete_time");
      expect(res.body.data[0]).not.toHaveProperty("relationships");
      expect(res.body.pagination).toEqual({ page: 1, per_page: 15, previous: null, next: null, total: 3, pages: 1 });
    }
  });

  it("orders by each allowed field both ways, ties broken by id, and falls back to the default", async () => {
    const { a, b, c } = await threeQuestions();
    const orders: [string, number[]][] = [
      ["update_time", [b, c, a]],
      ["create_time", [a, b, c]],
      ["-create_time", [c, b, a]],
      ["vote_count", [b, a, c]],
      ["-vote_count", [c, a, b]],
      ["delete_time", [a, c, b]],
      ["title", [a, c, b]],
    ];
    for (const [order, expected] of orders)
      expect(ids(await get("/api/questions", { query: { order } })), order).toEqual(expected);
  });

  it("filters by question_id, user_id and topic_id, and refuses a filter that is not an id", async () => {
    const { author, a, b, c } = await threeQuestions();
    const topic = await createTopic();
    await env.DB.prepare(
      "INSERT INTO topicables (topic_id, topicable_id, topicable_type) VALUES (?, ?, 'question'), (?, ?, 'question')",
    )
      .bind(topic, b, topic, c)
      .run();
    expect(ids(await get("/api/questions", { query: { question_id: b } }))).toEqual([b]);
    expect(ids(await get("/api/questions", { query: { user_id: author.user_id } }))).toEqual([a, c]);
    expect(ids(await get("/api/questions", { query: { topic_id: topic } }))).toEqual([c, b]);
    expect(ids(await get("/api/questions", { query: { topic_id: topic, user_id: author.user_id } }))).toEqual([c]);
    for (const name of ["question_id", "user_id", "topic_id"]) {
      const res = await get("/api/questions", { query: { [name]: "x1" } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(200001);
      expect(Object.keys(res.body.errors)).toEqual([name]);
    }
  });

  it("lists only trashed questions for an administrator asking trashed=true, and ignores it for others", async () => {
    const author = await createUser();
    const live = await createQuestion(author.user_id);
    const first = await createQuestion(author.user_id, { delete_time: now() - 10 });
    const second = await createQuestion(author.user_id, { delete_time: now() - 100 });
    const ignored = await get("/api/questions", {
      token: author.token,
      query: { trashed: "true", order: "-delete_time" },
    });
    expect(ids(ignored)).toEqual([live]);
    const admin = await createAdmin();
    const trashed = await get("/api/questions", {
      token: admin.token,
      query: { trashed: "true", order: "delete_time" },
    });
    expect(ids(trashed)).toEqual([second, first]);
    expect(trashed.body.data[0].delete_time).toBeGreaterThan(0);
  });

  it("holds the read budget for a page of 100 with every include", async () => {
    const author = await createUser();
    const viewer = await createUser();
    const topic = await createTopic();
    const created = await createManyQuestions(author.user_id, topic);
    await createQuestion(author.user_id);
    await followAt(viewer, created[0]!, now());
    const res = await get("/api/questions", {
      token: viewer.token,
      query: { per_page: 100, include: ALL_INCLUDES, order: "create_time" },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(100);
    expect(res.body.pagination).toMatchObject({ total: 101, pages: 2, next: 2 });
    expect(res.body.data[0].question_id).toBe(created[0]);
    expect(res.body.data[0].relationships).toMatchObject({
      user: { user_id: author.user_id },
      is_following: true,
      voting: "",
    });
    expect(res.body.data[99].relationships.topics.map((t: { topic_id: number }) => t.topic_id)).toEqual([topic]);
    expect(res.roundTrips).toBeLessThanOrEqual(1);
  });
});

describe("GET /api/topics/{topic_id}/questions", () => {
  it("lists the topic's live questions by -update_time by default", async () => {
    const author = await createUser();
    const [topic, other] = [await createTopic(), await createTopic()];
    const time = now() - 100;
    const a = await createQuestion(author.user_id, { topic_ids: [topic], create_time: time });
    const b = await createQuestion(author.user_id, { topic_ids: [topic, other], create_time: time + 10 });
    await createQuestion(author.user_id, { topic_ids: [other] });
    await createQuestion(author.user_id, { topic_ids: [topic], delete_time: now() });
    const res = await get(`/api/topics/${topic}/questions`, { query: { include: "topics" } });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(ids(res)).toEqual([b, a]);
    expect(res.body.data[0].relationships.topics.map((t: { topic_id: number }) => t.topic_id)).toEqual([topic, other]);
    expect(ids(await get(`/api/topics/${topic}/questions`, { query: { order: "update_time" } }))).toEqual([a, b]);
  });

  it("treats a disabled user's token as anonymous and shows administrators delete_time", async () => {
    const author = await createUser();
    const topic = await createTopic();
    const id = await createQuestion(author.user_id, { topic_ids: [topic] });
    await followAt(author, id, now());
    await disableInDb(author);
    const off = await get(`/api/topics/${topic}/questions`, {
      token: author.token,
      query: { include: "is_following" },
    });
    expect(off.status).toBe(200);
    expect(off.body.data[0].relationships).toEqual({ is_following: false });
    const admin = await createAdmin();
    const res = await get(`/api/topics/${topic}/questions`, { token: admin.token, query: { order: "delete_time" } });
    expect(ids(res)).toEqual([id]);
    expect(res.body.data[0].delete_time).toBe(0);
  });

  it("answers 205001 for a missing or trashed topic and holds the read budget", async () => {
    const trashed = await createTopic();
    await trash("topics", "topic_id", trashed);
    for (const id of [trashed, 999999]) {
      const res = await get(`/api/topics/${id}/questions`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(205001);
    }
    const author = await createUser();
    const topic = await createTopic();
    await createManyQuestions(author.user_id, topic);
    const res = await get(`/api/topics/${topic}/questions`, {
      token: author.token,
      query: { per_page: 100, include: ALL_INCLUDES },
    });
    expect(res.body.data).toHaveLength(100);
    expect(res.roundTrips).toBeLessThanOrEqual(1);
  });
});

describe("GET /api/users/{user_id}/questions and /api/user/questions", () => {
  it("lists a user's live questions by -update_time by default", async () => {
    const author = await createUser();
    const other = await createUser();
    const time = now() - 100;
    const a = await createQuestion(author.user_id, { create_time: time });
    const b = await createQuestion(author.user_id, { create_time: time + 10 });
    await createQuestion(author.user_id, { delete_time: now() });
    await createQuestion(other.user_id);
    const res = await get(`/api/users/${author.user_id}/questions`);
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(ids(res)).toEqual([b, a]);
    expect(ids(await get(`/api/users/${author.user_id}/questions`, { query: { order: "create_time" } }))).toEqual([
      a,
      b,
    ]);
    const own = await get("/api/user/questions", { token: author.token, query: { include: "user" } });
    expect(own.status).toBe(200);
    expect(ids(own)).toEqual([b, a]);
    expect(own.body.data[0].relationships.user.user_id).toBe(author.user_id);
  });

  it("lists a disabled author's questions, and shows administrators delete_time", async () => {
    const author = await createUser();
    const id = await createQuestion(author.user_id);
    await disableInDb(author);
    const admin = await createAdmin();
    const res = await get(`/api/users/${author.user_id}/questions`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([id]);
    expect(res.body.data[0].delete_time).toBe(0);
  });

  it("answers 201003 for a missing user, 200001 for a bad id, and 201001 on /user without a working token", async () => {
    const missing = await get("/api/users/999999/questions");
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe(201003);
    const bad = await get("/api/users/abc/questions");
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(["user_id"]);
    const disabled = await createUser();
    await disableInDb(disabled);
    for (const token of [undefined, disabled.token]) {
      const res = await get("/api/user/questions", { token });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(201001);
    }
  });

  it("holds the read budget for a page of 100 with every include", async () => {
    const author = await createUser();
    await createManyQuestions(author.user_id, await createTopic());
    const res = await get(`/api/users/${author.user_id}/questions`, {
      token: author.token,
      query: { per_page: 100, include: ALL_INCLUDES },
    });
    expect(res.body.data).toHaveLength(100);
    expect(res.roundTrips).toBeLessThanOrEqual(1);
  });
});

describe("GET /api/users/{user_id}/following_questions and /api/user/following_questions", () => {
  it("shows administrators delete_time", async () => {
    const user = await createUser();
    const id = await createQuestion(user.user_id);
    await followAt(user, id, now());
    const admin = await createAdmin();
    const res = await get(`/api/users/${user.user_id}/following_questions`, { token: admin.token });
    expect(ids(res)).toEqual([id]);
    expect(res.body.data[0].delete_time).toBe(0);
  });

  it("lists the live questions a user follows, newest follow first", async () => {
    const user = await createUser();
    const author = await createUser();
    const [a, b, c] = [
      await createQuestion(author.user_id),
      await createQuestion(author.user_id),
      await createQuestion(author.user_id),
    ];
    const trashed = await createQuestion(author.user_id, { delete_time: now() });
    const time = now();
    await followAt(user, b, time - 30);
    await followAt(user, c, time - 20);
    await followAt(user, a, time - 10);
    await followAt(user, trashed, time);
    const res = await get(`/api/users/${user.user_id}/following_questions`, { query: { include: "is_following" } });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(ids(res)).toEqual([a, c, b]);
    expect(res.body.data[0].relationships).toEqual({ is_following: false });
    const own = await get("/api/user/following_questions", { token: user.token, query: { include: "is_following" } });
    expect(ids(own)).toEqual([a, c, b]);
    expect(own.body.data[0].relationships).toEqual({ is_following: true });
  });

  it("answers 201003 for a missing user, and 201001 on /user without a working token", async () => {
    const missing = await get("/api/users/999999/following_questions");
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe(201003);
    const disabled = await createUser();
    await disableInDb(disabled);
    for (const token of [undefined, disabled.token]) {
      const res = await get("/api/user/following_questions", { token });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(201001);
    }
  });

  it("holds the read budget for a page of 100 with every include", async () => {
    const user = await createUser();
    const created = await createManyQuestions(user.user_id, await createTopic());
    await env.DB.batch(
      created.map((id, i) =>
        env.DB.prepare(
          "INSERT INTO follows (user_id, followable_id, followable_type, create_time) VALUES (?, ?, 'question', ?)",
        ).bind(user.user_id, id, i),
      ),
    );
    const res = await get("/api/user/following_questions", {
      token: user.token,
      query: { per_page: 100, include: ALL_INCLUDES },
    });
    expect(ids(res)).toEqual([...created].reverse());
    expect(res.roundTrips).toBeLessThanOrEqual(1);
  });
});

describe("/api/questions/{question_id}/followers", () => {
  it("follows a live question without moving its update_time, and refuses a trashed one with 202001", async () => {
    const author = await createUser();
    const user = await createUser();
    const created = now() - 100;
    const id = await createQuestion(author.user_id, { create_time: created });
    const res = await post(`/api/questions/${id}/followers`, { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ follower_count: 1 });
    expect(await row("questions", "question_id", id)).toMatchObject({ follower_count: 1, update_time: created });
    expect((await row("users", "user_id", user.user_id)).following_question_count).toBe(1);
    const followers = await get(`/api/questions/${id}/followers`);
    expect(followers.body.data.map((u: { user_id: number }) => u.user_id)).toEqual([user.user_id]);
    await trash("questions", "question_id", id);
    const trashed = await post(`/api/questions/${id}/followers`, { token: author.token });
    expect(trashed.status).toBe(404);
    expect(trashed.body.code).toBe(202001);
    await disableInDb(user);
    const off = await del(`/api/questions/${id}/followers`, { token: user.token });
    expect(off.status).toBe(401);
    expect(off.body.code).toBe(201001);
  });
});

describe("GET /api/openapi.json", () => {
  it("documents the questions routes and their bodies", async () => {
    const res = await get("/api/openapi.json");
    const paths = res.body.paths;
    expect(Object.keys(paths["/api/questions"]).sort()).toEqual(["get", "post"]);
    expect(Object.keys(paths["/api/questions/{question_id}"])).toEqual(expect.arrayContaining(["get", "patch"]));
    for (const path of [
      "/api/topics/{topic_id}/questions",
      "/api/users/{user_id}/questions",
      "/api/user/questions",
      "/api/users/{user_id}/following_questions",
      "/api/user/following_questions",
    ]) {
      expect(paths[path]).toHaveProperty("get");
    }
    expect(Object.keys(paths["/api/questions/{question_id}/followers"]).sort()).toEqual(["delete", "get", "post"]);
    expect(paths["/api/questions"].post.requestBody.content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/QuestionCreate",
    });
    expect(res.body.components.schemas.QuestionCreate.required).toEqual(["title", "topic_ids"]);
    expect(res.body.components.schemas.QuestionEdit.properties).toHaveProperty("topic_ids");
  });
});

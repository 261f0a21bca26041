/**
 * The notifications routes (spec operation 6, docs/operations.md#notifications,
 * docs/decisions.md#notifications-are-scoped-to-the-caller), through HTTP: login for every route, the caller's
 * notifications only, filters, includes with their exact shapes, operation 6 field for field with pagination, the
 * single-id form's 208001, `notification_unread` exact after every write and under concurrent reads, and the round-trip
 * budgets.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { NOTIFICATION_TYPES } from "../src/behaviours/notification-events";
import { now } from "../src/lib/time";
import { BASE, call, del, get, post } from "./helpers/api";
import { createAnswer, createComment, createQuestion, row } from "./helpers/content";
import { createUser, type TestUser } from "./helpers/factories";

const ALL_INCLUDES = "receiver,sender,article,question,answer,comment,reply";
const T = now() - 10_000;

interface Fields {
  type?: string;
  question_id?: number;
  answer_id?: number;
  comment_id?: number;
  create_time?: number;
  read_time?: number;
  content_deleted?: string;
}

/** A notification written straight into D1 (the events themselves are tested in notification-events.test.ts). */
async function notify(receiver: TestUser, sender: TestUser, fields: Fields = {}): Promise<number> {
  const res = await env.DB.prepare(
    `INSERT INTO notifications (receiver_id, sender_id, type, question_id, answer_id, comment_id, content_deleted, create_time, read_time)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING notification_id AS id`,
  )
    .bind(
      receiver.user_id,
      sender.user_id,
      fields.type ?? "question_answered",
      fields.question_id ?? 0,
      fields.answer_id ?? 0,
      fields.comment_id ?? 0,
      fields.content_deleted ?? "",
      fields.create_time ?? T,
      fields.read_time ?? 0,
    )
    .first<{ id: number }>();
  return res!.id;
}

/** What the triggers would have left: the counter recounted from the rows. */
async function syncUnread(user: TestUser): Promise<void> {
  await env.DB.prepare(
    "UPDATE users SET notification_unread = (SELECT COUNT(*) FROM notifications WHERE receiver_id = ? AND read_time = 0) WHERE user_id = ?",
  )
    .bind(user.user_id, user.user_id)
    .run();
}

const unread = async (user: TestUser) => (await row("users", "user_id", user.user_id)).notification_unread;
const stored = (id: number) => row("notifications", "notification_id", id);
const ids = (res: { body: { data: { notification_id: number }[] } }) => res.body.data.map((n) => n.notification_id);

const avatar = {
  original: `${BASE}/static/default/avatar.png`,
  small: `${BASE}/static/default/avatar_small.png`,
  middle: `${BASE}/static/default/avatar_middle.png`,
  large: `${BASE}/static/default/avatar_large.png`,
};
const userSummary = (user: TestUser) => ({ user_id: user.user_id, username: user.username, headline: "", avatar });

async function twoUsers(): Promise<[TestUser, TestUser]> {
  return [await createUser(), await createUser()];
}

describe("access", () => {
  it.each([
    ["GET", "/api/notifications"],
    ["GET", "/api/notifications/count"],
    ["POST", "/api/notifications/read"],
    ["POST", "/api/notifications/1/read"],
    ["DELETE", "/api/notifications/1"],
    ["DELETE", "/api/notifications"],
  ])("refuses an anonymous %s %s with 201001", async (method, path) => {
    const res = await call(method, path);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(201001);
  });

  it("documents every route in the OpenAPI document", async () => {
    const res = await get("/api/openapi.json");
    const paths = Object.keys(res.body.paths);
    for (const path of [
      "/api/notifications",
      "/api/notifications/count",
      "/api/notifications/read",
      "/api/notifications/{notification_ids}/read",
      "/api/notifications/{notification_ids}",
    ]) {
      expect(paths.some((p) => p === path || p === path.replace("/api", ""))).toBe(true);
    }
  });
});

describe("GET /api/notifications", () => {
  it("lists only the caller's, newest first, each field as stored", async () => {
    const [me, other] = await twoUsers();
    const older = await notify(me, other, { create_time: T });
    const newer = await notify(me, other, { create_time: T + 5, type: "question_commented" });
    await notify(other, me);
    const res = await get("/api/notifications", { token: me.token });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(ids(res)).toEqual([newer, older]);
    expect(res.body.data[1]).toEqual({
      notification_id: older,
      receiver_id: me.user_id,
      sender_id: other.user_id,
      type: "question_answered",
      article_id: 0,
      question_id: 0,
      answer_id: 0,
      comment_id: 0,
      reply_id: 0,
      create_time: T,
      read_time: 0,
    });
    expect(res.body.pagination).toEqual({ page: 1, per_page: 15, previous: null, next: null, total: 2, pages: 1 });
  });

  it("filters by type and by read state (`true` read, any other value unread, absent all)", async () => {
    const [me, other] = await twoUsers();
    const readOne = await notify(me, other, { read_time: T + 1, type: "question_commented" });
    const unreadOne = await notify(me, other, { create_time: T + 2 });
    const list = async (query: Record<string, string>) =>
      ids(await get("/api/notifications", { token: me.token, query }));
    expect(await list({ read: "true" })).toEqual([readOne]);
    expect(await list({ read: "false" })).toEqual([unreadOne]);
    expect(await list({ read: "yes" })).toEqual([unreadOne]);
    expect(await list({})).toEqual([unreadOne, readOne]);
    expect(await list({ type: "question_commented" })).toEqual([readOne]);
    const bad = await get("/api/notifications", { token: me.token, query: { type: "votes" } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(200001);
    expect(bad.body.errors).toHaveProperty("type");
  });

  it("loads every include of a full page in at most 2 round trips", async () => {
    const [me, other] = await twoUsers();
    const questionId = await createQuestion(me.user_id);
    const answerId = await createAnswer(other.user_id, questionId);
    const commentId = await createComment(other.user_id, "answer", answerId);
    for (let i = 0; i < 100; i += 1)
      await notify(me, other, {
        question_id: questionId,
        answer_id: answerId,
        comment_id: commentId,
        create_time: T + i,
      });
    const res = await get("/api/notifications", { token: me.token, query: { per_page: 100, include: ALL_INCLUDES } });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(100);
    expect(res.roundTrips).toBeLessThanOrEqual(1);
    expect(res.body.data[0].relationships).toMatchObject({
      receiver: userSummary(me),
      sender: userSummary(other),
      article: null,
      question: { question_id: questionId },
      answer: { answer_id: answerId, question_id: questionId },
      comment: { comment_id: commentId, content_summary: "a comment" },
      reply: null,
    });
  });

  it("carries content_deleted, an object, for the four *_deleted kinds only: the other kinds have no such key", async () => {
    const [me, other] = await twoUsers();
    const snapshot = { comment_id: 9, content: "gone", create_time: T, update_time: T, delete_time: 0 };
    for (const type of NOTIFICATION_TYPES) {
      const deleted = type.endsWith("_deleted");
      await notify(me, other, { type, ...(deleted && { content_deleted: JSON.stringify(snapshot) }) });
    }
    const res = await get("/api/notifications", { token: me.token, query: { per_page: 20 } });
    expect(res.status).toBe(200);
    const carried = Object.fromEntries(
      (res.body.data as { type: string; content_deleted?: unknown }[]).map((n) => [
        n.type,
        !("content_deleted" in n) ? "absent" : n.content_deleted === null ? "null" : typeof n.content_deleted,
      ]),
    );
    expect(carried).toEqual(
      Object.fromEntries(NOTIFICATION_TYPES.map((type) => [type, type.endsWith("_deleted") ? "object" : "absent"])),
    );
  });

  it("shows content_deleted as the item's record, delete_time hidden, and no key for the deleted item", async () => {
    const [me, other] = await twoUsers();
    const snapshot = {
      comment_id: 9,
      commentable_id: 1,
      commentable_type: "question",
      user_id: me.user_id,
      content: "gone",
      reply_count: 0,
      vote_count: 0,
      vote_up_count: 0,
      vote_down_count: 0,
      create_time: T,
      update_time: T,
      delete_time: 0,
    };
    await notify(me, other, {
      type: "comment_deleted",
      comment_id: 9,
      question_id: 1,
      content_deleted: JSON.stringify(snapshot),
    });
    const res = await get("/api/notifications", { token: me.token, query: { include: "comment,question,sender" } });
    const { delete_time: _hidden, ...visible } = snapshot;
    expect(res.body.data[0].content_deleted).toEqual(visible);
    expect(res.body.data[0].relationships).toEqual({ question: null, sender: userSummary(other) });
  });
});

describe("GET /api/notifications/count", () => {
  it("counts the caller's unread ones, of a type when asked", async () => {
    const [me, other] = await twoUsers();
    await notify(me, other);
    await notify(me, other, { type: "comment_replied" });
    await notify(me, other, { read_time: T });
    await notify(other, me);
    // Of every type, the count is the stored counter (docs/counters.md), which these inserts behind the API's back
    // leave to be synced.
    await syncUnread(me);
    const all = await get("/api/notifications/count", { token: me.token });
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ code: 0, data: { notification_count: 2 } });
    expect(all.roundTrips).toBeLessThanOrEqual(1);
    const typed = await get("/api/notifications/count", { token: me.token, query: { type: "comment_replied" } });
    expect(typed.body.data).toEqual({ notification_count: 1 });
  });
});

describe("POST /api/notifications/{notification_ids}/read", () => {
  it("marks the caller's ones read and answers them in order with pagination (operation 6)", async () => {
    const [me, other] = await twoUsers();
    const questionId = await createQuestion(me.user_id);
    const a = await notify(me, other, { question_id: questionId });
    const b = await notify(me, other, { read_time: T });
    const theirs = await notify(other, me);
    await syncUnread(me);
    const res = await post(`/api/notifications/${b},${theirs},${a}/read`, {
      token: me.token,
      query: { include: "sender,question" },
    });
    expect(res.status).toBe(200);
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    const readTime = (await stored(a)).read_time as number;
    expect(readTime).toBeGreaterThanOrEqual(now() - 5);
    expect(res.body).toEqual({
      code: 0,
      data: [
        {
          notification_id: b,
          receiver_id: me.user_id,
          sender_id: other.user_id,
          type: "question_answered",
          article_id: 0,
          question_id: 0,
          answer_id: 0,
          comment_id: 0,
          reply_id: 0,
          create_time: T,
          read_time: T,
          relationships: { sender: userSummary(other), question: null },
        },
        {
          notification_id: a,
          receiver_id: me.user_id,
          sender_id: other.user_id,
          type: "question_answered",
          article_id: 0,
          question_id: questionId,
          answer_id: 0,
          comment_id: 0,
          reply_id: 0,
          create_time: T,
          read_time: readTime,
          relationships: {
            sender: userSummary(other),
            question: await (async () => {
              const q = await row("questions", "question_id", questionId);
              return {
                question_id: questionId,
                title: q.title,
                create_time: q.create_time,
                update_time: q.update_time,
              };
            })(),
          },
        },
      ],
      pagination: { page: 1, per_page: 3, previous: null, next: null, total: 2, pages: 1 },
    });
    // Another user's is neither marked nor shown; an already read one keeps its read_time.
    expect((await stored(theirs)).read_time).toBe(0);
    expect((await stored(b)).read_time).toBe(T);
    expect(await unread(me)).toBe(0);
  });

  it("answers 208001 for a single id that is another user's or missing, and changes nothing", async () => {
    const [me, other] = await twoUsers();
    const theirs = await notify(other, me);
    for (const id of [theirs, theirs + 1000]) {
      const res = await post(`/api/notifications/${id}/read`, { token: me.token });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(208001);
    }
    expect((await stored(theirs)).read_time).toBe(0);
  });

  it("answers a single own id as a one-item page", async () => {
    const [me, other] = await twoUsers();
    const id = await notify(me, other);
    const res = await post(`/api/notifications/${id}/read`, { token: me.token });
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([id]);
    expect(res.body.pagination.total).toBe(1);
  });

  it("refuses more than 100 ids or a part that is not an id with 200001", async () => {
    const me = await createUser();
    const many = Array.from({ length: 101 }, (_, i) => i + 1).join(",");
    for (const path of [`/api/notifications/${many}/read`, "/api/notifications/1,x/read"]) {
      const res = await post(path, { token: me.token });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(200001);
    }
  });

  it("keeps notification_unread exact when two requests mark the same ones at once", async () => {
    const [me, other] = await twoUsers();
    const list = [await notify(me, other), await notify(me, other), await notify(me, other)];
    await notify(me, other);
    await syncUnread(me);
    expect(await unread(me)).toBe(4);
    const path = `/api/notifications/${list.join(",")}/read`;
    const [first, second] = await Promise.all([post(path, { token: me.token }), post(path, { token: me.token })]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(await unread(me)).toBe(1);
  });
});

describe("POST /api/notifications/read", () => {
  it("marks all of the caller's (of a type) read, nobody else's, and recounts", async () => {
    const [me, other] = await twoUsers();
    const answered = await notify(me, other);
    const replied = await notify(me, other, { type: "comment_replied" });
    const theirs = await notify(other, me);
    await syncUnread(me);
    await syncUnread(other);
    const typed = await post("/api/notifications/read", { token: me.token, query: { type: "comment_replied" } });
    expect(typed.body).toEqual({ code: 0, data: null });
    expect((await stored(replied)).read_time).toBeGreaterThan(0);
    expect((await stored(answered)).read_time).toBe(0);
    expect(await unread(me)).toBe(1);
    const all = await post("/api/notifications/read", { token: me.token });
    expect(all.status).toBe(200);
    expect(all.roundTrips).toBeLessThanOrEqual(2);
    expect((await stored(answered)).read_time).toBeGreaterThan(0);
    expect(await unread(me)).toBe(0);
    expect((await stored(theirs)).read_time).toBe(0);
    expect(await unread(other)).toBe(1);
  });
});

describe("DELETE /api/notifications/{notification_ids}", () => {
  it("deletes only the caller's, silently skipping others' and missing ids, and recounts", async () => {
    const [me, other] = await twoUsers();
    const mine = [await notify(me, other), await notify(me, other)];
    const kept = await notify(me, other);
    const theirs = await notify(other, me);
    await syncUnread(me);
    const res = await del(`/api/notifications/${mine.join(",")},${theirs},${theirs + 1000}`, { token: me.token });
    expect(res.body).toEqual({ code: 0, data: null });
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    expect(await stored(mine[0]!)).toBeNull();
    expect(await stored(theirs)).not.toBeNull();
    expect(await stored(kept)).not.toBeNull();
    expect(await unread(me)).toBe(1);
    const single = await del(`/api/notifications/${theirs}`, { token: me.token });
    expect(single.body).toEqual({ code: 0, data: null });
    expect(await stored(theirs)).not.toBeNull();
  });
});

describe("DELETE /api/notifications", () => {
  it("deletes all of the caller's (of a type), nobody else's, and recounts", async () => {
    const [me, other] = await twoUsers();
    await notify(me, other);
    const replied = await notify(me, other, { type: "comment_replied" });
    const theirs = await notify(other, me);
    await syncUnread(me);
    await del("/api/notifications", { token: me.token, query: { type: "comment_replied" } });
    expect(await stored(replied)).toBeNull();
    expect(await unread(me)).toBe(1);
    const res = await del("/api/notifications", { token: me.token });
    expect(res.body).toEqual({ code: 0, data: null });
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    expect(await unread(me)).toBe(0);
    expect((await get("/api/notifications", { token: me.token })).body.data).toEqual([]);
    expect(await stored(theirs)).not.toBeNull();
  });
});

describe("notification_unread through the whole cycle", () => {
  it("stays exact after an event, a read and a delete", async () => {
    const [me, other] = await twoUsers();
    const questionId = await createQuestion(me.user_id);
    for (let i = 0; i < 2; i += 1) {
      const res = await post(`/api/questions/${questionId}/answers`, {
        token: other.token,
        body: { content_markdown: `answer ${i}` },
      });
      expect(res.status).toBe(200);
      expect(res.roundTrips).toBeLessThanOrEqual(2);
    }
    expect(await unread(me)).toBe(2);
    const list = await get("/api/notifications", { token: me.token });
    const [first, second] = ids(list);
    await post(`/api/notifications/${first}/read`, { token: me.token });
    expect(await unread(me)).toBe(1);
    await del(`/api/notifications/${second}`, { token: me.token });
    expect(await unread(me)).toBe(0);
    expect((await get("/api/notifications/count", { token: me.token })).body.data).toEqual({ notification_count: 0 });
  });
});

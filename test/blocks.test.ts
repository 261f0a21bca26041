/**
 * Blocks (docs/messages.md#blocks): a member's private list of those they block, through GET, PUT and DELETE
 * /api/user/blocks; a block stops the blocked member's answers, comments and replies from notifying the blocker, and
 * nobody but the blocker learns of it.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { now } from "../src/lib/time";
import { del, get, post, put } from "./helpers/api";
import { createAnswer, createArticle, createComment, createQuestion } from "./helpers/content";
import { createAdmin, createUser, type TestUser } from "./helpers/factories";
import { rowCount } from "./helpers/inbox";

const blocked = async (user: TestUser) =>
  (await get("/api/user/blocks", { token: user.token })).body.data.map((u: { user_id: number }) => u.user_id);

const notifications = async (user: TestUser) =>
  (
    await env.DB.prepare("SELECT type, sender_id FROM notifications WHERE receiver_id = ? ORDER BY notification_id")
      .bind(user.user_id)
      .all<{ type: string; sender_id: number }>()
  ).results;

const notificationUnread = async (user: TestUser) =>
  (await get("/api/user", { token: user.token })).body.data.notification_unread;

describe("PUT /api/user/blocks/{user_id}", () => {
  it("blocks a member once and answers their record, which says nothing of the block", async () => {
    const [me, them] = [await createUser(), await createUser()];
    const res = await put(`/api/user/blocks/${them.user_id}`, { token: me.token, query: { include: "is_me" } });
    expect(res.status).toBe(200);
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    expect(res.body.data).toMatchObject({ user_id: them.user_id, username: them.username });
    expect(res.body.data.relationships).toEqual({ is_me: false });
    expect(res.body.data).not.toHaveProperty("email");
    expect((await put(`/api/user/blocks/${them.user_id}`, { token: me.token })).status).toBe(200);
    expect(await rowCount("user_blocks")).toBe(1);
  });

  it("blocks a disabled member and an administrator too", async () => {
    const [me, admin, gone] = [await createUser(), await createAdmin(), await createUser({ disabled: true })];
    expect((await put(`/api/user/blocks/${gone.user_id}`, { token: me.token })).status).toBe(200);
    expect((await put(`/api/user/blocks/${admin.user_id}`, { token: me.token })).status).toBe(200);
    expect((await blocked(me)).sort()).toEqual([gone.user_id, admin.user_id].sort());
  });

  it("refuses oneself (209011) and a member who does not exist (201003), writing nothing", async () => {
    const me = await createUser();
    const self = await put(`/api/user/blocks/${me.user_id}`, { token: me.token });
    expect([self.status, self.body.code]).toEqual([400, 209011]);
    const missing = await put("/api/user/blocks/999999", { token: me.token });
    expect([missing.status, missing.body.code]).toEqual([404, 201003]);
    expect(await rowCount("user_blocks")).toBe(0);
  });

  it("refuses anonymous callers and disabled members with 201001", async () => {
    const [them, disabled] = [await createUser(), await createUser()];
    expect((await put(`/api/user/blocks/${them.user_id}`)).body.code).toBe(201001);
    await env.DB.prepare("UPDATE users SET disable_time = ? WHERE user_id = ?").bind(now(), disabled.user_id).run();
    expect((await put(`/api/user/blocks/${them.user_id}`, { token: disabled.token })).body.code).toBe(201001);
    expect((await get("/api/user/blocks", { token: disabled.token })).body.code).toBe(201001);
    expect(await rowCount("user_blocks")).toBe(0);
  });
});

describe("GET /api/user/blocks", () => {
  it("lists the members the caller blocks, the latest block first, with user includes, in one round trip", async () => {
    const [me, a, b, c] = [await createUser(), await createUser(), await createUser(), await createUser()];
    for (const them of [a, b, c]) await put(`/api/user/blocks/${them.user_id}`, { token: me.token });
    await env.DB.prepare("UPDATE user_blocks SET create_time = create_time - 10 WHERE blocked_user_id = ?")
      .bind(b.user_id)
      .run();
    const res = await get("/api/user/blocks", { token: me.token, query: { include: "is_following", per_page: 2 } });
    expect(res.status).toBe(200);
    expect(res.roundTrips).toBe(1);
    expect(res.body.data.map((u: { user_id: number }) => u.user_id)).toEqual([c.user_id, a.user_id]);
    expect(res.body.data[0].relationships).toEqual({ is_following: false });
    expect(res.body.pagination).toMatchObject({ total: 3, pages: 2, next: 2 });
  });

  it("shows each member only their own blocks", async () => {
    const [me, them, other] = [await createUser(), await createUser(), await createUser()];
    await put(`/api/user/blocks/${them.user_id}`, { token: me.token });
    expect(await blocked(them)).toEqual([]);
    expect(await blocked(other)).toEqual([]);
    expect((await get("/api/user/blocks")).body.code).toBe(201001);
  });
});

describe("DELETE /api/user/blocks/{user_id}", () => {
  it("unblocks, and unblocking someone not blocked changes nothing; 201003 for a missing member", async () => {
    const [me, them] = [await createUser(), await createUser()];
    await put(`/api/user/blocks/${them.user_id}`, { token: me.token });
    const res = await del(`/api/user/blocks/${them.user_id}`, { token: me.token });
    expect([res.status, res.body.data.user_id]).toEqual([200, them.user_id]);
    expect(await blocked(me)).toEqual([]);
    expect((await del(`/api/user/blocks/${them.user_id}`, { token: me.token })).status).toBe(200);
    expect((await del("/api/user/blocks/999999", { token: me.token })).body.code).toBe(201003);
    expect((await del(`/api/user/blocks/${them.user_id}`)).body.code).toBe(201001);
  });
});

describe("a block silences the blocked member's notifications to the blocker", () => {
  it("stops answers, comments and replies from notifying, and only from the blocked member", async () => {
    const [blocker, pest, friend] = [await createUser(), await createUser(), await createUser()];
    const question = await createQuestion(blocker.user_id);
    const article = await createArticle(blocker.user_id);
    const answer = await createAnswer(blocker.user_id, question);
    const comment = await createComment(blocker.user_id, "question", question);
    await put(`/api/user/blocks/${pest.user_id}`, { token: blocker.token });

    const writes = (by: TestUser) => [
      post(`/api/questions/${question}/answers`, { token: by.token, body: { content_markdown: "an answer" } }),
      post(`/api/questions/${question}/comments`, { token: by.token, body: { content: "a comment" } }),
      post(`/api/articles/${article}/comments`, { token: by.token, body: { content: "a comment" } }),
      post(`/api/answers/${answer}/comments`, { token: by.token, body: { content: "a comment" } }),
      post(`/api/comments/${comment}/replies`, { token: by.token, body: { content: "a reply" } }),
    ];
    for (const write of writes(pest)) expect((await write).status).toBe(200);
    expect(await notifications(blocker)).toEqual([]);
    expect(await notificationUnread(blocker)).toBe(0);

    for (const write of writes(friend)) expect((await write).status).toBe(200);
    expect((await notifications(blocker)).map((n) => n.sender_id)).toEqual(Array(5).fill(friend.user_id));
    expect(await notificationUnread(blocker)).toBe(5);

    await del(`/api/user/blocks/${pest.user_id}`, { token: blocker.token });
    expect(
      (await post(`/api/comments/${comment}/replies`, { token: pest.token, body: { content: "hi" } })).status,
    ).toBe(200);
    expect((await notifications(blocker)).at(-1)).toEqual({ type: "comment_replied", sender_id: pest.user_id });
  });

  it("leaves the blocked member's own notifications alone", async () => {
    const [blocker, pest] = [await createUser(), await createUser()];
    const question = await createQuestion(pest.user_id);
    await put(`/api/user/blocks/${pest.user_id}`, { token: blocker.token });
    await post(`/api/questions/${question}/answers`, { token: blocker.token, body: { content_markdown: "an answer" } });
    expect(await notifications(pest)).toEqual([{ type: "question_answered", sender_id: blocker.user_id }]);
  });
});

/**
 * Private messages (docs/messages.md): sending and who may write to whom, the inbox list, a conversation's messages,
 * the read-mark, removing a conversation, withdrawing a message, and the preferences on the caller's own record, for
 * anonymous callers, members, blocked members, disabled members and administrators.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { now } from "../src/lib/time";
import { call, del, get, patch, post, put } from "./helpers/api";
import { createQuestion } from "./helpers/content";
import { createAdmin, createUser, setOptions, type TestUser } from "./helpers/factories";
import { inboxUnread, rowCount, send, sent, unreadRows } from "./helpers/inbox";

const SUMMARY_KEYS = ["user_id", "username", "headline", "avatar"];
const MESSAGE_KEYS = [
  "message_id",
  "sender_id",
  "receiver_id",
  "content_markdown",
  "content_rendered",
  "create_time",
  "read_time",
];

async function disable(user: TestUser) {
  await env.DB.prepare("UPDATE users SET disable_time = ? WHERE user_id = ?").bind(now(), user.user_id).run();
}

const setAccept = (user: TestUser, inbox_accept: string) =>
  patch("/api/user", { token: user.token, body: { inbox_accept } });

describe("POST /api/inbox/{user_id}", () => {
  it("sends a message as an answer is sent, answers the Message and counts it unread for the receiver", async () => {
    const [sender, receiver] = [await createUser(), await createUser()];
    const time = now();
    const res = await send(sender, receiver, "Hello **there**", { include: "sender,receiver" });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.roundTrips).toBe(2);
    const message = res.body.data;
    expect(Object.keys(message)).toEqual([...MESSAGE_KEYS, "relationships"]);
    expect(message).toMatchObject({
      sender_id: sender.user_id,
      receiver_id: receiver.user_id,
      content_markdown: "Hello **there**",
      content_rendered: "<p>Hello <strong>there</strong></p>",
      read_time: 0,
    });
    expect(message.create_time).toBeGreaterThanOrEqual(time);
    expect(Object.keys(message.relationships.sender)).toEqual(SUMMARY_KEYS);
    expect(message.relationships.sender.user_id).toBe(sender.user_id);
    expect(message.relationships.receiver.user_id).toBe(receiver.user_id);
    expect(await inboxUnread(receiver)).toBe(1);
    expect(await inboxUnread(sender)).toBe(0);
  });

  it("processes the content exactly as an answer's: HTML sanitised and turned into markdown, links marked", async () => {
    const [sender, receiver] = [await createUser(), await createUser()];
    const question = await createQuestion(receiver.user_id);
    const bodies = [
      { content_rendered: '<p>Hi <b>you</b> <a href="javascript:alert(1)">x</a><img src=x onerror=alert(1)></p>' },
      {
        content_markdown: "[site](https://example.test) <b>raw</b>\n\n<script>alert(1)</script>",
        content_rendered: "<p>x</p>",
      },
      { content_markdown: "| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done" },
    ];
    for (const body of bodies) {
      const message = await post(`/api/inbox/${receiver.user_id}`, { token: sender.token, body });
      const answer = await post(`/api/questions/${question}/answers`, { token: sender.token, body });
      expect(message.status).toBe(200);
      expect(message.body.data.content_markdown).toBe(answer.body.data.content_markdown);
      expect(message.body.data.content_rendered).toBe(answer.body.data.content_rendered);
      expect(message.body.data.content_rendered).not.toMatch(/javascript:|onerror|<b>|<script/);
    }
  });

  it("refuses empty content and a wrong type with 200001 naming the fields, and writes nothing", async () => {
    const [sender, receiver] = [await createUser(), await createUser()];
    const empty = await post(`/api/inbox/${receiver.user_id}`, {
      token: sender.token,
      body: { content_markdown: " " },
    });
    expect([empty.status, empty.body.code]).toEqual([400, 200001]);
    expect(Object.keys(empty.body.errors).sort()).toEqual(["content_markdown", "content_rendered"]);
    const wrong = await post(`/api/inbox/${receiver.user_id}`, { token: sender.token, body: { content_markdown: 5 } });
    expect([wrong.status, wrong.body.code, wrong.body.errors]).toEqual([
      400,
      200001,
      { content_markdown: "must be a string" },
    ]);
    const malformed = await post(`/api/inbox/${receiver.user_id}`, {
      token: sender.token,
      rawBody: "{",
      headers: { "content-type": "application/json" },
    });
    expect(malformed.body.code).toBe(100006);
    expect(await rowCount("messages")).toBe(0);
    expect(await rowCount("conversations")).toBe(0);
  });

  it("refuses content over the answers' limits", async () => {
    const [sender, receiver] = [await createUser(), await createUser()];
    const res = await send(sender, receiver, "x".repeat(100_001));
    expect([res.status, res.body.code]).toEqual([400, 200001]);
    expect(res.body.errors.content_markdown).toBeTruthy();
  });

  it("refuses an anonymous caller and a disabled member's token with 201001", async () => {
    const [sender, receiver] = [await createUser(), await createUser()];
    const anonymous = await post(`/api/inbox/${receiver.user_id}`, { body: { content_markdown: "hi" } });
    expect([anonymous.status, anonymous.body.code]).toEqual([401, 201001]);
    await disable(sender);
    const disabled = await send(sender, receiver, "hi");
    expect([disabled.status, disabled.body.code]).toEqual([401, 201001]);
    expect(await rowCount("messages")).toBe(0);
  });

  it("refuses oneself (209002), a missing member (201003) and a disabled one (209004), administrators too", async () => {
    const [sender, receiver, admin] = [await createUser(), await createUser(), await createAdmin()];
    const self = await send(sender, sender, "me");
    expect([self.status, self.body.code]).toEqual([400, 209002]);
    const missing = await post("/api/inbox/999999", { token: sender.token, body: {} });
    expect([missing.status, missing.body.code]).toEqual([404, 201003]);
    await disable(receiver);
    for (const caller of [sender, admin]) {
      const res = await send(caller, receiver, "hi");
      expect([res.status, res.body.code]).toEqual([403, 209004]);
    }
    expect(await rowCount("messages")).toBe(0);
  });

  it("refuses a member the receiver blocks exactly as one the receiver accepts nothing from", async () => {
    const [blocked, other, receiver] = [await createUser(), await createUser(), await createUser()];
    expect((await put(`/api/user/blocks/${blocked.user_id}`, { token: receiver.token })).status).toBe(200);
    const byBlock = await send(blocked, receiver, "hi");
    expect(await setAccept(receiver, "nobody")).toMatchObject({ status: 200 });
    const byChoice = await send(other, receiver, "hi");
    expect([byBlock.status, byBlock.body]).toEqual([byChoice.status, byChoice.body]);
    expect([byBlock.status, byBlock.body.code]).toEqual([403, 209003]);
    // The refusal comes before the body is read: an empty one is no different.
    const empty = await post(`/api/inbox/${receiver.user_id}`, { token: blocked.token, body: {} });
    expect(empty.body).toEqual(byBlock.body);
    expect(await rowCount("messages")).toBe(0);
    expect(await inboxUnread(receiver)).toBe(0);
  });

  it("refuses a member who blocks the receiver (209005): unblocking lets them write", async () => {
    const [sender, receiver] = [await createUser(), await createUser()];
    await put(`/api/user/blocks/${receiver.user_id}`, { token: sender.token });
    const res = await send(sender, receiver, "hi");
    expect([res.status, res.body.code]).toEqual([403, 209005]);
    await del(`/api/user/blocks/${receiver.user_id}`, { token: sender.token });
    expect((await send(sender, receiver, "hi")).status).toBe(200);
  });

  it("lets a member who accepts only those they follow be written to by them alone", async () => {
    const [followed, stranger, receiver] = [await createUser(), await createUser(), await createUser()];
    await setAccept(receiver, "following");
    expect((await send(followed, receiver, "hi")).body.code).toBe(209003);
    await post(`/api/users/${followed.user_id}/followers`, { token: receiver.token });
    expect((await send(followed, receiver, "hi")).status).toBe(200);
    expect((await send(stranger, receiver, "hi")).body.code).toBe(209003);
    // Following the receiver the other way round gives nothing.
    await post(`/api/users/${receiver.user_id}/followers`, { token: stranger.token });
    expect((await send(stranger, receiver, "hi")).body.code).toBe(209003);
  });

  it("lets administrators write to a member who blocks them and accepts nothing", async () => {
    const [admin, receiver] = [await createAdmin(), await createUser()];
    await put(`/api/user/blocks/${admin.user_id}`, { token: receiver.token });
    await setAccept(receiver, "nobody");
    const res = await send(admin, receiver, "About your account");
    expect(res.status).toBe(200);
    expect(await inboxUnread(receiver)).toBe(1);
  });

  it("allows 10 new conversations an hour (209006, HTTP 429 with Retry-After), still any message to existing ones", async () => {
    const sender = await createUser();
    const receivers: TestUser[] = [];
    for (let i = 0; i < 11; i++) receivers.push(await createUser());
    for (const receiver of receivers.slice(0, 10)) expect((await send(sender, receiver, "hi")).status).toBe(200);
    const eleventh = await send(sender, receivers[10]!, "hi");
    expect([eleventh.status, eleventh.body.code]).toEqual([429, 209006]);
    const retry = Number(eleventh.headers.get("retry-after"));
    expect(retry).toBeGreaterThan(3500);
    expect(retry).toBeLessThanOrEqual(3600);
    expect(await rowCount("conversations")).toBe(10);
    expect((await send(sender, receivers[0]!, "again")).status).toBe(200);
    // An answer to someone who wrote first is no new conversation for the one answering.
    expect((await send(receivers[3]!, sender, "reply")).status).toBe(200);
    // Conversations older than an hour no longer count.
    await env.DB.prepare("UPDATE conversations SET create_time = create_time - 3601").run();
    expect((await send(sender, receivers[10]!, "hi")).status).toBe(200);
  });

  it("does not count administrators' new conversations", async () => {
    const admin = await createAdmin();
    await env.DB.prepare(
      "INSERT INTO conversations (user_id, create_time) SELECT ?, ? FROM (SELECT 1 UNION ALL SELECT 2) a, (SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5) b",
    )
      .bind(admin.user_id, now())
      .run();
    expect((await send(admin, await createUser(), "hi")).status).toBe(200);
  });

  it("puts a conversation first in both inboxes and brings it back to one who removed it", async () => {
    const [a, b, c] = [await createUser(), await createUser(), await createUser()];
    await sent(a, b, "first");
    await sent(c, b, "second");
    const before = await get("/api/inbox", { token: b.token });
    expect(before.body.data.map((row: { user_id: number }) => row.user_id)).toEqual([c.user_id, a.user_id]);
    expect((await del(`/api/inbox/${b.user_id}`, { token: a.token })).status).toBe(200);
    expect((await get("/api/inbox", { token: a.token })).body.data).toEqual([]);
    await sent(b, a, "third");
    const back = await get("/api/inbox", { token: a.token });
    expect(back.body.data.map((row: { user_id: number }) => row.user_id)).toEqual([b.user_id]);
    const messages = await get(`/api/inbox/${b.user_id}`, { token: a.token });
    expect(messages.body.data.map((m: { content_markdown: string }) => m.content_markdown)).toEqual(["third"]);
  });
});

describe("GET /api/inbox", () => {
  it("lists the caller's conversations, latest first, with the other member, unread count and last message", async () => {
    const [me, a, b] = [await createUser(), await createUser(), await createUser()];
    const first = await sent(a, me, "from a");
    await sent(a, me, "again from a");
    const mine = await sent(me, b, "to b");
    await env.DB.prepare("UPDATE conversation_members SET update_time = update_time - 10 WHERE other_user_id = ?")
      .bind(a.user_id)
      .run();
    const res = await get("/api/inbox", { token: me.token, query: { include: "user" } });
    expect(res.status).toBe(200);
    expect(res.roundTrips).toBe(1);
    expect(res.body.pagination).toMatchObject({ page: 1, per_page: 15, total: 2, pages: 1 });
    const [withB, withA] = res.body.data;
    expect(Object.keys(withB)).toEqual([
      "conversation_id",
      "user_id",
      "unread_count",
      "update_time",
      "last_message",
      "relationships",
    ]);
    expect(withB).toMatchObject({ user_id: b.user_id, unread_count: 0, update_time: mine.create_time });
    expect(withB.last_message).toEqual({ ...mine, relationships: undefined, ...withB.last_message });
    expect(Object.keys(withB.last_message)).toEqual(MESSAGE_KEYS);
    expect(withB.last_message.content_markdown).toBe("to b");
    expect(withB.relationships.user.user_id).toBe(b.user_id);
    expect(withA).toMatchObject({ user_id: a.user_id, unread_count: 2 });
    expect(withA.last_message.content_markdown).toBe("again from a");
    expect(withA.last_message.message_id).toBeGreaterThan(first.message_id);
    const bare = await get("/api/inbox", { token: me.token });
    expect(bare.body.data[0]).not.toHaveProperty("relationships");
  });

  it("pages through conversations", async () => {
    const me = await createUser();
    for (let i = 0; i < 3; i++) await sent(await createUser(), me, `m${i}`);
    const res = await get("/api/inbox", { token: me.token, query: { per_page: 2, page: 2 } });
    expect(res.body.data).toHaveLength(1);
    expect(res.body.pagination).toMatchObject({ page: 2, per_page: 2, previous: 1, next: null, total: 3, pages: 2 });
  });

  it("refuses anonymous callers and disabled members", async () => {
    const user = await createUser();
    expect((await get("/api/inbox")).body.code).toBe(201001);
    await disable(user);
    expect((await get("/api/inbox", { token: user.token })).body.code).toBe(201001);
  });
});

describe("GET /api/inbox/{user_id}", () => {
  it("lists the messages between the two members newest first, the same for both", async () => {
    const [a, b] = [await createUser(), await createUser()];
    const one = await sent(a, b, "one");
    const two = await sent(b, a, "two");
    const three = await sent(a, b, "three");
    for (const [viewer, other] of [
      [a, b],
      [b, a],
    ] as const) {
      const res = await get(`/api/inbox/${other.user_id}`, {
        token: viewer.token,
        query: { include: "sender,receiver" },
      });
      expect(res.status).toBe(200);
      expect(res.roundTrips).toBe(1);
      expect(res.body.data.map((m: { message_id: number }) => m.message_id)).toEqual([
        three.message_id,
        two.message_id,
        one.message_id,
      ]);
      expect(res.body.data[0].relationships.sender.user_id).toBe(a.user_id);
      expect(res.body.data[1].relationships.receiver.user_id).toBe(a.user_id);
      expect(res.body.pagination.total).toBe(3);
    }
  });

  it("answers an empty page before the first message, and 201003 for a member who does not exist", async () => {
    const [a, b] = [await createUser(), await createUser()];
    const empty = await get(`/api/inbox/${b.user_id}`, { token: a.token });
    expect([empty.status, empty.body.data, empty.body.pagination.total]).toEqual([200, [], 0]);
    const missing = await get("/api/inbox/999999", { token: a.token });
    expect([missing.status, missing.body.code]).toEqual([404, 201003]);
    expect((await get(`/api/inbox/${b.user_id}`)).body.code).toBe(201001);
  });

  it("marks nothing read", async () => {
    const [a, b] = [await createUser(), await createUser()];
    await sent(a, b, "unread");
    await get(`/api/inbox/${a.user_id}`, { token: b.token });
    expect(await inboxUnread(b)).toBe(1);
  });
});

describe("POST /api/inbox/{user_id}/read", () => {
  it("marks read every message to the caller in it, recounts inbox_unread and answers the Conversation", async () => {
    const [me, a, b] = [await createUser(), await createUser(), await createUser()];
    await sent(a, me, "1");
    await sent(a, me, "2");
    await sent(b, me, "3");
    await sent(me, a, "mine");
    expect(await inboxUnread(me)).toBe(3);
    const time = now();
    const res = await post(`/api/inbox/${a.user_id}/read`, { token: me.token, query: { include: "user" } });
    expect(res.status).toBe(200);
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    expect(res.body.data).toMatchObject({ user_id: a.user_id, unread_count: 0 });
    expect(res.body.data.relationships.user.user_id).toBe(a.user_id);
    expect(await inboxUnread(me)).toBe(1);
    // The sender sees when their messages were read; the caller's own message stays unread by its receiver.
    const seen = await get(`/api/inbox/${me.user_id}`, { token: a.token });
    const [mine, two, one] = seen.body.data;
    expect(mine.read_time).toBe(0);
    expect(two.read_time).toBeGreaterThanOrEqual(time);
    expect(one.read_time).toBe(two.read_time);
    expect(await inboxUnread(a)).toBe(1);
  });

  it("answers 209007 without a conversation, 201003 for a missing member, and writes nothing", async () => {
    const [a, b] = [await createUser(), await createUser()];
    const none = await post(`/api/inbox/${b.user_id}/read`, { token: a.token });
    expect([none.status, none.body.code]).toEqual([404, 209007]);
    const missing = await post("/api/inbox/999999/read", { token: a.token });
    expect([missing.status, missing.body.code]).toEqual([404, 201003]);
    expect((await post(`/api/inbox/${b.user_id}/read`)).body.code).toBe(201001);
  });
});

describe("DELETE /api/inbox/{user_id}", () => {
  it("takes the conversation out of the caller's inbox and unread count; the other member keeps theirs", async () => {
    const [a, b] = [await createUser(), await createUser()];
    await sent(a, b, "one");
    await sent(a, b, "two");
    expect(await inboxUnread(b)).toBe(2);
    const res = await del(`/api/inbox/${a.user_id}`, { token: b.token });
    expect([res.status, res.body]).toEqual([200, { code: 0, data: null }]);
    expect(await inboxUnread(b)).toBe(0);
    expect((await get("/api/inbox", { token: b.token })).body.data).toEqual([]);
    expect((await get(`/api/inbox/${a.user_id}`, { token: b.token })).body.data).toEqual([]);
    const kept = await get(`/api/inbox/${b.user_id}`, { token: a.token });
    expect(kept.body.data.map((m: { content_markdown: string }) => m.content_markdown)).toEqual(["two", "one"]);
    expect(kept.body.data.every((m: { read_time: number }) => m.read_time === 0)).toBe(true);
    // Removing it again changes nothing; a new message brings it back with only itself, unread.
    expect((await del(`/api/inbox/${a.user_id}`, { token: b.token })).status).toBe(200);
    await sent(a, b, "three");
    expect(await inboxUnread(b)).toBe(1);
    const back = await get("/api/inbox", { token: b.token });
    expect(back.body.data[0]).toMatchObject({ user_id: a.user_id, unread_count: 1 });
    expect(await unreadRows(b.user_id)).toBe(1);
  });

  it("answers 209007 without a conversation and 201003 for a missing member", async () => {
    const [a, b] = [await createUser(), await createUser()];
    expect((await del(`/api/inbox/${b.user_id}`, { token: a.token })).body.code).toBe(209007);
    expect((await del("/api/inbox/999999", { token: a.token })).body.code).toBe(201003);
    expect((await del(`/api/inbox/${b.user_id}`)).body.code).toBe(201001);
  });
});

describe("DELETE /api/messages/{message_id}", () => {
  it("lets the sender withdraw a message within the window: gone for both, the receiver's count follows", async () => {
    const [a, b] = [await createUser(), await createUser()];
    const message = await sent(a, b, "oops");
    await sent(a, b, "kept");
    const res = await del(`/api/messages/${message.message_id}`, { token: a.token });
    expect([res.status, res.body]).toEqual([200, { code: 0, data: null }]);
    expect(await inboxUnread(b)).toBe(1);
    for (const [viewer, other] of [
      [a, b],
      [b, a],
    ] as const) {
      const list = await get(`/api/inbox/${other.user_id}`, { token: viewer.token });
      expect(list.body.data.map((m: { content_markdown: string }) => m.content_markdown)).toEqual(["kept"]);
    }
    expect((await del(`/api/messages/${message.message_id}`, { token: a.token })).body.code).toBe(209001);
  });

  it("refuses the receiver (209009), tells anyone else it does not exist (209001), and lets administrators delete", async () => {
    const [a, b, third, admin] = [await createUser(), await createUser(), await createUser(), await createAdmin()];
    const message = await sent(a, b, "hi");
    const path = `/api/messages/${message.message_id}`;
    expect((await del(path, { token: b.token })).body.code).toBe(209009);
    const stranger = await del(path, { token: third.token });
    expect([stranger.status, stranger.body.code]).toEqual([404, 209001]);
    expect((await del("/api/messages/999999", { token: third.token })).body).toEqual(stranger.body);
    expect((await del(path)).body.code).toBe(201001);
    expect(await rowCount("messages")).toBe(1);
    await setOptions({ message_can_delete: false });
    expect((await del(path, { token: admin.token })).status).toBe(200);
    expect(await rowCount("messages")).toBe(0);
    expect(await inboxUnread(b)).toBe(0);
  });

  it("follows the settings: message_can_delete off is 209008, past message_can_delete_before is 209010", async () => {
    const [a, b] = [await createUser(), await createUser()];
    const message = await sent(a, b, "hi");
    const path = `/api/messages/${message.message_id}`;
    await setOptions({ message_can_delete: false });
    expect((await del(path, { token: a.token })).body.code).toBe(209008);
    await setOptions({ message_can_delete: true, message_can_delete_before: 60 });
    await env.DB.prepare("UPDATE messages SET create_time = create_time - 61").run();
    const late = await del(path, { token: a.token });
    expect([late.status, late.body.code]).toEqual([403, 209010]);
    await setOptions({ message_can_delete_before: 0 });
    expect((await del(path, { token: a.token })).status).toBe(200);
  });

  it("is served at /api/inbox/messages/{message_id} too, with the same rules and answers", async () => {
    const [a, b, third] = [await createUser(), await createUser(), await createUser()];
    const message = await sent(a, b, "oops");
    const path = `/api/inbox/messages/${message.message_id}`;
    expect((await del(path)).body.code).toBe(201001);
    expect((await del(path, { token: b.token })).body.code).toBe(209009);
    expect([
      (await del(path, { token: third.token })).status,
      (await del(path, { token: third.token })).body.code,
    ]).toEqual([404, 209001]);
    expect(await rowCount("messages")).toBe(1);
    const res = await del(path, { token: a.token });
    expect([res.status, res.body]).toEqual([200, { code: 0, data: null }]);
    expect(await rowCount("messages")).toBe(0);
    expect(await inboxUnread(b)).toBe(0);
    expect((await del("/api/inbox/messages/abc", { token: a.token })).body.code).toBe(200001);
  });

  it("allows two minutes by default", async () => {
    const [a, b] = [await createUser(), await createUser()];
    const message = await sent(a, b, "hi");
    await env.DB.prepare("UPDATE messages SET create_time = create_time - 121").run();
    expect((await del(`/api/messages/${message.message_id}`, { token: a.token })).body.code).toBe(209010);
  });
});

describe("the caller's inbox preferences", () => {
  it("are everyone and no mail by default, on the caller's own record only", async () => {
    const [user, other, admin] = [await createUser(), await createUser(), await createAdmin()];
    const own = await get("/api/user", { token: user.token });
    expect(own.body.data).toMatchObject({ inbox_unread: 0, inbox_accept: "everyone", inbox_email: false });
    for (const viewer of [other, admin]) {
      const seen = await get(`/api/users/${user.user_id}`, { token: viewer.token });
      expect(seen.body.data).not.toHaveProperty("inbox_accept");
      expect(seen.body.data).not.toHaveProperty("inbox_email");
      expect(seen.body.data).not.toHaveProperty("inbox_unread");
    }
  });

  it("are set through PATCH /api/user without moving update_time, and validated", async () => {
    const user = await createUser({ create_time: now() - 1000 });
    const res = await patch("/api/user", { token: user.token, body: { inbox_accept: "following", inbox_email: true } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ inbox_accept: "following", inbox_email: true });
    expect(res.body.data.update_time).toBe(res.body.data.create_time);
    const bad = await patch("/api/user", { token: user.token, body: { inbox_accept: "friends", inbox_email: "yes" } });
    expect([bad.status, bad.body.code]).toEqual([400, 200001]);
    expect(bad.body.errors).toEqual({
      inbox_accept: "must be one of: everyone, following, nobody",
      inbox_email: "must be true or false",
    });
    const both = await patch("/api/user", { token: user.token, body: { headline: "Hi", inbox_accept: "nobody" } });
    expect(both.body.data).toMatchObject({ headline: "Hi", inbox_accept: "nobody", inbox_email: true });
    expect(both.body.data.update_time).toBeGreaterThan(both.body.data.create_time);
  });

  it("are not an administrator's to change", async () => {
    const [user, admin] = [await createUser(), await createAdmin()];
    const res = await patch(`/api/users/${user.user_id}`, {
      token: admin.token,
      body: { inbox_accept: "nobody", inbox_email: true },
    });
    expect(res.status).toBe(200);
    const own = await get("/api/user", { token: user.token });
    expect(own.body.data).toMatchObject({ inbox_accept: "everyone", inbox_email: false });
  });
});

describe("every inbox route, by role", () => {
  it("refuses every route to anonymous callers and to disabled members' tokens with 201001", async () => {
    const [member, other] = [await createUser(), await createUser()];
    const message = await sent(member, other, "hi");
    await disable(member);
    const routes: [string, string][] = [
      ["GET", "/api/inbox"],
      ["GET", `/api/inbox/${other.user_id}`],
      ["POST", `/api/inbox/${other.user_id}`],
      ["POST", `/api/inbox/${other.user_id}/read`],
      ["DELETE", `/api/inbox/${other.user_id}`],
      ["DELETE", `/api/messages/${message.message_id}`],
      ["GET", "/api/user/blocks"],
      ["PUT", `/api/user/blocks/${other.user_id}`],
      ["DELETE", `/api/user/blocks/${other.user_id}`],
    ];
    for (const [method, path] of routes) {
      for (const token of [undefined, member.token]) {
        const body = method === "POST" ? { content_markdown: "x" } : undefined;
        const res = await call(method, path, { token, body });
        expect([res.status, res.body.code], `${method} ${path}`).toEqual([401, 201001]);
      }
    }
    expect(await rowCount("messages")).toBe(1);
  });

  it("lets a blocked member keep and read their conversation, mark it read and withdraw, but not write", async () => {
    const [blocker, blocked] = [await createUser(), await createUser()];
    const mine = await sent(blocked, blocker, "before the block");
    await sent(blocker, blocked, "a reply");
    await put(`/api/user/blocks/${blocked.user_id}`, { token: blocker.token });
    const inbox = await get("/api/inbox", { token: blocked.token });
    expect(inbox.body.data).toEqual([expect.objectContaining({ user_id: blocker.user_id, unread_count: 1 })]);
    expect((await get(`/api/inbox/${blocker.user_id}`, { token: blocked.token })).body.data).toHaveLength(2);
    expect((await post(`/api/inbox/${blocker.user_id}/read`, { token: blocked.token })).status).toBe(200);
    expect((await del(`/api/messages/${mine.message_id}`, { token: blocked.token })).status).toBe(200);
    expect((await send(blocked, blocker, "after")).body.code).toBe(209003);
    // Their own record says nothing of it.
    const own = await get("/api/user", { token: blocked.token, query: { include: "is_me" } });
    expect(JSON.stringify(own.body)).not.toMatch(/block/);
    // The blocker still reads the conversation and may write to them once they unblock.
    expect((await get(`/api/inbox/${blocked.user_id}`, { token: blocker.token })).body.data).toHaveLength(1);
    expect((await send(blocker, blocked, "hello")).body.code).toBe(209005);
  });

  it("lets an administrator use their own inbox as any member does", async () => {
    const [admin, member] = [await createAdmin(), await createUser()];
    await sent(member, admin, "to the staff");
    expect(await inboxUnread(admin)).toBe(1);
    const inbox = await get("/api/inbox", { token: admin.token });
    expect(inbox.body.data[0]).toMatchObject({ user_id: member.user_id, unread_count: 1 });
    expect((await post(`/api/inbox/${member.user_id}/read`, { token: admin.token })).status).toBe(200);
    expect(await inboxUnread(admin)).toBe(0);
    expect((await put(`/api/user/blocks/${member.user_id}`, { token: admin.token })).status).toBe(200);
    // An administrator's block stops the member's messages as anyone's does.
    expect((await send(member, admin, "again")).body.code).toBe(209003);
  });
});

/**
 * Live sockets (docs/events.md#live-updates): tickets, the upgrade and its refusals, public channels and a member's own
 * stream, the client protocol and its limits, the backlog, hibernation, and closing a member's sockets on logout,
 * password reset and disabling. Everything goes through the Worker, as a browser would.
 */
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../src/lib/crypto";
import { now } from "../src/lib/time";
import type { LiveHub } from "../src/modules/live/hub";
import { del, post, put } from "./helpers/api";
import { createAnswer, createComment, createQuestion } from "./helpers/content";
import { createAdmin, createToken, createUser, type TestUser } from "./helpers/factories";
import { type LiveSocket, openLive, ticketFor, upgrade } from "./helpers/live";
import { codeFromMail } from "./helpers/mailbox";

const hub = () => env.LIVE.get(env.LIVE.idFromName("hub:0")) as DurableObjectStub<LiveHub>;

const answer = (user: TestUser, question: number, text = "an answer") =>
  post(`/api/questions/${question}/answers`, { token: user.token, body: { content_markdown: text } });

async function memberSocket(user: TestUser, query: Record<string, string> = {}): Promise<LiveSocket> {
  const live = await openLive({ ticket: await ticketFor(user.token), ...query });
  await live.next((message) => message.type === "live.ready");
  return live;
}

describe("POST /api/live/tickets", () => {
  it("gives a member a single-use ticket valid 30 seconds, within the write budget", async () => {
    const user = await createUser();
    const res = await post("/api/live/tickets", { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body.data.ticket).toMatch(/^0\.[0-9a-f]{64}$/);
    expect(res.body.data.expire_time - now()).toBeGreaterThanOrEqual(29);
    expect(res.body.data.expire_time - now()).toBeLessThanOrEqual(30);
    expect(res.roundTrips).toBeLessThanOrEqual(2);
  });

  it("refuses an anonymous caller and a disabled user's token with 201001", async () => {
    const disabled = await createUser();
    await env.DB.prepare("UPDATE users SET disable_time = 1 WHERE user_id = ?").bind(disabled.user_id).run();
    for (const token of [undefined, disabled.token]) {
      const res = await post("/api/live/tickets", { token });
      expect([res.status, res.body.code]).toEqual([401, 201001]);
    }
  });
});

describe("GET /api/live", () => {
  it("answers 426 with 211006 without a WebSocket upgrade", async () => {
    const plain = await upgrade({}, { upgrade: "h2c" });
    expect(plain.status).toBe(426);
    expect((await plain.json<{ code: number }>()).code).toBe(211006);
  });

  it("answers 200001 naming the field for a malformed ticket, channel list or event id", async () => {
    for (const [field, value] of [
      ["ticket", "abc"],
      ["channels", "question:1,user:2"],
      ["channels", Array.from({ length: 51 }, (_, i) => `topic:${i + 1}`).join(",")],
      ["last_event_id", "42"],
    ]) {
      const res = await upgrade({ [field as string]: value as string });
      const body = await res.json<{ code: number; errors: Record<string, string> }>();
      expect([res.status, body.code, Object.keys(body.errors)]).toEqual([400, 200001, [field]]);
    }
  });

  it("opens one socket per ticket: a used, unknown or expired ticket is 401 with 211005", async () => {
    const user = await createUser();
    const ticket = await ticketFor(user.token);
    const first = await openLive({ ticket });
    expect((await first.next()).data).toEqual({ user_id: user.user_id, channels: [] });
    const again = await upgrade({ ticket });
    expect([again.status, (await again.json<{ code: number }>()).code]).toEqual([401, 211005]);
    const unknown = await upgrade({ ticket: `0.${"ab".repeat(32)}` });
    expect(unknown.status).toBe(401);
    const expired = `0.${"cd".repeat(32)}`;
    const hash = await sha256Hex(expired);
    await runInDurableObject(hub(), (instance: LiveHub) =>
      instance.issueTicket(hash, { user_id: user.user_id, token_hash: "t".repeat(64) }, now() - 1),
    );
    expect((await upgrade({ ticket: expired })).status).toBe(401);
    first.socket.close();
  });

  it("opens an anonymous socket with public channels only", async () => {
    const [asker, answerer] = [await createUser(), await createUser()];
    const question = await createQuestion(asker.user_id);
    const live = await openLive({ channels: `question:${question}` });
    expect((await live.next()).data).toEqual({ user_id: null, channels: [`question:${question}`] });
    await answer(answerer, question);
    const event = await live.next((message) => message.type === "answer.created");
    expect(event.id).toMatch(/^evt_/);
    expect(event.data).toMatchObject({ question_id: question, user_id: answerer.user_id });
    await live.settle();
    // The asker's notification and unread count went to the asker's stream, not to an anonymous socket.
    expect(live.events().map((message) => message.type)).toEqual(["answer.created"]);
    live.socket.close();
  });
});

describe("a member's own stream", () => {
  it("carries their notifications and unread counts, and nobody else's", async () => {
    const [asker, answerer, bystander] = [await createUser(), await createUser(), await createUser()];
    const question = await createQuestion(asker.user_id);
    const mine = await memberSocket(asker);
    const theirs = await memberSocket(bystander);
    const res = await answer(answerer, question);
    const notification = await mine.next((message) => message.type === "notification.created");
    expect(notification.data).toMatchObject({
      receiver_id: asker.user_id,
      sender_id: answerer.user_id,
      type: "question_answered",
      question_id: question,
      answer_id: res.body.data.answer_id,
      read_time: 0,
    });
    expect(notification.data.relationships.sender).toMatchObject({ user_id: answerer.user_id });
    const unread = await mine.next((message) => message.type === "unread.updated");
    expect(unread.data).toEqual({ notification_unread: 1, inbox_unread: 0 });
    // Reading it moves the count again, on the reader's stream.
    await post(`/api/notifications/${notification.data.notification_id}/read`, { token: asker.token });
    expect((await mine.next((message) => message.type === "unread.updated")).data.notification_unread).toBe(0);
    await theirs.settle();
    expect(theirs.events()).toEqual([]);
    await mine.settle();
    // The answer itself goes to the question's channel, which this socket does not hold.
    expect(mine.events().map((message) => message.type)).toEqual([
      "notification.created",
      "unread.updated",
      "unread.updated",
    ]);
    mine.socket.close();
    theirs.socket.close();
  });

  it("gets nothing for one's own action", async () => {
    const asker = await createUser();
    const question = await createQuestion(asker.user_id);
    const mine = await memberSocket(asker);
    expect((await answer(asker, question)).status).toBe(200);
    await mine.settle();
    expect(mine.events()).toEqual([]);
    mine.socket.close();
  });
});

describe("public channels", () => {
  it("subscribes and unsubscribes, and sends each channel's events to its sockets only", async () => {
    const author = await createUser();
    const [one, two] = [await createQuestion(author.user_id), await createQuestion(author.user_id)];
    const live = await openLive();
    await live.next();
    live.send({ subscribe: [`question:${one}`, `question:${two}`] });
    expect((await live.next()).data).toEqual({ channels: [`question:${one}`, `question:${two}`] });
    live.send({ unsubscribe: [`question:${two}`] });
    expect((await live.next()).data).toEqual({ channels: [`question:${one}`] });
    await answer(author, two, "on the other one");
    await answer(author, one, "on this one");
    expect((await live.next((message) => message.type === "answer.created")).data.question_id).toBe(one);
    await live.settle();
    expect(live.events()).toHaveLength(1);
    live.socket.close();
  });

  it("finds the page of a reply at any depth, and of a vote on an answer", async () => {
    const [author, other] = [await createUser(), await createUser()];
    const question = await createQuestion(author.user_id);
    const answerId = await createAnswer(author.user_id, question);
    const comment = await createComment(author.user_id, "answer", answerId);
    const reply = await createComment(author.user_id, "comment", comment);
    const live = await openLive({ channels: `question:${question}` });
    await live.next();
    await post(`/api/comments/${reply}/replies`, { token: other.token, body: { content: "deep down" } });
    const created = await live.next((message) => message.type === "comment.created");
    expect(created.data).toMatchObject({ commentable_type: "comment", commentable_id: reply, content: "deep down" });
    await post(`/api/answers/${answerId}/voters`, { token: other.token, body: { type: "up" } });
    const voted = await live.next((message) => message.type === "vote.updated");
    expect(voted.data).toEqual({
      votable_type: "answer",
      votable_id: answerId,
      vote_count: 1,
      vote_up_count: 1,
      vote_down_count: 0,
    });
    // The same vote again changes nothing, and emits nothing.
    await post(`/api/answers/${answerId}/voters`, { token: other.token, body: { type: "up" } });
    await live.settle();
    expect(live.events().map((message) => message.type)).toEqual(["comment.created", "vote.updated"]);
    live.socket.close();
  });

  it("sends nothing of a trashed question's page but the trash itself", async () => {
    const [author, admin, voter] = [await createUser(), await createAdmin(), await createUser()];
    const question = await createQuestion(author.user_id);
    const answerId = await createAnswer(author.user_id, question);
    const live = await openLive({ channels: `question:${question}` });
    await live.next();
    await post(`/api/questions/${question}/trash`, { token: admin.token });
    expect((await live.next((message) => message.type === "question.trashed")).data).toEqual({
      question_id: question,
    });
    expect((await post(`/api/answers/${answerId}/voters`, { token: voter.token, body: { type: "up" } })).status).toBe(
      200,
    );
    await live.settle();
    expect(live.events().map((message) => message.type)).toEqual(["question.trashed"]);
    live.socket.close();
  });
});

describe("the client protocol", () => {
  it("answers a bad message with live.error and keeps the socket", async () => {
    const live = await openLive();
    await live.next();
    live.send("not json");
    expect((await live.next()).data).toEqual({ code: 100006, message: "A message must be JSON" });
    live.send({ subscribe: ["user:1"] });
    const invalid = await live.next();
    expect(invalid.type).toBe("live.error");
    expect(invalid.data).toMatchObject({ code: 200001, errors: { subscribe: expect.any(String) } });
    live.send({ subscribe: ["question:1"], extra: true });
    expect((await live.next()).data.code).toBe(200001);
    live.send({ subscribe: Array.from({ length: 30 }, (_, i) => `topic:${i + 1}`) });
    await live.next();
    live.send({ subscribe: Array.from({ length: 30 }, (_, i) => `article:${i + 1}`) });
    expect((await live.next()).data.errors).toEqual({ subscribe: "a socket holds at most 50 channels" });
    live.send("ping");
    expect((await live.next()).data).toBe("pong");
    live.socket.close();
  });

  it("closes a socket that sends a message over 4 KB (1009) or too many at once (1008)", async () => {
    const big = await openLive();
    await big.next();
    big.send({ subscribe: [], padding: "x".repeat(5000) });
    expect((await big.closed).code).toBe(1009);
    const chatty = await openLive();
    await chatty.next();
    for (let i = 0; i < 12; i++) chatty.send({ subscribe: [] });
    expect((await chatty.closed).code).toBe(1008);
  });
});

describe("the backlog", () => {
  it("sends a returning socket what it missed on its channels and stream, in order, and no one else's", async () => {
    const [asker, answerer, third] = [await createUser(), await createUser(), await createUser()];
    const question = await createQuestion(asker.user_id);
    const elsewhere = await createQuestion(third.user_id);
    const first = await memberSocket(asker, { channels: `question:${question}` });
    await answer(answerer, question, "seen");
    const seen = await first.next((message) => message.type === "answer.created");
    await first.settle();
    first.socket.close();
    await answer(answerer, question, "missed");
    await answer(answerer, elsewhere, "not on this socket's channels, nor to its member");
    const back = await openLive({
      ticket: await ticketFor(asker.token),
      channels: `question:${question}`,
      last_event_id: seen.id as string,
    });
    await back.next((message) => message.type === "live.ready");
    await back.settle();
    // After the seen answer: its notification and count, then the missed answer with its own.
    expect(back.events().map((message) => message.type)).toEqual([
      "notification.created",
      "unread.updated",
      "answer.created",
      "notification.created",
      "unread.updated",
    ]);
    expect(back.events()[2]!.data.content_markdown).toBe("missed");
    expect(back.events()[4]!.data.notification_unread).toBe(2);
    back.socket.close();
  });

  it("tells a socket to reload when the backlog no longer has its last event", async () => {
    const live = await openLive({ last_event_id: "evt_gone" });
    await live.next();
    expect(await live.next()).toMatchObject({ id: null, type: "live.reload", data: { last_event_id: "evt_gone" } });
    live.socket.close();
  });

  it("keeps at most 500 events", async () => {
    const events = Array.from({ length: 501 }, (_, i) => ({
      id: `evt_${i}`,
      message: JSON.stringify({ id: `evt_${i}`, type: "x", time: 0, data: {} }),
      channels: ["topic:1"],
      members: [],
    }));
    await hub().publish(events);
    const oldest = await openLive({ channels: "topic:1", last_event_id: "evt_0" });
    await oldest.next();
    expect((await oldest.next()).type).toBe("live.reload");
    const kept = await openLive({ channels: "topic:1", last_event_id: "evt_1" });
    await kept.next();
    expect((await kept.next()).id).toBe("evt_2");
    oldest.socket.close();
    kept.socket.close();
  });
});

describe("hibernation", () => {
  it("keeps a socket's member, channels and backlog when the hub is evicted", async () => {
    const [asker, answerer] = [await createUser(), await createUser()];
    const question = await createQuestion(asker.user_id);
    const live = await memberSocket(asker);
    live.send({ subscribe: [`question:${question}`] });
    await live.next((message) => message.type === "live.subscribed");
    await evictDurableObject(hub(), { webSockets: "hibernate" });
    await answer(answerer, question);
    const types = new Set<string>();
    for (let i = 0; i < 3; i++) types.add((await live.next((message) => message.id !== null)).type);
    expect(types).toEqual(new Set(["answer.created", "notification.created", "unread.updated"]));
    // The backlog is in the hub's storage: a member coming back after another eviction gets what followed.
    await evictDurableObject(hub(), { webSockets: "hibernate" });
    const [first, ...rest] = live.events();
    const back = await memberSocket(asker, { channels: `question:${question}`, last_event_id: first!.id as string });
    await back.settle();
    expect(back.messages.map((message) => message.type)).not.toContain("live.reload");
    expect(back.events().map((message) => message.id)).toEqual(rest.map((message) => message.id));
    back.socket.close();
    live.socket.close();
  });
});

describe("closing a member's sockets", () => {
  it("closes the sockets of the token that logs out (4001), not the member's other sessions", async () => {
    const user = await createUser();
    const other = { ...user, token: await createToken(user.user_id) };
    const leaving = await memberSocket(user);
    const staying = await memberSocket(other);
    const unused = await ticketFor(user.token);
    expect((await del("/api/tokens/current", { token: user.token })).status).toBe(200);
    expect(await leaving.closed).toEqual({ code: 4001, reason: "session ended" });
    expect((await upgrade({ ticket: unused })).status).toBe(401);
    await staying.settle();
    staying.socket.close();
  });

  it("closes every socket of a member an administrator disables", async () => {
    const [user, admin] = [await createUser(), await createAdmin()];
    const sockets = [await memberSocket(user), await memberSocket({ ...user, token: await createToken(user.user_id) })];
    expect((await post(`/api/users/${user.user_id}/disable`, { token: admin.token })).status).toBe(200);
    for (const live of sockets) expect((await live.closed).code).toBe(4001);
  });

  it("closes every socket of a member whose password is reset", async () => {
    const user = await createUser();
    const live = await memberSocket(user);
    expect((await post("/api/user/password/email", { body: { email: user.email } })).status).toBe(200);
    const code = await codeFromMail(user.email);
    const res = await put("/api/user/password", {
      body: { email: user.email, email_code: code, password: "a brand new passphrase" },
    });
    expect([res.status, res.body.code]).toEqual([200, 0]);
    expect((await live.closed).code).toBe(4001);
  });
});

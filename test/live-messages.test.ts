/**
 * Private messages on the live path (docs/events.md#private-messages): a new message reaches its receiver's sockets
 * and its sender's, with the receiver's new `inbox_unread`; the read-mark, removing a conversation and withdrawing an
 * unread message push the new count. Nobody else gets a message: not a third member's socket, not an anonymous one,
 * not a returning socket's backlog, and never a webhook, whatever event types it asked for.
 */
import { describe, expect, it } from "vitest";
import { call, del, post } from "./helpers/api";
import { createAdmin, createToken, createUser, type TestUser } from "./helpers/factories";
import { sent } from "./helpers/inbox";
import { type LiveSocket, openLive, ticketFor } from "./helpers/live";
import { createWebhook, recordingQueue } from "./helpers/webhooks";

const SECRET = "the meeting is at the old mill";

async function memberSocket(user: TestUser, query: Record<string, string> = {}): Promise<LiveSocket> {
  const live = await openLive({ ticket: await ticketFor(user.token), ...query });
  await live.next((message) => message.type === "live.ready");
  return live;
}

const ofType = (type: string) => (message: { type: string }) => message.type === type;

describe("message.created", () => {
  it("reaches the receiver's and the sender's sockets with the receiver's unread count, and no one else", async () => {
    const [sender, receiver, bystander] = [await createUser(), await createUser(), await createUser()];
    const senderElsewhere = { ...sender, token: await createToken(sender.user_id) };
    const toReceiver = await memberSocket(receiver);
    const toSender = await memberSocket(senderElsewhere);
    const third = await memberSocket(bystander, { channels: `topic:1` });
    const anonymous = await openLive({ channels: `topic:1` });
    await anonymous.next(ofType("live.ready"));
    await createWebhook({ url: "https://hooks.example.com/everything" });
    const { bindings, sent: queued } = recordingQueue();

    const res = await call("POST", `/api/inbox/${receiver.user_id}`, {
      token: sender.token,
      body: { content_markdown: SECRET },
      env: bindings,
    });
    expect([res.status, res.body.code]).toEqual([200, 0]);
    const record = { ...res.body.data };

    const got = await toReceiver.next(ofType("message.created"));
    expect(got.data).toMatchObject({ ...record, content_markdown: SECRET, read_time: 0 });
    expect(got.data.relationships.sender).toMatchObject({ user_id: sender.user_id, username: sender.username });
    expect((await toReceiver.next(ofType("unread.updated"))).data).toEqual({ notification_unread: 0, inbox_unread: 1 });
    expect((await toSender.next(ofType("message.created"))).id).toBe(got.id);

    for (const other of [third, anonymous]) {
      await other.settle();
      expect(other.events()).toEqual([]);
    }
    // The sender's count did not move: their sockets get the message, not an unread count.
    await toSender.settle();
    expect(toSender.events().map((message) => message.type)).toEqual(["message.created"]);
    // A webhook that wants every type gets nothing of a message: no event, no text anywhere in what was queued.
    expect(queued).toEqual([]);
    for (const socket of [toReceiver, toSender, third, anonymous]) socket.socket.close();
  });

  it("is not a type a webhook may subscribe to (200001 naming event_types)", async () => {
    const admin = await createAdmin();
    const res = await post("/api/webhooks", {
      token: admin.token,
      body: { url: "https://hooks.example.com/messages", event_types: ["message.created"] },
    });
    expect([res.status, res.body.code]).toEqual([400, 200001]);
    expect(JSON.stringify(res.body)).toContain("event_types");
  });

  it("is not in a third member's backlog when they come back with a last event id", async () => {
    const [sender, receiver, bystander] = [await createUser(), await createUser(), await createUser()];
    const before = await memberSocket(receiver);
    await sent(sender, receiver, "first");
    const first = await before.next(ofType("message.created"));
    await sent(sender, receiver, SECRET);
    await before.next((message) => message.type === "message.created" && message.data.content_markdown === SECRET);
    before.socket.close();

    // The receiver coming back gets the second message from the backlog; a third member with the same id, nothing.
    const back = await memberSocket(receiver, { last_event_id: first.id as string });
    expect((await back.next(ofType("message.created"))).data.content_markdown).toBe(SECRET);
    const other = await memberSocket(bystander, { last_event_id: first.id as string });
    await other.settle();
    expect(other.events()).toEqual([]);
    back.socket.close();
    other.socket.close();
  });
});

describe("inbox_unread on the receiver's sockets", () => {
  it("follows the read-mark, removing a conversation and withdrawing an unread message", async () => {
    const [sender, receiver] = [await createUser(), await createUser()];
    const live = await memberSocket(receiver);
    const unread = async () => (await live.next(ofType("unread.updated"))).data.inbox_unread;

    await sent(sender, receiver, "one");
    expect(await unread()).toBe(1);
    const read = await post(`/api/inbox/${sender.user_id}/read`, { token: receiver.token });
    expect(read.status).toBe(200);
    expect(await unread()).toBe(0);
    // Marking it read again marks nothing: no event.
    expect((await post(`/api/inbox/${sender.user_id}/read`, { token: receiver.token })).status).toBe(200);

    await sent(sender, receiver, "two");
    expect(await unread()).toBe(1);
    expect((await del(`/api/inbox/${sender.user_id}`, { token: receiver.token })).status).toBe(200);
    expect(await unread()).toBe(0);

    const withdrawn = await sent(sender, receiver, "three");
    expect(await unread()).toBe(1);
    expect((await del(`/api/messages/${withdrawn.message_id}`, { token: sender.token })).status).toBe(200);
    expect(await unread()).toBe(0);

    await live.settle();
    expect(live.events().map((message) => [message.type, message.data.inbox_unread])).toEqual([
      ["message.created", undefined],
      ["unread.updated", 1],
      ["unread.updated", 0],
      ["message.created", undefined],
      ["unread.updated", 1],
      ["unread.updated", 0],
      ["message.created", undefined],
      ["unread.updated", 1],
      ["unread.updated", 0],
    ]);
    live.socket.close();
  });
});

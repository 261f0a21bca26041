/**
 * `inbox_unread` (docs/messages.md#unread-counts, docs/counters.md#unread-messages): the unread messages addressed to
 * the member still in their inbox, exact under concurrent sends, read-marks, removals and withdrawals, because each
 * of those recounts it from the rows in its own batch.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { del, get, post } from "./helpers/api";
import { createUser, type TestUser } from "./helpers/factories";
import { inboxUnread, send, sent, unreadRows } from "./helpers/inbox";

/** The receiver reads more conversations than its per-minute write limit allows: that limit is not this file's subject. */
const unlimited = { ...env, LIMIT_INBOX_USER: undefined };
const read = (reader: TestUser, other: TestUser) =>
  post(`/api/inbox/${other.user_id}/read`, { token: reader.token, env: unlimited });

async function members(n: number): Promise<TestUser[]> {
  const list: TestUser[] = [];
  for (let i = 0; i < n; i++) list.push(await createUser());
  return list;
}

// Each call returns once its request's `waitUntil` work is done (test/helpers/api.ts), which now also builds and
// sends each message's events (docs/events.md#private-messages): fifty parallel sends came to 4.4 s in the full suite
// on the loaded two-core machine, near the default 5 s.
describe("inbox_unread under concurrency", { timeout: 15_000 }, () => {
  it("counts 50 sends at once from 50 members exactly, then stays exact through reads racing new sends", async () => {
    const receiver = await createUser();
    const senders = await members(50);
    const first = await Promise.all(senders.map((sender, i) => send(sender, receiver, `message ${i}`)));
    expect(first.map((res) => res.status)).toEqual(Array(50).fill(200));
    expect(await inboxUnread(receiver)).toBe(50);
    expect(await unreadRows(receiver.user_id)).toBe(50);
    const inbox = await get("/api/inbox", { token: receiver.token, query: { per_page: 100 } });
    expect(inbox.body.pagination.total).toBe(50);
    expect(inbox.body.data.every((row: { unread_count: number }) => row.unread_count === 1)).toBe(true);

    // The first 25 conversations are read while their senders and the other 25 write again, all at once.
    const reads = senders.slice(0, 25).map((sender) => read(receiver, sender));
    const again = senders.map((sender, i) => send(sender, receiver, `again ${i}`));
    const results = await Promise.all([...reads, ...again]);
    expect(results.map((res) => res.status)).toEqual(Array(75).fill(200));
    const exact = await unreadRows(receiver.user_id);
    expect(await inboxUnread(receiver)).toBe(exact);
    // Each of the 25 read conversations holds 0 or 1 unread message (its second one came before or after the read),
    // each of the other 25 holds 2.
    expect(exact).toBeGreaterThanOrEqual(50);
    expect(exact).toBeLessThanOrEqual(75);

    // Reading everything leaves 0, with nothing still sending.
    await Promise.all(senders.map((sender) => read(receiver, sender)));
    expect(await inboxUnread(receiver)).toBe(0);
    expect(await unreadRows(receiver.user_id)).toBe(0);
    // Fifty members and 175 requests on a machine shared with other test runs.
  }, 120_000);

  it("stays exact when removals and withdrawals race sends", async () => {
    const receiver = await createUser();
    const senders = await members(10);
    const messages = await Promise.all(senders.map((sender) => sent(sender, receiver, "first")));
    const writes = senders.flatMap((sender, i) => [
      send(sender, receiver, "second"),
      i % 2 === 0
        ? del(`/api/inbox/${sender.user_id}`, { token: receiver.token })
        : del(`/api/messages/${messages[i]?.message_id}`, { token: sender.token }),
    ]);
    expect((await Promise.all(writes)).map((res) => res.status)).toEqual(Array(20).fill(200));
    const exact = await unreadRows(receiver.user_id);
    expect(await inboxUnread(receiver)).toBe(exact);
    // A withdrawal leaves the second message (5); a removal leaves it when it came after (0 to 5 more).
    expect(exact).toBeGreaterThanOrEqual(5);
    expect(exact).toBeLessThanOrEqual(10);
  }, 60_000);

  it("never goes below 0 however often a conversation is read or removed", async () => {
    const [a, b] = [await createUser(), await createUser()];
    await sent(a, b, "one");
    const writes = Array.from({ length: 6 }, (_, i) =>
      i % 2
        ? post(`/api/inbox/${a.user_id}/read`, { token: b.token })
        : del(`/api/inbox/${a.user_id}`, { token: b.token }),
    );
    await Promise.all(writes);
    expect(await inboxUnread(b)).toBe(0);
    expect(await unreadRows(b.user_id)).toBe(0);
  });
});

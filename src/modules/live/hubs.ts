/**
 * Which hub holds which socket (docs/events.md#scaling-the-sockets): `LIVE_SHARDS` hubs (one by default), a member's
 * sockets and tickets always in the same one (by user id), an anonymous socket in any; a public event goes to every
 * hub, a member's only to theirs.
 */
import type { Bindings } from "../../core/env";
import type { Closing } from "../events/outbox";
import type { HubEvent, LiveHub } from "./hub";

const shardCount = (env: Pick<Bindings, "LIVE_SHARDS">): number =>
  Math.max(1, Math.floor(Number(env.LIVE_SHARDS) || 1));

export const memberShard = (env: Pick<Bindings, "LIVE_SHARDS">, userId: number): number => userId % shardCount(env);

export const anyShard = (env: Pick<Bindings, "LIVE_SHARDS">): number => Math.floor(Math.random() * shardCount(env));

export function hubOf(env: Pick<Bindings, "LIVE">, shard: number): DurableObjectStub<LiveHub> {
  const hubs = env.LIVE as DurableObjectNamespace<LiveHub>;
  return hubs.get(hubs.idFromName(`hub:${shard}`));
}

/** Hands each hub the events and closings that concern its sockets: one call per hub that has any. */
export async function sendToHubs(env: Bindings, events: HubEvent[], closings: Closing[]): Promise<void> {
  const shards = shardCount(env);
  const calls: Promise<unknown>[] = [];
  for (let shard = 0; shard < shards; shard++) {
    const mine = (ids: number[]) => ids.filter((id) => id % shards === shard);
    const hub = hubOf(env, shard);
    const sent = events
      .map((event) => ({ ...event, members: mine(event.members) }))
      .filter((event) => event.channels.length > 0 || event.members.length > 0);
    if (sent.length) calls.push(hub.publish(sent));
    // A session's hub is its member's, whom a token alone does not name: every hub is asked.
    for (const closing of closings) {
      if ("tokenHash" in closing) calls.push(hub.closeSessions(closing));
      else if (mine(closing.userIds).length) calls.push(hub.closeSessions({ userIds: mine(closing.userIds) }));
    }
  }
  await Promise.all(calls);
}

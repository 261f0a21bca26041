/**
 * The live socket's protocol (docs/events.md#the-socket-protocol): the server sends `{id, type, time, data}`, events
 * with their id, its own notices (`live.*`) with a null id; a client sends `{"subscribe": [...]}` or
 * `{"unsubscribe": [...]}`, and `ping` (answered `pong` without waking the hub). The limits are the hub's.
 */
import { z } from "../../http/openapi";
import { now } from "../../lib/time";
import { zodToApiError } from "../../lib/validation";
import { CHANNEL_PATTERN } from "../events/channels";

export const LIMITS = {
  /** Public channels one socket may hold at once. */
  channels: 50,
  /** Bytes of one client message; a bigger one closes the socket (1009). */
  messageBytes: 4096,
  /** Client messages: a burst of this many, then this many a second; past it the socket closes (1008). */
  burst: 10,
  perSecond: 5,
  /** Events a hub keeps for clients that come back (`last_event_id`), and for how long (seconds). */
  backlog: 500,
  backlogSeconds: 900,
  /** Seconds a ticket may wait for its socket. */
  ticketSeconds: 30,
  /**
   * Sockets one hub accepts: the platform's limit is 32,768 per Durable Object, a margin is kept for the ones
   * closing. Past it a new socket is refused (503): raise LIVE_SHARDS (docs/events.md#scaling-the-sockets).
   */
  sockets: 32_000,
};

/** Close codes the hub uses besides the protocol's own (1008 policy, 1009 too big). */
export const CLOSE_SESSION_ENDED = 4001;

/** A list of channels, as a message carries it: at most the limit, each valid (an error names the list). */
const ChannelList = z
  .array(z.string())
  .max(LIMITS.channels, `at most ${LIMITS.channels} channels`)
  .refine(
    (channels) => channels.every((channel) => CHANNEL_PATTERN.test(channel)),
    "a channel is question:<id>, article:<id> or topic:<id>",
  );

const ClientMessage = z
  .object({ subscribe: ChannelList.optional(), unsubscribe: ChannelList.optional() })
  .strict()
  .refine((message) => message.subscribe || message.unsubscribe, "send subscribe or unsubscribe");

/** A client message, or the 200001 body naming what is wrong with it. */
export function parseClientMessage(
  text: string,
): { ok: true; subscribe: string[]; unsubscribe: string[] } | { ok: false; error: Record<string, unknown> } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: { code: 100006, message: "A message must be JSON" } };
  }
  const parsed = ClientMessage.safeParse(json);
  if (!parsed.success) return { ok: false, error: zodToApiError(parsed.error, "message").toBody() };
  return { ok: true, subscribe: parsed.data.subscribe ?? [], unsubscribe: parsed.data.unsubscribe ?? [] };
}

/** A notice of the hub's own: `live.ready`, `live.subscribed`, `live.reload`, `live.error`. */
export const notice = (type: string, data: Record<string, unknown>): string =>
  JSON.stringify({ id: null, type, time: now(), data });

/** The tag of a member's sockets, and of one session's (the first 32 hex digits of its token's SHA-256). */
export const memberTag = (userId: number) => `member:${userId}`;
export const sessionTag = (tokenHash: string) => `session:${tokenHash.slice(0, 32)}`;

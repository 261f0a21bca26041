/**
 * Live tickets and the socket upgrade (docs/events.md#live-updates). A browser cannot send a header with a WebSocket,
 * and a token in a URL would end up in logs: a logged-in page asks for a ticket with its token, then opens the socket
 * with the ticket, which works once, for a few seconds. It is kept in the Durable Object that will hold the member's
 * socket, whose storage is consistent (KV, eventually consistent, could let one ticket open two sockets).
 */
import type { CallerId } from "../../core/caller";
import type { Bindings } from "../../core/env";
import { ApiError } from "../../core/errors";
import { randomToken, sha256Hex } from "../../lib/crypto";
import { now } from "../../lib/time";
import { anyShard, hubOf, memberShard } from "./hubs";
import { LIMITS } from "./protocol";

/** `<hub>.<64 hex>`: the hub that keeps it, and the secret. */
export const TICKET_PATTERN = /^(\d{1,4})\.[0-9a-f]{64}$/;

/** A single-use ticket for the caller, bound to the token they asked with (closing that session closes its socket). */
export async function issueTicket(
  env: Bindings,
  caller: CallerId,
  tokenHash: string,
): Promise<{ ticket: string; expire_time: number }> {
  const shard = memberShard(env, caller.user_id);
  const ticket = `${shard}.${randomToken()}`;
  const expire_time = now() + LIMITS.ticketSeconds;
  await hubOf(env, shard).issueTicket(
    await sha256Hex(ticket),
    { user_id: caller.user_id, token_hash: tokenHash },
    expire_time,
  );
  return { ticket, expire_time };
}

/**
 * The socket: the request (its query checked) goes to the hub the ticket names, or to any hub for an anonymous one.
 * The hub's refusals become this API's errors.
 */
export async function connect(env: Bindings, request: Request, ticket: string | undefined): Promise<Response> {
  const shard = ticket ? Number(TICKET_PATTERN.exec(ticket)?.[1]) : anyShard(env);
  const answer = await hubOf(env, shard).fetch(request);
  if (answer.status === 401) throw new ApiError("LIVE_TICKET_INVALID");
  if (answer.status === 503) throw new ApiError("LIVE_FULL");
  // A response of our own, whose headers the middleware may still add to (a fetched one's are immutable).
  return new Response(null, { status: 101, webSocket: answer.webSocket });
}

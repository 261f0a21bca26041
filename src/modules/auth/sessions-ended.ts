/**
 * What follows sessions D1 has just ended (a logout, a password reset, disabled accounts), in one place: their
 * claims are revoked before the answer (docs/auth.md#what-a-claim-may-do) and their live sockets closed once it is
 * sent (docs/events.md#closing-a-members-sockets).
 */
import type { Context } from "hono";
import type { AppEnv } from "../../http/app-env";
import { sessionsEnded } from "../../http/auth/revocation";
import { closeLiveSockets } from "../events/outbox";

export async function endSessions(
  c: Context<AppEnv>,
  ended: { tokenHash: string } | { userIds: number[]; time: number },
): Promise<void> {
  await sessionsEnded(c.env, ended);
  closeLiveSockets(c.get("db"), ended);
}

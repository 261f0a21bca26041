/**
 * The live hub (docs/events.md#live-updates): a Durable Object holding WebSockets through the Hibernation API, so an
 * idle socket costs nothing, and sending them the events the publisher hands it. What must outlive hibernation is
 * stored: each socket's member and channels in its attachment (at most 2 KB), tickets and the bounded backlog in the
 * object's SQLite. Members' sockets carry tags (`member:<id>`, `session:<token>`), which the platform keeps; the
 * channel index is memory, rebuilt from the attachments when the object wakes.
 */
import { DurableObject } from "cloudflare:workers";
import type { Bindings } from "../../core/env";
import { sha256Hex } from "../../lib/crypto";
import { now } from "../../lib/time";
import { CLOSE_SESSION_ENDED, LIMITS, memberTag, notice, parseClientMessage, sessionTag } from "./protocol";

/** What a socket keeps across hibernation. */
interface Attachment {
  user: number | null;
  channels: string[];
}

/** The logged-in member a ticket was issued to, and the token (its SHA-256) they asked with. */
interface Holder {
  user_id: number;
  token_hash: string;
}

/** One event for the hub's sockets: its id (for the backlog), its text as sent, and who receives it. */
export interface HubEvent {
  id: string;
  message: string;
  channels: string[];
  members: number[];
}

const encoder = new TextEncoder();

export class LiveHub extends DurableObject<Bindings> {
  private readonly sql: SqlStorage;
  /** Sockets by channel, or null until needed after the object (re)starts. */
  private index: Map<string, Set<WebSocket>> | null = null;
  /** Each socket's message allowance; starting full again after hibernation is harmless. */
  private readonly allowance = new WeakMap<WebSocket, { tokens: number; at: number }>();

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`
      CREATE TABLE IF NOT EXISTS tickets (hash TEXT PRIMARY KEY, user_id INTEGER NOT NULL, token_hash TEXT NOT NULL,
        expire_time INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS backlog (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL,
        audience TEXT NOT NULL, message TEXT NOT NULL, time INTEGER NOT NULL);
      CREATE INDEX IF NOT EXISTS backlog_id ON backlog (id);
    `);
    // A keep-alive is answered by the platform without waking the object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  /** Keeps a ticket (by its SHA-256) for its holder until `expireTime`; expired ones go. */
  issueTicket(hash: string, holder: Holder, expireTime: number): void {
    this.sql.exec("DELETE FROM tickets WHERE expire_time < ?", now());
    this.sql.exec(
      "INSERT INTO tickets (hash, user_id, token_hash, expire_time) VALUES (?, ?, ?, ?)",
      hash,
      holder.user_id,
      holder.token_hash,
      expireTime,
    );
  }

  /**
   * A ticket's holder, once: the read and the delete run with nothing in between (a Durable Object runs one thing at
   * a time), so two sockets can never share a ticket.
   */
  private redeem(hash: string): Holder | null {
    const [row] = this.sql
      .exec<{ user_id: number; token_hash: string; expire_time: number }>(
        "SELECT user_id, token_hash, expire_time FROM tickets WHERE hash = ?",
        hash,
      )
      .toArray();
    if (!row) return null;
    this.sql.exec("DELETE FROM tickets WHERE hash = ?", hash);
    return row.expire_time >= now() ? { user_id: row.user_id, token_hash: row.token_hash } : null;
  }

  /**
   * The upgrade, forwarded by GET /api/live with its query checked: 401 for a ticket that is unknown, used or
   * expired, 503 when the hub is full, else the socket, told it is ready and sent what it missed.
   */
  override async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const ticket = url.searchParams.get("ticket");
    const holder = ticket ? this.redeem(await sha256Hex(ticket)) : null;
    if (ticket && !holder) return new Response(null, { status: 401 });
    if (this.ctx.getWebSockets().length >= LIMITS.sockets) return new Response(null, { status: 503 });

    const channels = [...new Set(url.searchParams.get("channels")?.split(",").filter(Boolean) ?? [])];
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, holder ? [memberTag(holder.user_id), sessionTag(holder.token_hash)] : []);
    const attachment: Attachment = { user: holder?.user_id ?? null, channels };
    server.serializeAttachment(attachment);
    this.indexed(server, [], channels);
    server.send(notice("live.ready", { user_id: attachment.user, channels }));
    const last = url.searchParams.get("last_event_id");
    if (last) this.replay(server, attachment, last);
    return new Response(null, { status: 101, webSocket: client });
  }

  /** Sends each event to its channels' and members' sockets, and keeps it in the backlog. Answers the sends made. */
  publish(events: HubEvent[]): number {
    const time = now();
    let sent = 0;
    for (const event of events) {
      const audience = [...event.channels, ...event.members.map(memberTag)];
      this.sql.exec(
        "INSERT INTO backlog (id, audience, message, time) VALUES (?, ?, ?, ?)",
        event.id,
        JSON.stringify(audience),
        event.message,
        time,
      );
      for (const socket of this.receivers(event)) {
        try {
          socket.send(event.message);
          sent += 1;
        } catch {
          // Closing meanwhile: its close handler takes it out of the index.
        }
      }
    }
    this.sql.exec(
      "DELETE FROM backlog WHERE seq <= (SELECT MAX(seq) FROM backlog) - ? OR time < ?",
      LIMITS.backlog,
      time - LIMITS.backlogSeconds,
    );
    return sent;
  }

  /**
   * Closes members' sockets (all of theirs, or one session's) and drops their unused tickets: logging out, a password
   * change, a disabled account (docs/events.md#closing-a-members-sockets). Answers how many sockets it closed.
   */
  closeSessions(closing: { tokenHash: string } | { userIds: number[] }): number {
    let sockets: WebSocket[];
    if ("tokenHash" in closing) {
      sockets = this.ctx.getWebSockets(sessionTag(closing.tokenHash));
      this.sql.exec("DELETE FROM tickets WHERE token_hash = ?", closing.tokenHash);
    } else {
      sockets = closing.userIds.flatMap((id) => this.ctx.getWebSockets(memberTag(id)));
      const ids = JSON.stringify(closing.userIds);
      this.sql.exec("DELETE FROM tickets WHERE user_id IN (SELECT value FROM json_each(?))", ids);
    }
    for (const socket of sockets) {
      this.forget(socket);
      try {
        socket.close(CLOSE_SESSION_ENDED, "session ended");
      } catch {
        // Already closing.
      }
    }
    return sockets.length;
  }

  override webSocketMessage(socket: WebSocket, message: string | ArrayBuffer): void {
    const size = typeof message === "string" ? encoder.encode(message).byteLength : message.byteLength;
    if (size > LIMITS.messageBytes) this.end(socket, 1009, `a message is at most ${LIMITS.messageBytes} bytes`);
    else if (!this.allowed(socket)) this.end(socket, 1008, "too many messages");
    else socket.send(this.answer(socket, typeof message === "string" ? message : new TextDecoder().decode(message)));
  }

  /** What a client's message changes, and the notice it is answered with. */
  private answer(socket: WebSocket, text: string): string {
    const parsed = parseClientMessage(text);
    if (!parsed.ok) return notice("live.error", parsed.error);
    const attachment = socket.deserializeAttachment() as Attachment;
    const channels = new Set(attachment.channels);
    for (const channel of parsed.unsubscribe) channels.delete(channel);
    for (const channel of parsed.subscribe) channels.add(channel);
    if (channels.size > LIMITS.channels) {
      const errors = { subscribe: `a socket holds at most ${LIMITS.channels} channels` };
      return notice("live.error", { code: 200001, message: "Field validation failed", errors });
    }
    const next = [...channels];
    this.indexed(socket, attachment.channels, next);
    socket.serializeAttachment({ ...attachment, channels: next } satisfies Attachment);
    return notice("live.subscribed", { channels: next });
  }

  override webSocketClose(socket: WebSocket): void {
    this.forget(socket);
  }

  override webSocketError(socket: WebSocket): void {
    this.forget(socket);
  }

  /** Sends what a returning socket missed after `last`, or tells it to reload when the backlog no longer has it. */
  private replay(socket: WebSocket, attachment: Attachment, last: string): void {
    const [seen] = this.sql.exec<{ seq: number }>("SELECT seq FROM backlog WHERE id = ?", last).toArray();
    if (!seen) {
      socket.send(notice("live.reload", { last_event_id: last }));
      return;
    }
    const audience = new Set(attachment.channels);
    if (attachment.user !== null) audience.add(memberTag(attachment.user));
    const rows = this.sql.exec<{ audience: string; message: string }>(
      "SELECT audience, message FROM backlog WHERE seq > ? ORDER BY seq",
      seen.seq,
    );
    for (const row of rows) {
      if ((JSON.parse(row.audience) as string[]).some((name) => audience.has(name))) socket.send(row.message);
    }
  }

  private receivers(event: HubEvent): Set<WebSocket> {
    const found = new Set<WebSocket>();
    const index = this.channelIndex();
    for (const channel of event.channels) for (const socket of index.get(channel) ?? []) found.add(socket);
    for (const member of event.members)
      for (const socket of this.ctx.getWebSockets(memberTag(member))) found.add(socket);
    return found;
  }

  private channelIndex(): Map<string, Set<WebSocket>> {
    if (this.index) return this.index;
    this.index = new Map();
    for (const socket of this.ctx.getWebSockets()) {
      const attachment = socket.deserializeAttachment() as Attachment | null;
      if (attachment) this.indexed(socket, [], attachment.channels);
    }
    return this.index;
  }

  /** Moves a socket in the index from its old channels to its new ones. */
  private indexed(socket: WebSocket, before: string[], after: string[]): void {
    // Before the index is first needed, it is built from the attachments, which already say this.
    if (!this.index) return;
    for (const channel of before) this.index.get(channel)?.delete(socket);
    for (const channel of after) {
      const sockets = this.index.get(channel) ?? new Set();
      sockets.add(socket);
      this.index.set(channel, sockets);
    }
  }

  private forget(socket: WebSocket): void {
    const attachment = socket.deserializeAttachment() as Attachment | null;
    if (attachment) this.indexed(socket, attachment.channels, []);
  }

  private end(socket: WebSocket, code: number, reason: string): void {
    this.forget(socket);
    socket.close(code, reason);
  }

  /** A token bucket per socket: `burst` messages at once, refilled at `perSecond`. */
  private allowed(socket: WebSocket): boolean {
    const time = Date.now();
    const bucket = this.allowance.get(socket) ?? { tokens: LIMITS.burst, at: time };
    bucket.tokens = Math.min(LIMITS.burst, bucket.tokens + ((time - bucket.at) / 1000) * LIMITS.perSecond);
    bucket.at = time;
    this.allowance.set(socket, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }
}

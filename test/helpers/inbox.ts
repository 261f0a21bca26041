/** Private messages through the API, and the ground truth of unread counts read straight from D1 (docs/messages.md). */
import { env } from "cloudflare:workers";
import { type ApiResponse, get, post } from "./api";
import type { TestUser } from "./factories";

/** Sends `text` from `from` to `to` as markdown. */
export const send = (from: TestUser, to: { user_id: number }, text: string, query?: Record<string, string>) =>
  post(`/api/inbox/${to.user_id}`, { token: from.token, body: { content_markdown: text }, query });

/** Sends and expects it to go through: the Message record. */
export async function sent(from: TestUser, to: { user_id: number }, text: string) {
  const res = await send(from, to, text);
  if (res.status !== 200) throw new Error(`send failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as { message_id: number; create_time: number; read_time: number };
}

/** The user's `inbox_unread` as their own record shows it. */
export async function inboxUnread(user: TestUser): Promise<number> {
  const res: ApiResponse = await get("/api/user", { token: user.token });
  return res.body.data.inbox_unread;
}

/** What `inbox_unread` must be: the unread messages to the user newer than what they removed of each conversation. */
export async function unreadRows(userId: number): Promise<number> {
  const row = await env.DB.prepare(
    `SELECT count(*) AS n FROM messages m JOIN conversation_members cm
       ON cm.user_id = m.receiver_id AND cm.other_user_id = m.sender_id
     WHERE m.receiver_id = ? AND m.read_time = 0 AND m.message_id > cm.clear_message_id`,
  )
    .bind(userId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** Rows of a table, to prove a refusal wrote nothing. */
export async function rowCount(table: "messages" | "conversations" | "conversation_members" | "user_blocks") {
  return (await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>())?.n ?? 0;
}

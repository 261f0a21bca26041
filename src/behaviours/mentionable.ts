/**
 * Mentions in what members write (docs/mentions.md): the members a text may name, read in the write's first batch,
 * and the notifications of the members newly mentioned, for its write batch. Finding and linking mentions is
 * lib/mentions.ts's; which notifications exist, notification-events.ts's.
 */
import { sql } from "drizzle-orm";
import type { BatchStatement, Db } from "../db/client";
import { users } from "../db/schema";
import type { View } from "../http/view";
import { foldName, type Member, type MentionMap, mentionCandidates } from "../lib/mentions";
import { type IdSource, inIds } from "./id-source";
import { type MentionedIn, userMentioned } from "./notification-events";

const member = { user_id: users.user_id, username: users.username };

/**
 * The members whose names `text` may mention (disabled ones too: a mention links to them all the same), found by the
 * unique index on lower(username); none to read when the text holds no `@`. Text of any type reads as none, for a
 * body not validated yet.
 */
export function selectMentionable(db: Db, text: unknown) {
  const names = typeof text === "string" ? mentionCandidates(text) : [];
  if (names.length === 0) return undefined;
  // One JSON parameter however many names (D1 binds at most 100 parameters per statement).
  return db
    .select(member)
    .from(users)
    .where(sql`lower(${users.username}) IN (SELECT value FROM json_each(${JSON.stringify(names)}))`);
}

/** Members by their ids (a list, or a subquery reading JSON ids), as a mention map's rows. */
export function selectMembers(db: Db, ids: IdSource) {
  return db.select(member).from(users).where(inIds(users.user_id, ids));
}

/** The rows of a lookup as the map mentions are resolved against. */
export const mentionMap = (rows: Member[] | undefined): MentionMap =>
  new Map((rows ?? []).map((row) => [foldName(row.username), row]));

/**
 * The text whose mentions a content body writes: its markdown, or the HTML it is converted from when the markdown is
 * blank (lib/markdown.ts decides the same way).
 */
export function mentionSource(body: unknown): unknown {
  const { content_markdown, content_rendered } = (body ?? {}) as Record<string, unknown>;
  return typeof content_markdown === "string" && content_markdown.trim() ? content_markdown : content_rendered;
}

/** The members a committed write may have told of a mention (`user_mentioned`), by whom and when. */
export interface MentionsSent {
  userIds: number[];
  senderId: number;
  time: number;
}

/**
 * `user_mentioned` to the members a write mentions that `before` (the version it replaces) did not, none when the
 * deployment serves MDClub's own front ends (docs/notifications.md#kinds-beyond-the-spec): the statements for the
 * write batch, and whom they may tell, for the write's events once it committed.
 */
export function notifyMentioned(
  db: Db,
  view: View,
  mentioned: number[] | null | undefined,
  before: number[],
  item: MentionedIn,
  authorId: number,
  senderId: number,
  time: number,
): { statements: BatchStatement[]; sent: MentionsSent } {
  const userIds = view.compat ? [] : (mentioned ?? []).filter((id) => !before.includes(id));
  return { statements: userMentioned(db, userIds, item, authorId, senderId, time), sent: { userIds, senderId, time } };
}

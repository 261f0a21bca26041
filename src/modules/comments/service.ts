/**
 * Rules of comments (docs/operations.md#comments): who sees which comments, the author rule on edits, and the lists.
 * Every read is one batch (rows, total, includes, and the owner's existence check), as is every write; the
 * lists and creation on each commentable target build on behaviours/commentable.ts.
 */
import { type CommentTarget, postComment } from "../../behaviours/commentable";
import { authoredPage, filteredPage, oneRecord, type PageQuery } from "../../behaviours/content/page";
import type { CommentRow } from "../../behaviours/content/present";
import { liveCheck, selectLive, selectLiveRow } from "../../behaviours/content/repo";
import { mentionMap, notifyMentioned, selectMentionable } from "../../behaviours/mentionable";
import type { CallerId } from "../../core/caller";
import { ApiError } from "../../core/errors";
import { type BatchStatement, batch, type Db, writeThenRead } from "../../db/client";
import { type CommentableKind, entities } from "../../domain/entities";
import { assertAuthorMay } from "../../domain/permissions";
import { parseBody } from "../../http/late-body";
import type { View } from "../../http/view";
import { mentionedIn } from "../../lib/mentions";
import { now } from "../../lib/time";
import { commentNotified, emit, emitMentioned, emitNotified } from "../events/outbox";
import { commentRecords } from "./records";
import { updateContent } from "./repo";
import { type Comment, CommentBody, CommentEditBody, type CommentInclude } from "./schema";

export interface CommentListQuery extends PageQuery {
  comment_id?: number;
  commentable_id?: number;
  commentable_type?: CommentableKind;
  user_id?: number;
  trashed?: string;
}

/** GET /comments (administrators): the filters, and `trashed=true` for the trash only. */
export function listComments(db: Db, view: View, query: CommentListQuery, include: Set<CommentInclude>) {
  const { comment_id, commentable_id, commentable_type, user_id } = query;
  const filter = { comment_id, commentable_id, commentable_type, user_id, trashed: query.trashed === "true" };
  return filteredPage(db, view, commentRecords, filter, query, include);
}

/** A user's live comments and replies, newest first by default; 201003 when the user does not exist. */
export function listUserComments(db: Db, view: View, userId: number, query: PageQuery, include: Set<CommentInclude>) {
  return authoredPage(db, view, commentRecords, userId, query, include);
}

/** One comment, after `writes` in the same batch; 204001 when missing (or trashed, for non-administrators). */
export function getComment(
  db: Db,
  view: View,
  id: number,
  include: Set<CommentInclude>,
  writes: BatchStatement[] = [],
): Promise<Comment> {
  return writeThenRead(db, writes, oneRecord(db, view, commentRecords, id, include));
}

/**
 * PATCH /comments/{id}, in the reference's order (docs/permissions.md#author-edit-and-delete-rules): 204001 for a
 * missing or trashed comment, the author rule (204002-204004), then the body. The content changes when sent (an edit
 * moves update_time); without it nothing changes.
 */
export async function editComment(
  db: Db,
  view: View,
  caller: CallerId,
  id: number,
  raw: unknown,
  include: Set<CommentInclude>,
): Promise<Comment> {
  const found = await batch(db, {
    comment: selectLiveRow(db, entities.comment, id),
    members: selectMentionable(db, contentIn(raw)),
  });
  const [comment] = found.comment as CommentRow[];
  if (!comment) throw new ApiError(entities.comment.notFound);
  const time = now();
  assertAuthorMay("comment", "edit", comment, caller, view.options, time);

  const { content } = parseBody(CommentEditBody, raw);
  if (content === undefined) return getComment(db, view, id, include);
  // Only the members the earlier text did not mention are told (docs/mentions.md#edits-and-restores).
  const members = mentionMap(found.members);
  const item = { type: "comment", id, target: comment.commentable_type, targetId: comment.commentable_id } as const;
  const [mentioned, before] = [mentionedIn(content, members), mentionedIn(comment.content, members)];
  const mentions = notifyMentioned(db, view, mentioned, before, item, comment.user_id, caller.user_id, time);
  const changed = [updateContent(db, id, content, time), ...mentions.statements];
  const edited = await getComment(db, view, id, include, changed);
  emit(db, "comment.updated", { ids: [id] });
  emitMentioned(db, mentions.sent, comment.commentable_type === "comment" ? "reply_id" : "comment_id", id);
  return edited;
}

/** The content a comment body seems to send, for its mentions to be looked up before it is validated. */
const contentIn = (raw: unknown): unknown => (raw as { content?: unknown } | null | undefined)?.content;

/** The live comments on a live target (else the target's NOT_FOUND), in one batch. */
export function listCommentsOn(
  db: Db,
  view: View,
  target: CommentTarget,
  id: number,
  query: PageQuery,
  include: Set<CommentInclude>,
) {
  const filter = { commentable_type: target.type, commentable_id: id, trashed: false };
  return filteredPage(db, view, commentRecords, filter, query, include, liveCheck(db, target, id));
}

/**
 * Posts a comment on a live target (else its NOT_FOUND, checked before the body) with everything it feeds and the
 * members it mentions told (docs/mentions.md), in one batch that also reads the new comment back. The target's
 * update_time stays (docs/decisions.md#content).
 */
export async function commentOn(
  db: Db,
  view: View,
  target: CommentTarget,
  id: number,
  userId: number,
  raw: unknown,
  include: Set<CommentInclude>,
) {
  const found = await batch(db, { live: selectLive(db, target, id), members: selectMentionable(db, contentIn(raw)) });
  if (found.live.length === 0) throw new ApiError(target.notFound);
  const { content } = parseBody(CommentBody, raw);
  const time = now();
  const { created, writes } = postComment(db, target.type, id, userId, content, time);
  const item = { type: "comment", id: created, target: target.type, targetId: id } as const;
  const mentioned = mentionedIn(content, mentionMap(found.members));
  const mentions = notifyMentioned(db, view, mentioned, [], item, userId, userId, time);
  const record = oneRecord(db, view, commentRecords, created, include);
  const comment = await writeThenRead(db, [...writes, ...mentions.statements], record);
  emit(db, "comment.created", { ids: [comment.comment_id] });
  const column = target.type === "comment" ? "reply_id" : "comment_id";
  emitMentioned(db, mentions.sent, column, comment.comment_id);
  emitNotified(db, {
    ...commentNotified(target.type, comment.comment_id),
    receivers: { authorsOf: target.type, ids: [id] },
    sender_id: userId,
    create_time: time,
  });
  return comment;
}

/**
 * Rules of comments (behaviour.md 3.4): who sees which comments, the author rule on edits, and the lists.
 * Every read is one batch (rows, total, includes, and the owner's existence check); see behaviours/commentable
 * for the lists and creation on each commentable target.
 */
import { type BatchStatement, type Db, writeThenRead } from "../../db/client";
import { type CommentableKind, entities } from "../../domain/entities";
import { assertAuthorMay } from "../../domain/permissions";
import type { Caller } from "../../env";
import { ApiError } from "../../lib/errors";
import { parseBody } from "../../lib/late-body";
import { now } from "../../lib/time";
import type { View } from "../../lib/view";
import { filteredPage, oneRecord, type PageQuery } from "../content/page";
import type { CommentRow } from "../content/present";
import { selectLiveRow } from "../content/repo";
import { userExists } from "../users/service";
import { commentRecords } from "./records";
import { updateContent } from "./repo";
import { type Comment, CommentEditBody, type CommentInclude } from "./schema";

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
  return filteredPage(
    db,
    view,
    commentRecords,
    { user_id: userId, trashed: false },
    query,
    include,
    userExists(db, view, userId),
  );
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
 * PATCH /comments/{id}, in the reference's order (behaviour.md 4.1): 204001 for a missing or trashed comment,
 * the author rule (204002-204004), then the body. The content changes when sent (an edit moves update_time);
 * without it nothing changes.
 */
export async function editComment(
  db: Db,
  view: View,
  caller: Caller,
  id: number,
  raw: unknown,
  include: Set<CommentInclude>,
): Promise<Comment> {
  const [comment] = (await selectLiveRow(db, entities.comment, id)) as CommentRow[];
  if (!comment) throw new ApiError(entities.comment.notFound);
  const time = now();
  assertAuthorMay("comment", "edit", comment, caller, view.options, time);

  const { content } = parseBody(CommentEditBody, raw);
  return getComment(db, view, id, include, content === undefined ? [] : [updateContent(db, id, content, time)]);
}

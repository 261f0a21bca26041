/**
 * Rules of comments (behaviour.md 3.4): who sees which comments, the author rule on edits, and the lists.
 * Every read is one batch (rows, total, includes, and the owner's existence check); see behaviours/commentable
 * for the lists and creation on each commentable target.
 */
import { eq, type SQL } from "drizzle-orm";
import { followTargets, selectTarget } from "../../behaviours/followable";
import type { IdSource } from "../../behaviours/id-source";
import { runBatch, type BatchStatement, type Db } from "../../db/client";
import { comments } from "../../db/schema";
import type { Caller } from "../../env";
import { ApiError } from "../../lib/errors";
import { parseOrder } from "../../lib/order";
import { parsePage } from "../../lib/pagination";
import { assertAuthorMay } from "../../lib/permissions";
import { now } from "../../lib/time";
import type { View } from "../../lib/view";
import { contentKinds } from "../content/kinds";
import { loadByIds, loadPage, type ExistenceCheck, type ListSource } from "../content/page";
import { presentRecord, type CommentRow, type Relationships } from "../content/present";
import { authorRelation, combineRelations, votingRelation, type Relation } from "../content/relations";
import { commentColumns, commentsBy, commentSource, filteredComments, liveComments, selectLiveComment, updateContent, type CommentFilter } from "./repo";
import { COMMENT_ORDER, type Comment, type CommentInclude } from "./schema";

export interface PageQuery {
  page?: string;
  per_page?: string;
  order?: string;
}

/** `user` and `voting` of a page of comments, in the page's batch; null when nothing is included. */
export function commentRelation(db: Db, view: View, include: Set<CommentInclude>): ((ids: IdSource) => Relation) | null {
  if (include.size === 0) return null;
  return (ids) =>
    combineRelations([
      include.has("user") && authorRelation(db, view, comments, comments.comment_id, comments.user_id, ids),
      include.has("voting") && votingRelation(db, view, "comment", ids),
    ]);
}

/** The wire record of a comment row (delete_time for administrators only). */
export const presentComment = (view: View) => (row: CommentRow, relationships?: Relationships) => presentRecord(row, view, relationships) as Comment;

/** One page of the comments `where` selects, in the asked order (delete_time for administrators only). */
export function pageOfComments(db: Db, view: View, where: SQL | undefined, query: PageQuery, include: Set<CommentInclude>, check?: ExistenceCheck) {
  const order = parseOrder(query.order, COMMENT_ORDER, view.isAdmin);
  return loadPage(db, commentSource(where, order), parsePage(query), commentRelation(db, view, include), presentComment(view), check);
}

/** GET /comments (administrators): the filters, and `trashed=true` for the trash only. */
export function listComments(db: Db, view: View, filter: CommentFilter, query: PageQuery, include: Set<CommentInclude>) {
  return pageOfComments(db, view, filteredComments(filter), query, include);
}

/**
 * The check a `/users/{id}/...` list runs in its batch (201003). A user asking about themself exists
 * already (behaviour.md 4.4): no check.
 */
export function userCheck(db: Db, view: View, userId: number): ExistenceCheck | undefined {
  if (view.viewer?.user_id === userId) return undefined;
  return { statement: selectTarget(db, followTargets.user, userId), notFound: followTargets.user.notFound };
}

/** A user's live comments and replies, newest first by default. */
export function listUserComments(db: Db, view: View, userId: number, query: PageQuery, include: Set<CommentInclude>) {
  return pageOfComments(db, view, commentsBy(userId), query, include, userCheck(db, view, userId));
}

const commentById = (view: View): Pick<ListSource, "table" | "id" | "columns" | "where"> => ({
  table: comments,
  id: comments.comment_id,
  columns: commentColumns,
  // Administrators can read a trashed comment (DECISIONS.md, content); others get 204001.
  where: view.isAdmin ? undefined : liveComments,
});

/** One comment, after `writes` in the same batch; 204001 when missing (or trashed, for non-administrators). */
export async function getComment(db: Db, view: View, id: number, include: Set<CommentInclude>, writes: BatchStatement[] = []): Promise<Comment> {
  const [comment] = await loadByIds(db, commentById(view), [id], commentRelation(db, view, include), presentComment(view), writes);
  if (!comment) throw new ApiError(contentKinds.comment.notFound);
  return comment;
}

/** Before a PATCH body is read (behaviour.md 4.1): the comment must be live (204001), then the author rule. */
export async function assertMayEditComment(db: Db, caller: Caller, options: View["options"], id: number): Promise<void> {
  const [comment] = await selectLiveComment(db, id);
  if (!comment) throw new ApiError(contentKinds.comment.notFound);
  assertAuthorMay("comment", "edit", comment, caller, options, now());
}

/** Changes the content when sent (an edit moves update_time); without it nothing changes. */
export function editComment(db: Db, view: View, id: number, content: string | undefined, include: Set<CommentInclude>) {
  const writes = content === undefined ? [] : [updateContent(db, id, content, now())];
  return getComment(db, view, id, include, writes);
}

/**
 * The row `writes` have just inserted, with its relations, read in the writes' own batch. `newId` is SQL
 * that finds the new id inside that batch (an INSERT's id is not known before the batch runs).
 */
export async function loadInserted<R extends Record<string, unknown>, T>(
  db: Db,
  source: Pick<ListSource, "table" | "id" | "columns">,
  newId: SQL,
  relation: ((ids: IdSource) => Relation) | null,
  present: (row: R, relationships: Relationships | undefined) => T,
  writes: BatchStatement[],
): Promise<T> {
  const relations = relation?.(newId);
  const select = db.select(source.columns).from(source.table).where(eq(source.id, newId));
  const results = (await runBatch(db, [...writes, select, ...(relations?.statements ?? [])])).slice(writes.length);
  const [row] = results.shift() as R[];
  // The insert ran in this very batch, so its row is there.
  if (!row) throw new Error("the inserted row was not found");
  return present(row, relations?.resolve(results)(row[source.id.name] as number));
}

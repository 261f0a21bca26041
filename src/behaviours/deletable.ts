/**
 * Hard delete with its cascade (docs/deletion.md#cascade, with the fixes of
 * docs/decisions.md#replies-go-with-their-comment), written once for every kind of the entity model with a trash column
 * (domain/entities.ts); what goes with a row follows from its kind's capabilities. Everything is statements for ONE
 * batch (D1 batches are atomic), in three phases:
 *
 * 1. hide: the rows that disappear and still feed a counter elsewhere (the listed rows; a question's answers)
 *    are put in the trash first, then every counter they fed is recounted from live rows (counters.ts). One
 *    definition of each counter thus serves trash, untrash and delete, and a row that was already in the trash
 *    is not subtracted again. References to them (a question's accepted answer) are cleared with it.
 * 2. `extra` statements (images, notifications) while every row still exists.
 * 3. remove: dependants first, then the rows. Reply trees are found with a recursive CTE inside each DELETE, so
 *    the whole tree goes in the same batch without being read first (docs/decisions.md#replies-go-with-their-comment:
 *    replies are deleted with their comment).
 */
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { BatchStatement, Db } from "../db/client";
import { answers, comments, follows, reports, topicables, votes } from "../db/schema";
import { bookmarks, revisions } from "../db/schema-bookmarks-revisions";
import {
  type BookmarkableKind,
  type CommentableKind,
  entities,
  type FollowableKind,
  has,
  type ReportableKind,
  type RevisableKind,
  type TopicableKind,
  type TrashableKind,
  type VotableKind,
} from "../domain/entities";
import { type IdSource, inIds } from "./id-source";
import { hideStatements } from "./trashable";

/**
 * Every comment on the targets, and every reply below them at any depth. For targets of type `comment` these are
 * the replies below the listed comments (not the comments themselves).
 */
function commentTree(type: CommentableKind, ids: IdSource): SQL {
  return sql`(WITH RECURSIVE tree(id) AS (
    SELECT ${comments.comment_id} FROM ${comments}
      WHERE ${and(eq(comments.commentable_type, type), inIds(comments.commentable_id, ids))}
    UNION
    SELECT ${comments.comment_id} FROM ${comments}
      JOIN tree ON ${comments.commentable_type} = 'comment' AND ${comments.commentable_id} = tree.id
  ) SELECT id FROM tree)`;
}

/** Rows of a side table that point at items of one type: votes, reports, follows, topic links. */
function removeAttached(
  db: Db,
  table: SQLiteTable,
  typeColumn: SQLiteColumn,
  idColumn: SQLiteColumn,
  type: string,
  ids: IdSource,
) {
  return db.delete(table).where(and(eq(typeColumn, type), inIds(idColumn, ids)));
}

const removeVotes = (db: Db, type: VotableKind, ids: IdSource) =>
  removeAttached(db, votes, votes.votable_type, votes.votable_id, type, ids);
/** The reports on items of one type (a withdrawn message's go with it: docs/messages.md#moderation). */
export const removeReports = (db: Db, type: ReportableKind, ids: IdSource) =>
  removeAttached(db, reports, reports.reportable_type, reports.reportable_id, type, ids);
const removeFollows = (db: Db, type: FollowableKind, ids: IdSource) =>
  removeAttached(db, follows, follows.followable_type, follows.followable_id, type, ids);
const removeTopicLinks = (db: Db, type: TopicableKind, ids: IdSource) =>
  removeAttached(db, topicables, topicables.topicable_type, topicables.topicable_id, type, ids);
const removeBookmarks = (db: Db, type: BookmarkableKind, ids: IdSource) =>
  removeAttached(db, bookmarks, bookmarks.bookmarkable_type, bookmarks.bookmarkable_id, type, ids);
const removeRevisions = (db: Db, type: RevisableKind, ids: IdSource) =>
  removeAttached(db, revisions, revisions.revisable_type, revisions.revisable_id, type, ids);

/** The comments on the targets and their whole reply trees, with the votes and reports on any of them. */
function removeComments(db: Db, type: CommentableKind, ids: IdSource): BatchStatement[] {
  const tree = commentTree(type, ids);
  return [
    removeVotes(db, "comment", tree),
    removeReports(db, "comment", tree),
    db.delete(comments).where(inIds(comments.comment_id, tree)),
  ];
}

/**
 * What disappears with the items besides their own rows, from their kind's capabilities, in an order that keeps
 * each subquery meaningful: comments (with their replies), votes, reports, follows, topic links, bookmarks and
 * revisions.
 */
function dependants(db: Db, type: TrashableKind, ids: IdSource): BatchStatement[] {
  return [
    ...(has(type, "commentable") ? removeComments(db, type, ids) : []),
    ...(has(type, "votable") ? [removeVotes(db, type, ids)] : []),
    ...(has(type, "reportable") ? [removeReports(db, type, ids)] : []),
    ...(has(type, "followable") ? [removeFollows(db, type, ids)] : []),
    ...(has(type, "topicable") ? [removeTopicLinks(db, type, ids)] : []),
    ...(has(type, "bookmarkable") ? [removeBookmarks(db, type, ids)] : []),
    ...(has(type, "revisable") ? [removeRevisions(db, type, ids)] : []),
    // Questions and articles only lose a deleted topic; the topic's own counters go with its row.
    ...(type === "topic" ? [db.delete(topicables).where(inIds(topicables.topic_id, ids))] : []),
  ];
}

interface Plan {
  hide: BatchStatement[];
  remove: BatchStatement[];
}

function plan(db: Db, type: TrashableKind, ids: IdSource, time: number): Plan {
  const kind = entities[type];
  const own: Plan = {
    hide: hideStatements(db, type, ids, time),
    remove: [...dependants(db, type, ids), db.delete(kind.table).where(inIds(kind.id, ids))],
  };
  if (type !== "question") return own;
  // A question takes all its answers with it, trashed ones included; live ones still count for their authors
  // until then. The subquery is re-read by each statement and holds until the answers' own rows go.
  const answered = plan(
    db,
    "answer",
    db.select({ id: answers.answer_id }).from(answers).$dynamic().where(inIds(answers.question_id, ids)),
    time,
  );
  return { hide: [...answered.hide, ...own.hide], remove: [...answered.remove, ...own.remove] };
}

/**
 * Hard-deletes the items `ids` of a kind, live or trashed, with everything that belongs to them, and recounts
 * what they fed. `extra` runs while every row still exists (it can still read the items and their children).
 */
export function deleteStatements(
  db: Db,
  type: TrashableKind,
  ids: number[],
  time: number,
  extra: BatchStatement[] = [],
): BatchStatement[] {
  const { hide, remove } = plan(db, type, ids, time);
  return [...hide, ...extra, ...remove];
}

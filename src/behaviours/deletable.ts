/**
 * Hard delete with its cascade (behaviour.md 3.13, with DECISIONS.md's fixes), written once for every content
 * kind of the registry (modules/content/kinds.ts). Everything is statements for ONE batch (D1 batches are
 * atomic), in three phases:
 *
 * 1. hide: the rows that disappear and still feed a counter elsewhere (the listed rows; a question's answers)
 *    are put in the trash first, then every counter they fed is recounted from live rows (trashable.ts). One
 *    definition of each counter thus serves trash, untrash and delete, and a row that was already in the trash
 *    is not subtracted again.
 * 2. `extra` statements (images, notifications) while every row still exists.
 * 3. remove: dependants first, then the rows. Reply trees are found with a recursive CTE inside each DELETE, so
 *    the whole tree goes in the same batch without being read first (DECISIONS.md: replies are deleted with
 *    their comment).
 */
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { BatchStatement, Db } from "../db/client";
import { answers, comments, follows, reports, topicables, votes } from "../db/schema";
import { type ContentType, contentKinds } from "../modules/content/kinds";
import { type IdSource, inIds } from "./id-source";
import { markTrashed, recountStatements } from "./trashable";

type CommentableType = "question" | "answer" | "article" | "comment";

/**
 * Every comment on the targets, and every reply below them at any depth. For targets of type `comment` these are
 * the replies below the listed comments (not the comments themselves).
 */
function commentTree(type: CommentableType, ids: IdSource): SQL {
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

const removeVotes = (db: Db, type: CommentableType, ids: IdSource) =>
  removeAttached(db, votes, votes.votable_type, votes.votable_id, type, ids);
const removeReports = (db: Db, type: CommentableType, ids: IdSource) =>
  removeAttached(db, reports, reports.reportable_type, reports.reportable_id, type, ids);
const removeFollows = (db: Db, type: "question" | "article" | "topic", ids: IdSource) =>
  removeAttached(db, follows, follows.followable_type, follows.followable_id, type, ids);
const removeTopicLinks = (db: Db, type: "question" | "article", ids: IdSource) =>
  removeAttached(db, topicables, topicables.topicable_type, topicables.topicable_id, type, ids);

/** The comments on the targets and their whole reply trees, with the votes and reports on any of them. */
function removeComments(db: Db, type: CommentableType, ids: IdSource): BatchStatement[] {
  const tree = commentTree(type, ids);
  return [
    removeVotes(db, "comment", tree),
    removeReports(db, "comment", tree),
    db.delete(comments).where(inIds(comments.comment_id, tree)),
  ];
}

/** Votes, reports and comments (with their replies) on a votable, reportable, commentable item. */
const removeInteractions = (db: Db, type: CommentableType, ids: IdSource) => [
  ...removeComments(db, type, ids),
  removeVotes(db, type, ids),
  removeReports(db, type, ids),
];

/** What disappears with the items besides their own rows, in an order that keeps each subquery meaningful. */
function dependants(db: Db, type: ContentType, ids: IdSource): BatchStatement[] {
  switch (type) {
    case "question":
    case "article":
      return [...removeInteractions(db, type, ids), removeFollows(db, type, ids), removeTopicLinks(db, type, ids)];
    case "answer":
    case "comment":
      return removeInteractions(db, type, ids);
    case "topic":
      // Questions and articles only lose the topic; the topic's own counters go with its row.
      return [removeFollows(db, "topic", ids), db.delete(topicables).where(inIds(topicables.topic_id, ids))];
  }
}

interface Plan {
  hide: BatchStatement[];
  remove: BatchStatement[];
}

function plan(db: Db, type: ContentType, ids: IdSource, time: number): Plan {
  const kind = contentKinds[type];
  const own: Plan = {
    hide: [markTrashed(db, kind, ids, time), ...recountStatements(db, type, ids)],
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
  type: ContentType,
  ids: number[],
  time: number,
  extra: BatchStatement[] = [],
): BatchStatement[] {
  const { hide, remove } = plan(db, type, ids, time);
  return [...hide, ...extra, ...remove];
}

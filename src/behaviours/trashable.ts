/**
 * The trash (behaviour.md 1 "Soft delete", 3 TRASH family), written once for every content kind of the registry
 * (modules/content/kinds.ts): `delete_time` > 0 hides a row from everyone but administrators.
 *
 * Counters count what a reader sees (DECISIONS.md, Content): every counter that a kind's rows feed is recounted
 * from the live rows with COUNT(*) in the same batch as the write, for exactly the owners the written rows feed.
 * Trash and untrash therefore move the same counters a hard delete moves, a hard delete of a trashed item cannot
 * decrement twice, and no counter can go below 0. The definitions match behaviours/followable.ts, which also
 * leaves trashed targets out of a follower's `following_*_count`, so a later follow cannot "correct" them.
 */
import { and, count, eq, gt, inArray, lt, notExists, or, type SQL, sql } from "drizzle-orm";
import { alias, type SQLiteColumn, type SQLiteTable } from "drizzle-orm/sqlite-core";
import type { BatchStatement, Db } from "../db/client";
import { answers, articles, comments, follows, questions, topicables, topics, users } from "../db/schema";
import { type ContentKind, type ContentType, contentKinds } from "../modules/content/kinds";
import { type IdSource, inIds } from "./id-source";

/** Rows whose liveness a counter counts. */
interface Counted {
  table: SQLiteTable;
  id: SQLiteColumn;
  deleteTime: SQLiteColumn;
}

/** A counter column of an owner row (a user, a question, a topic ...) that counts live rows of one kind. */
interface Counter {
  owner: SQLiteTable;
  ownerId: SQLiteColumn;
  column: string;
  /** COUNT(*) of what the counter counts, correlated to `ownerId` of the row being updated. */
  count(db: Db): BatchStatement;
  /** The owners whose counter the rows `ids` feed: only they are recounted. */
  owners(db: Db, ids: IdSource): SQL;
}

/** A counter over rows that name their owner themselves (answers.question_id, questions.user_id ...). */
function owned(
  owner: SQLiteTable,
  ownerId: SQLiteColumn,
  column: string,
  item: Counted,
  by: SQLiteColumn,
  filter?: SQL,
): Counter {
  return {
    owner,
    ownerId,
    column,
    count: (db) =>
      db
        .select({ n: count() })
        .from(item.table)
        .where(and(eq(by, ownerId), eq(item.deleteTime, 0), filter)),
    owners: (db, ids) =>
      inArray(
        ownerId,
        db
          .select({ id: by })
          .from(item.table)
          .where(and(inIds(item.id, ids), filter)),
      ),
  };
}

/** A link table between owners and counted rows (follows, topicables). */
interface Link {
  table: SQLiteTable;
  owner: SQLiteColumn;
  item: SQLiteColumn;
  filter: SQL;
}

/** A counter over rows reached through a link table: a follower's follows, a topic's questions. */
function linked(owner: SQLiteTable, ownerId: SQLiteColumn, column: string, item: Counted, link: Link): Counter {
  return {
    owner,
    ownerId,
    column,
    count: (db) =>
      db
        .select({ n: count() })
        .from(link.table)
        .innerJoin(item.table, and(eq(item.id, link.item), eq(item.deleteTime, 0)))
        .where(and(eq(link.owner, ownerId), link.filter)),
    owners: (db, ids) =>
      inArray(
        ownerId,
        db
          .select({ id: link.owner })
          .from(link.table)
          .where(and(inIds(link.item, ids), link.filter)),
      ),
  };
}

const followsOf = (type: "question" | "article" | "topic"): Link => ({
  table: follows,
  owner: follows.user_id,
  item: follows.followable_id,
  filter: eq(follows.followable_type, type),
});

const topicsOf = (type: "question" | "article"): Link => ({
  table: topicables,
  owner: topicables.topic_id,
  item: topicables.topicable_id,
  filter: eq(topicables.topicable_type, type),
});

// reply_count counts comments from the comments table itself: the counted side needs its own name.
const reply = alias(comments, "reply");
const replies: Counted = { table: reply, id: reply.comment_id, deleteTime: reply.delete_time };

const commentCount = (owner: SQLiteTable, ownerId: SQLiteColumn, type: "question" | "answer" | "article") =>
  owned(
    owner,
    ownerId,
    "comment_count",
    contentKinds.comment,
    comments.commentable_id,
    eq(comments.commentable_type, type),
  );

/** For each kind, every counter elsewhere that its live rows feed (behaviour.md 3.11). */
const countersFed: Record<ContentType, Counter[]> = {
  question: [
    owned(users, users.user_id, "question_count", contentKinds.question, questions.user_id),
    linked(users, users.user_id, "following_question_count", contentKinds.question, followsOf("question")),
    linked(topics, topics.topic_id, "question_count", contentKinds.question, topicsOf("question")),
  ],
  article: [
    owned(users, users.user_id, "article_count", contentKinds.article, articles.user_id),
    linked(users, users.user_id, "following_article_count", contentKinds.article, followsOf("article")),
    linked(topics, topics.topic_id, "article_count", contentKinds.article, topicsOf("article")),
  ],
  answer: [
    owned(users, users.user_id, "answer_count", contentKinds.answer, answers.user_id),
    owned(questions, questions.question_id, "answer_count", contentKinds.answer, answers.question_id),
  ],
  comment: [
    commentCount(questions, questions.question_id, "question"),
    commentCount(answers, answers.answer_id, "answer"),
    commentCount(articles, articles.article_id, "article"),
    owned(
      comments,
      comments.comment_id,
      "reply_count",
      replies,
      reply.commentable_id,
      eq(reply.commentable_type, "comment"),
    ),
  ],
  // A trashed topic keeps its follow rows (untrash gives them back); its followers just stop counting it.
  topic: [linked(users, users.user_id, "following_topic_count", contentKinds.topic, followsOf("topic"))],
};

/** Recounts every counter the rows `ids` of a kind feed, from the rows as they are at this point of the batch. */
export function recountStatements(db: Db, type: ContentType, ids: IdSource): BatchStatement[] {
  return countersFed[type].map((counter) =>
    db
      .update(counter.owner)
      .set({ [counter.column]: sql`${counter.count(db)}` })
      .where(counter.owners(db, ids)),
  );
}

/** Puts the live rows among `ids` in the trash; rows already there keep the time they were trashed. */
export function markTrashed(db: Db, kind: ContentKind, ids: IdSource, time: number): BatchStatement {
  return db
    .update(kind.table)
    .set({ delete_time: time })
    .where(and(inIds(kind.id, ids), eq(kind.deleteTime, 0)));
}

// Topic names are unique among live topics (schema: partial unique index on lower(name)). An untrash that would
// break that is skipped rather than failing the whole batch: the name is taken by a live topic, or by a listed
// trashed topic with a smaller id (which is untrashed instead).
const namesake = alias(topics, "namesake");
const untrashGuards: Partial<Record<ContentType, (db: Db, ids: number[]) => SQL>> = {
  topic: (db, ids) =>
    notExists(
      db
        .select({ one: sql`1` })
        .from(namesake)
        .where(
          and(
            sql`lower(${namesake.name}) = lower(${topics.name})`,
            or(eq(namesake.delete_time, 0), and(lt(namesake.topic_id, topics.topic_id), inIds(namesake.topic_id, ids))),
          ),
        ),
    ),
};

/**
 * Trashes the live rows among `ids` and recounts what they fed. `extra` (notifications ...) runs after both, in
 * the same batch.
 */
export function trashStatements(
  db: Db,
  type: ContentType,
  ids: number[],
  time: number,
  extra: BatchStatement[] = [],
): BatchStatement[] {
  return [markTrashed(db, contentKinds[type], ids, time), ...recountStatements(db, type, ids), ...extra];
}

/** Takes the trashed rows among `ids` out of the trash and recounts what they feed again. */
export function untrashStatements(
  db: Db,
  type: ContentType,
  ids: number[],
  extra: BatchStatement[] = [],
): BatchStatement[] {
  const kind: ContentKind = contentKinds[type];
  const untrash = db
    .update(kind.table)
    .set({ delete_time: 0 })
    .where(and(inIds(kind.id, ids), gt(kind.deleteTime, 0), untrashGuards[type]?.(db, ids)));
  return [untrash, ...recountStatements(db, type, ids), ...extra];
}

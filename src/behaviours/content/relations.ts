/**
 * `include` for a whole page in the page's own batch (never a query per row): each relation is at most one
 * statement over the page's ids, an id list or the page query itself as a subquery (behaviours/id-source), and
 * resolves to the relationships of one row by its id. Targets that are missing or trashed come back as null.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { type BatchRead, type Db, readAs } from "../../db/client";
import { answers, questions, topicables, topics, users, votes } from "../../db/schema";
import { entities, type TopicableKind } from "../../domain/entities";
import type { View } from "../../http/view";
import { type FollowTarget, followedAmong } from "../followable";
import { type IdSource, inIds } from "../id-source";
import { liveRows } from "../live";
import { presentUserSummary, questionSummary, type Relationships, topicSummary } from "./present";

/** Statements that ride in the batch of the rows, read as the relationships of one row by its id. */
export type Relation = BatchRead<(id: number) => Relationships>;

/** Several relations as one: their statements in order, their relationships merged per row. */
export function combineRelations(relations: (Relation | null | false | undefined)[]): Relation {
  const present = relations.filter((r): r is Relation => Boolean(r));
  return readAs(present, (resolvers) => (id) => Object.assign({}, ...resolvers.map((of) => of(id))));
}

/**
 * The relations an `include` asks for, to build over any ids (a page's or a write's); null when it asks for
 * none, so that the records carry no `relationships` key.
 */
export function includedRelations<I extends string>(
  include: Set<I>,
  build: (ids: IdSource) => (Relation | false)[],
): ((ids: IdSource) => Relation) | null {
  return include.size === 0 ? null : (ids) => combineRelations(build(ids));
}

const byId = <T extends { id: number }>(rows: T[]) => new Map(rows.map((row) => [row.id, row]));

/** `user`: the author's summary, joined through the item's user_id. */
export function authorRelation(
  db: Db,
  view: View,
  table: SQLiteTable,
  id: SQLiteColumn,
  userId: SQLiteColumn,
  ids: IdSource,
): Relation {
  const statement = db
    .select({
      id: sql<number>`${id}`,
      user_id: users.user_id,
      username: users.username,
      headline: users.headline,
      avatar: users.avatar,
    })
    .from(table)
    .innerJoin(users, eq(users.user_id, userId))
    .where(inIds(id, ids));
  return readAs(statement, (found) => {
    const rows = byId(found);
    return (itemId) => {
      const row = rows.get(itemId);
      return { user: row ? presentUserSummary(row, view) : null };
    };
  });
}

/** `voting`: the caller's vote on each item, `up`, `down`, or '' (always '' for anonymous callers). */
export function votingRelation(
  db: Db,
  view: View,
  type: (typeof votes.$inferSelect)["votable_type"],
  ids: IdSource,
): Relation {
  const viewerId = view.viewer?.user_id;
  if (!viewerId) return readAs(null, () => () => ({ voting: "" }));
  const statement = db
    .select({ id: votes.votable_id, type: votes.type })
    .from(votes)
    .where(and(eq(votes.votable_type, type), eq(votes.user_id, viewerId), inIds(votes.votable_id, ids)));
  return readAs(statement, (found) => {
    const rows = byId(found);
    return (itemId) => ({ voting: rows.get(itemId)?.type ?? "" });
  });
}

/** `is_following`: whether the caller follows each item (false for anonymous callers). */
export function followingRelation(db: Db, view: View, target: FollowTarget, ids: IdSource): Relation {
  const viewerId = view.viewer?.user_id;
  if (!viewerId) return readAs(null, () => () => ({ is_following: false }));
  return readAs(followedAmong(db, target, viewerId, ids), (rows) => {
    const followed = new Set(rows.map((r) => r.id));
    return (itemId) => ({ is_following: followed.has(itemId) });
  });
}

/** `topics`: the live topics of each question or article, in the order they were attached ([] if none). */
export function topicsRelation(db: Db, view: View, type: TopicableKind, ids: IdSource): Relation {
  const statement = db
    .select({ id: topicables.topicable_id, topic_id: topics.topic_id, name: topics.name, cover: topics.cover })
    .from(topicables)
    .innerJoin(topics, eq(topics.topic_id, topicables.topic_id))
    .where(and(eq(topicables.topicable_type, type), inIds(topicables.topicable_id, ids), liveRows(entities.topic)))
    .orderBy(asc(topicables.create_time), asc(sql`${topicables}.rowid`));
  return readAs(statement, (rows) => {
    const grouped = new Map<number, ReturnType<typeof topicSummary>[]>();
    for (const row of rows) {
      const list = grouped.get(row.id) ?? [];
      list.push(topicSummary(row, view));
      grouped.set(row.id, list);
    }
    return (itemId) => ({ topics: grouped.get(itemId) ?? [] });
  });
}

/** `question` of each answer: the question's summary, null when it is trashed. */
export function answerQuestionRelation(db: Db, ids: IdSource): Relation {
  const statement = db
    .select({
      id: answers.answer_id,
      question_id: questions.question_id,
      title: questions.title,
      create_time: questions.create_time,
      update_time: questions.update_time,
    })
    .from(answers)
    .innerJoin(questions, and(eq(questions.question_id, answers.question_id), eq(questions.delete_time, 0)))
    .where(inIds(answers.answer_id, ids));
  return readAs(statement, (found) => {
    const rows = byId(found);
    return (answerId) => {
      const row = rows.get(answerId);
      return { question: row ? questionSummary(row) : null };
    };
  });
}

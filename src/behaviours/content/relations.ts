/**
 * `include` for a whole page in the page's own batch (never a query per row). A relation is either values selected
 * beside each row (a correlated subquery on the row: the author, the caller's vote, whether the caller follows it),
 * which costs no statement of its own, or at most one statement over the page's ids, an id list or the page query
 * itself as a subquery (behaviours/id-source), resolved to the relationships of one row by its id (a row's topics,
 * which are a list). Targets that are missing or trashed come back as null.
 */
import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { type BatchRead, type Db, readAs } from "../../db/client";
import { outer } from "../../db/conditions";
import { answers, follows, questions, topicables, topics, users, votes } from "../../db/schema";
import { bookmarks } from "../../db/schema-bookmarks-revisions";
import { entities, type TopicableKind } from "../../domain/entities";
import type { View } from "../../http/view";
import type { BookmarkTarget } from "../bookmarkable";
import type { FollowTarget } from "../followable";
import { type IdSource, inIds } from "../id-source";
import { liveRows } from "../live";
import { presentUserSummary, questionSummary, type Relationships, topicSummary } from "./present";

/** Statements that ride in the batch of the rows, read as the relationships of one row by its id. */
export type StatementRelation = BatchRead<(id: number) => Relationships>;

/** A value selected beside each row (none when the answer is known without one), read as the row's relationships. */
export class RowRelation {
  constructor(
    readonly column: SQL | null,
    readonly read: (value: unknown) => Relationships,
  ) {}
}

/**
 * A page's relations: the values to select beside each row (`columns`, named `r<index>` after the relation), and
 * the statements of the batch, read as one row's relationships from its id and those values.
 */
export interface Relation {
  columns: Record<string, SQL>;
  read: BatchRead<(id: number, values: Record<string, unknown> | undefined) => Relationships>;
}

/** Several relations as one: their values and statements, their relationships merged per row in the order given. */
export function combineRelations(relations: (StatementRelation | RowRelation | null | false | undefined)[]): Relation {
  const present = relations.filter((r): r is StatementRelation | RowRelation => Boolean(r));
  const keys = present.map((_, index) => `r${index}`);
  const columns: Relation["columns"] = {};
  present.forEach((relation, index) => {
    if (relation instanceof RowRelation && relation.column) columns[keys[index] as string] = relation.column;
  });
  const statements = present.map((relation) => (relation instanceof RowRelation ? null : relation));
  return {
    columns,
    read: readAs(statements, (resolvers) => (id, values) => {
      const relationships: Relationships = {};
      for (let index = 0; index < present.length; index++) {
        const relation = present[index];
        const found =
          relation instanceof RowRelation
            ? relation.read(values?.[keys[index] as string])
            : (resolvers[index] as (id: number) => Relationships)(id);
        Object.assign(relationships, found);
      }
      return relationships;
    }),
  };
}

/** A relation of statements alone (a kind whose relations all read several rows per item). */
export const statementRelation = (read: StatementRelation): Relation => combineRelations([read]);

/**
 * The relations an `include` asks for, to build over any ids (a page's or a write's); null when it asks for
 * none, so that the records carry no `relationships` key.
 */
export function includedRelations<I extends string>(
  include: Set<I>,
  build: (ids: IdSource) => (StatementRelation | RowRelation | false)[],
): ((ids: IdSource) => Relation) | null {
  return include.size === 0 ? null : (ids) => combineRelations(build(ids));
}

const byId = <T extends { id: number }>(rows: T[]) => new Map(rows.map((row) => [row.id, row]));

/**
 * `user` (or `key`): the summary of the user a column of the row names, its author by default (null when the user
 * row is missing).
 */
export function authorRelation(view: View, userId: SQLiteColumn, key = "user"): RowRelation {
  const author = sql<string | null>`(SELECT json_array(au.user_id, au.username, au.headline, au.avatar)
    FROM ${users} AS au WHERE au.user_id = ${outer(userId)})`;
  return new RowRelation(author, (found) => {
    if (typeof found !== "string") return { [key]: null };
    const [user_id, username, headline, avatar] = JSON.parse(found) as [number, string, string, string];
    return { [key]: presentUserSummary({ user_id, username, headline, avatar }, view) };
  });
}

/** `voting`: the caller's vote on each item, `up`, `down`, or '' (always '' for anonymous callers). */
export function votingRelation(view: View, type: string, id: SQLiteColumn): RowRelation {
  const viewerId = view.viewer?.user_id;
  if (!viewerId) return new RowRelation(null, () => ({ voting: "" }));
  const vote = sql<string | null>`(SELECT vo.type FROM ${votes} AS vo
    WHERE vo.votable_type = ${type} AND vo.user_id = ${viewerId} AND vo.votable_id = ${outer(id)})`;
  return new RowRelation(vote, (found) => ({ voting: typeof found === "string" ? found : "" }));
}

/** `is_following`: whether the caller follows each item (false for anonymous callers). */
export function followingRelation(view: View, target: FollowTarget, id: SQLiteColumn): RowRelation {
  const viewerId = view.viewer?.user_id;
  if (!viewerId) return new RowRelation(null, () => ({ is_following: false }));
  const followed = sql<number>`EXISTS (SELECT 1 FROM ${follows} AS fo
    WHERE fo.user_id = ${viewerId} AND fo.followable_type = ${target.type} AND fo.followable_id = ${outer(id)})`;
  return new RowRelation(followed, (found) => ({ is_following: found === 1 }));
}

/** `is_bookmarked`: the caller bookmarked each item (false for anonymous callers; docs/operations.md#bookmarks). */
export function bookmarkedRelation(view: View, target: BookmarkTarget, id: SQLiteColumn): RowRelation {
  const viewerId = view.viewer?.user_id;
  if (!viewerId) return new RowRelation(null, () => ({ is_bookmarked: false }));
  const found = sql<number>`EXISTS (SELECT 1 FROM ${bookmarks} AS bm WHERE bm.user_id = ${viewerId}
    AND bm.bookmarkable_type = ${target.type} AND bm.bookmarkable_id = ${outer(id)})`;
  return new RowRelation(found, (value) => ({ is_bookmarked: value === 1 }));
}

/** `topics`: the live topics of each question or article, in the order they were attached ([] if none). */
export function topicsRelation(db: Db, view: View, type: TopicableKind, ids: IdSource): StatementRelation {
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
export function answerQuestionRelation(db: Db, ids: IdSource): StatementRelation {
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

/**
 * Queries over any kind of the entity model with a trash column (domain/entities.ts): the list sources the page
 * builder pages through (behaviours/content/page.ts), the existence checks of a live row and of a user, and the
 * id of a row just inserted.
 */
import { and, asc, desc, eq, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { ErrorName } from "../../core/errors";
import type { BatchQuery, Db } from "../../db/client";
import { allOf } from "../../db/conditions";
import { follows, siteTotals, topicables } from "../../db/schema";
import {
  type Entity,
  type EntityWith,
  entities,
  type FollowableKind,
  kindOf,
  type TopicableKind,
  type TrashableKind,
} from "../../domain/entities";
import type { View } from "../../http/view";
import type { Order } from "../../lib/order";
import { followingJoin, followTargets, selectTarget } from "../followable";
import { isLive, liveById } from "../live";

/** What a page is read from: a table, its id column, the columns selected, a join, a filter and an order. */
export interface ListSource {
  table: SQLiteTable;
  /** The listed table's id column: pages are over its values. */
  id: SQLiteColumn;
  columns: Record<string, SQLiteColumn | SQL.Aliased>;
  /** An inner join, e.g. `follows` for "what a user follows" or `topicables` for a topic's questions. */
  join?: { table: SQLiteTable; on: SQL };
  where?: SQL;
  orderBy: SQL[];
  /**
   * A counter the schema maintains that holds the list's total (docs/counters.md): the page reads it instead of
   * counting every matching row. `owner` is the id column of the row holding it, and `id` that row's id.
   */
  counter?: { column: SQLiteColumn; owner: SQLiteColumn; id: number | string };
}

/** A statement whose empty result means the list's owner is missing (e.g. the question of its answers). */
export interface ExistenceCheck {
  statement: BatchQuery<unknown[]>;
  notFound: ErrorName;
  /**
   * The check and the list's total in one statement, when a counter on the checked row holds the total (a user's
   * `article_count`, a question's `answer_count`): no row when the owner is missing. Null for any other counter.
   */
  withTotal?(counter: NonNullable<ListSource["counter"]>): BatchQuery<{ total: number }[]> | null;
}

/** The existence check of a live row of a kind, which also reads a counter of that row (see ExistenceCheck). */
function rowCheck(
  db: Db,
  kind: Pick<Entity, "table" | "id" | "trash" | "notFound">,
  id: number,
  statement: BatchQuery<unknown[]>,
): ExistenceCheck {
  return {
    statement,
    notFound: kind.notFound,
    withTotal: (counter) =>
      counter.owner === kind.id && counter.id === id ? counterTotal(db, counter, isLive(kind, id)) : null,
  };
}

/** Where rows are looked up by id: a table's id column, the columns selected, and a filter. */
export type ByIdSource = Pick<ListSource, "table" | "id" | "columns" | "where">;

/** A kind whose rows can be in the trash: what lists, pages and existence checks run over. */
type Listed = EntityWith<"trash">;

/** `ORDER BY field, id` in the asked direction: the id settles ties so pages never overlap. */
export function orderBy<F extends string>(columns: Record<F, SQLiteColumn>, order: Order<F>, id: SQLiteColumn): SQL[] {
  const direction = order.desc ? desc : asc;
  return [direction(columns[order.field]), direction(id)];
}

const live = (kind: Listed) => eq(kind.trash, 0);

/** What a list keeps besides the columns it filters on: the trash or the live rows, a topic, any other condition. */
export interface ListFilter {
  /** true: only trashed rows; false: only live ones. */
  trashed: boolean;
  /** Only questions or articles filed under this topic. */
  inTopic?: number;
  where?: SQL;
}

/**
 * The rows of a kind that `filter` keeps, each column it names (with a value) equal to that value, in `order`
 * (the id settling ties).
 */
export function filteredList<R, F extends string>(
  kind: Listed,
  filter: ListFilter & Partial<R>,
  order: Order<F>,
): ListSource {
  const { trashed, inTopic, where, ...equal } = filter;
  const columns = Object.entries(equal).flatMap(([name, value]) => {
    if (value === undefined) return [];
    const column = kind.columns[name];
    if (!column) throw new Error(`A ${kind.type} list filters on ${name}, which is not one of its columns`);
    return [eq(column, value)];
  });
  return {
    table: kind.table,
    id: kind.id,
    columns: kind.columns,
    join: inTopic === undefined ? undefined : inTopicJoin(kind, inTopic),
    // A topic's list reads its links through an index in the list's order (the links carry copies of the items'
    // trash and order columns), each item by its key.
    where: and(trashed ? trashedRows(kind.trash) : inTopic === undefined ? live(kind) : liveLinks, where, ...columns),
    orderBy:
      inTopic === undefined
        ? orderBy(kind.columns as Record<F, SQLiteColumn>, order, kind.id)
        : orderBy(LINK_ORDER as Record<F, SQLiteColumn>, order, topicables.topicable_id),
    counter: trashed || where ? undefined : counterOf(kind, inTopic, equal),
  };
}

/** A list's total read from its counter, on the row `where` names (by default the counter's own row). */
export function counterTotal(
  db: Db,
  counter: NonNullable<ListSource["counter"]>,
  where: SQL = eq(counter.owner, counter.id),
) {
  return db
    .select({ total: sql<number>`${counter.column}` })
    .from(counter.column.table)
    .where(where);
}

/** The site-wide total of a kind's live rows (users: those not disabled), which triggers keep. */
export const siteTotal = (kind: string): ListSource["counter"] => ({
  column: siteTotals.live,
  owner: siteTotals.kind,
  id: kind,
});

/**
 * The counter that holds the total of a list of live rows, when one does: all of them (the site's total), those
 * under one topic (the topic's counter), or those whose one filter names the row a counter they feed sits on (a
 * user's questions, a question's answers). Any other filter, or several, and the rows are counted.
 */
function counterOf(kind: Listed, inTopic: number | undefined, equal: Record<string, unknown>): ListSource["counter"] {
  const named = Object.entries(equal).filter(([, value]) => value !== undefined);
  if (inTopic === undefined && named.length === 0) return siteTotal(kind.type);
  if (inTopic !== undefined) {
    return named.length === 0 && kind.topicable
      ? { column: kind.topicable.counter, owner: entities.topic.id, id: inTopic }
      : undefined;
  }
  const [only, ...more] = named;
  if (!only || more.length > 0 || typeof only[1] !== "number") return undefined;
  const feed = kind.feeds?.find((fed) => fed.by === kind.columns[only[0]]);
  return feed && { column: feed.counter, owner: entities[kindOf(feed.counter.table)].id, id: only[1] };
}

/**
 * Trashed rows only. The 0 is written into the SQL, not bound, so that SQLite may use an index of trashed rows
 * (`WHERE delete_time > 0`, docs/data-model.md#indexes): a bound value could be anything, and the index would not do.
 */
function trashedRows(trash: SQLiteColumn): SQL {
  return sql`${trash} > 0`;
}

/**
 * The columns of questions and articles that their topic links carry (kept by triggers, drizzle/0007), under the
 * names of the item's own.
 */
const LINK_ORDER: Record<string, SQLiteColumn> = {
  update_time: topicables.item_update_time,
  create_time: topicables.item_create_time,
  vote_count: topicables.item_vote_count,
  delete_time: topicables.item_delete_time,
};
const liveLinks = eq(topicables.item_delete_time, 0);

/** How a list of questions or articles joins `topicables` to keep those filed under one topic. */
function inTopicJoin(kind: Listed, topicId: number): ListSource["join"] {
  const on = allOf(
    eq(topicables.topicable_type, kind.type as TopicableKind),
    eq(topicables.topicable_id, kind.id),
    eq(topicables.topic_id, topicId),
  );
  return { table: topicables, on };
}

/** The live rows of a kind a user follows, newest follow first (docs/operations.md#users). */
export function followedBy(type: FollowableKind & TrashableKind, userId: number): ListSource {
  const kind = entities[type];
  const join = followingJoin(followTargets[type], userId);
  return {
    table: kind.table,
    id: kind.id,
    columns: kind.columns,
    join: { table: follows, on: join.on },
    where: and(join.where, live(kind)),
    orderBy: join.orderBy,
  };
}

/** A kind's rows by id; trashed ones only when `withTrashed` (administrators, docs/decisions.md#content). */
export function byId(kind: Listed, withTrashed: boolean): ByIdSource {
  return { table: kind.table, id: kind.id, columns: kind.columns, where: withTrashed ? undefined : liveById(kind) };
}

/** The id of a live row of a kind; empty when it is missing or trashed: an existence check. */
export function selectLive(db: Db, kind: Listed, id: number) {
  return db.select({ id: kind.id }).from(kind.table).where(isLive(kind, id));
}

/** A list's check that the live row it hangs under exists (the kind's NOT_FOUND otherwise), run in its batch. */
export function liveCheck(db: Db, kind: Listed, id: number): ExistenceCheck {
  return rowCheck(db, kind, id, selectLive(db, kind, id));
}

/**
 * The check a `/users/{id}/...` list runs in its batch (201003). The caller's own id needs no lookup
 * (docs/permissions.md#existence-checks): a logged-in caller exists.
 */
export function userExists(db: Db, view: View, userId: number): ExistenceCheck | undefined {
  if (view.viewer?.user_id === userId) return undefined;
  return rowCheck(db, followTargets.user, userId, selectTarget(db, followTargets.user, userId));
}

/** A live row of a kind with every column: what an edit checks (missing and trashed are both NOT_FOUND). */
export function selectLiveRow(db: Db, kind: Listed, id: number) {
  return db.select(kind.columns).from(kind.table).where(isLive(kind, id));
}

/**
 * The id of the row of a kind a user has just inserted, as a parenthesised subquery for the statements after
 * the INSERT in the same batch (its id is not known before the batch runs). A batch is one transaction, D1 has one
 * writer and ids only grow (AUTOINCREMENT), so it is the table's largest id, which the primary key finds in one
 * step however many rows the user has; it is named only if that row is the user's, so an insert that inserted
 * nothing names nothing. A create's batch names the new row several times.
 */
export function newestOf(db: Db, kind: EntityWith<"author">, userId: number): SQL {
  return newestWhere(db, kind, eq(kind.author, userId));
}

/**
 * The table's largest id, as {@link newestOf} names it, if that row meets `condition` (a topic's or a user's
 * unique name, for kinds without an author).
 */
export function newestWhere(db: Db, kind: Pick<Entity, "table" | "id">, condition: SQL): SQL {
  const largest = sql`(SELECT max(${kind.id}) FROM ${kind.table})`;
  return sql`${db
    .select({ id: kind.id })
    .from(kind.table)
    .where(allOf(eq(kind.id, largest), condition))}`;
}

/**
 * Pages and single items of any listed table, each as ONE batch: an optional existence check, the total, the
 * rows, and every requested relation over the page's ids (the page query reused as a subquery). Reads thus
 * cost one round trip after authentication, whatever per_page and include are.
 */
import { and, count, type SQL } from "drizzle-orm";
import type { SelectedFields, SQLiteSelect } from "drizzle-orm/sqlite-core";
import { ApiError } from "../../core/errors";
import { type BatchRead, batch, type Db, readAs } from "../../db/client";
import type { EntityWith } from "../../domain/entities";
import type { z } from "../../http/openapi";
import type { View } from "../../http/view";
import { type OrderRule, parseOrder } from "../../lib/order";
import { type PageRequest, type Pagination, paginate, parsePage } from "../../lib/pagination";
import { type IdSource, inIds } from "../id-source";
import type { Relationships } from "./present";
import type { Relation } from "./relations";
import {
  type ByIdSource,
  byId,
  counterTotal,
  type ExistenceCheck,
  filteredList,
  type ListFilter,
  type ListSource,
  userExists,
} from "./repo";

function from<Q extends SQLiteSelect>(query: Q, source: ListSource): Q {
  const joined = (source.join ? query.innerJoin(source.join.table, source.join.on) : query) as Q;
  return joined.where(source.where) as Q;
}

/**
 * The columns of a source's rows, with a relation's values beside them: `{row, related}` when there are any
 * (http records never see them), else the row alone.
 */
function withRelated(columns: ByIdSource["columns"], relation: Relation | undefined): SelectedFields {
  return relation && Object.keys(relation.columns).length > 0 ? { row: columns, related: relation.columns } : columns;
}

/** A selected row and its relation values, from either shape {@link withRelated} selects. */
function splitRow<R>(selected: unknown): [R, Record<string, unknown> | undefined] {
  const nested = selected as { row?: R; related?: Record<string, unknown> };
  return nested.related ? [nested.row as R, nested.related] : [selected as R, undefined];
}

/** A page of a source: its ids (what the statements of relations read over) and its rows, with `related` beside. */
function pageQueries(db: Db, source: ListSource, page: PageRequest) {
  const paged = <Q extends SQLiteSelect>(query: Q) =>
    from(query, source)
      .orderBy(...source.orderBy)
      .limit(page.per_page)
      .offset(page.offset);
  return {
    ids: paged(db.select({ id: source.id }).from(source.table).$dynamic()),
    rows: (related?: Relation) => paged(db.select(withRelated(source.columns, related)).from(source.table).$dynamic()),
  };
}

/** A list's total: its counter, else a count of its rows. */
function totalOf(db: Db, source: ListSource) {
  if (source.counter) return counterTotal(db, source.counter);
  return from(db.select({ total: count() }).from(source.table).$dynamic(), source);
}

export interface Page<T> {
  data: T[];
  pagination: Pagination;
}

/**
 * One page: check, total, rows and relations in one batch. `relation` builds the include statements over the
 * page's ids; `present` turns a row and its relationships into the wire record.
 */
export async function loadPage<R extends Record<string, unknown>, T>(
  db: Db,
  source: ListSource,
  request: PageRequest,
  relation: ((ids: IdSource) => Relation) | null,
  present: (row: R, relationships: Record<string, unknown> | undefined) => T,
  check?: ExistenceCheck,
): Promise<Page<T>> {
  const { ids, rows } = pageQueries(db, source, request);
  const related = relation?.(ids);
  // A counter on the checked row answers both the check and the total.
  const checkedTotal = (source.counter && check?.withTotal?.(source.counter)) || null;
  const owner = checkedTotal ? undefined : check?.statement;
  const total = checkedTotal ?? totalOf(db, source);
  const found = await batch(db, { owner, total, rows: rows(related), relations: related?.read });
  if (check && (checkedTotal ? found.total : found.owner)?.length === 0) throw new ApiError(check.notFound);
  const [counted] = found.total;
  const relationsOf = found.relations;
  const key = idKey(source);
  return {
    data: found.rows.map((selected) => {
      const [row, values] = splitRow<R>(selected);
      return present(row, relationsOf?.(row[key] as number, values));
    }),
    pagination: paginate(request, counted?.total ?? 0),
  };
}

/** The name under which the id column is selected in `columns`. */
function idKey(source: ByIdSource): string {
  const entry = Object.entries(source.columns).find(([, column]) => column === source.id);
  if (!entry) throw new Error("a list source must select its id column");
  return entry[0];
}

/**
 * Items with their relations, as a read for any batch: a list of ids, answered in the order asked and skipping
 * ids `where` does not find, or a subquery naming rows written earlier in the batch (an INSERT's id is not known
 * before it runs). After writes (`writeThenRead`), it answers a write with the records it changed.
 */
export function itemsByIds<R extends Record<string, unknown>, T>(
  db: Db,
  source: ByIdSource,
  ids: IdSource,
  relation: ((ids: IdSource) => Relation) | null,
  present: (row: R, relationships: Record<string, unknown> | undefined) => T,
): BatchRead<T[]> {
  const related = relation?.(ids);
  const rows = db
    .select(withRelated(source.columns, related))
    .from(source.table)
    .where(and(inIds(source.id, ids), source.where));
  const key = idKey(source);
  return readAs({ rows, relations: related?.read }, (found) => {
    // R is what source.columns selects, which a generic record of columns cannot show.
    const byId = new Map(
      found.rows.map((selected) => {
        const pair = splitRow<R>(selected);
        return [pair[0][key] as number, pair];
      }),
    );
    return (Array.isArray(ids) ? ids : [...byId.keys()]).flatMap((id) => {
      const pair = byId.get(id);
      return pair ? [present(pair[0], found.relations?.(id, pair[1]))] : [];
    });
  });
}

/** What a list's query string carries besides its filters and `include`. */
export interface PageQuery {
  page?: string;
  per_page?: string;
  order?: string;
}

/**
 * How rows of one kind become wire records: the `include` names it allows, the relations they load and the
 * presenter. Lists, single reads and the answers of writes all present a kind through this one entry.
 */
export interface Records<R, T, I extends string> {
  includes: readonly I[];
  /** The record's schema, for routes that document it (e.g. the lifecycle module's). */
  schema: z.ZodType;
  /** Null when nothing is included: the records then carry no `relationships` key. */
  relation(db: Db, view: View, include: Set<I>): ((ids: IdSource) => Relation) | null;
  present(view: View): (row: R, relationships: Relationships | undefined) => T;
}

/** The records of a kind with a trash, with its entity (table, trash column, NOT_FOUND) and its list order. */
export interface ContentRecords<R, T, I extends string> extends Records<R, T, I> {
  kind: EntityWith<"trash">;
  order: OrderRule<string>;
}

/** One page of records from `source`, with the requested includes and the optional check, in one batch. */
export function pageOf<R extends Record<string, unknown>, T, I extends string>(
  db: Db,
  view: View,
  records: Records<R, T, I>,
  source: ListSource,
  query: PageQuery,
  include: Set<I>,
  check?: ExistenceCheck,
): Promise<Page<T>> {
  return loadPage(db, source, parsePage(query), records.relation(db, view, include), records.present(view), check);
}

/**
 * A page of the rows of a content kind that `filter` keeps, in the order the query asks: one of the kind's
 * fields (its administrators' fields for administrators only), else its default.
 */
export function filteredPage<R extends Record<string, unknown>, T, I extends string>(
  db: Db,
  view: View,
  records: ContentRecords<R, T, I>,
  filter: ListFilter & Partial<R>,
  query: PageQuery,
  include: Set<I>,
  check?: ExistenceCheck,
): Promise<Page<T>> {
  const order = parseOrder(query.order, records.order, view.isAdmin);
  return pageOf(db, view, records, filteredList<R, string>(records.kind, filter, order), query, include, check);
}

/** A user's live items of an authored kind; 201003 when the user is missing. */
export function authoredPage<R extends Record<string, unknown> & { user_id: number }, T, I extends string>(
  db: Db,
  view: View,
  records: ContentRecords<R, T, I>,
  userId: number,
  query: PageQuery,
  include: Set<I>,
): Promise<Page<T>> {
  const filter = { user_id: userId, trashed: false } as ListFilter & Partial<R>;
  return filteredPage(db, view, records, filter, query, include, userExists(db, view, userId));
}

/** Records by id, or those a subquery names, as a read for any batch (see {@link itemsByIds}). */
export function recordsByIds<R extends Record<string, unknown>, T, I extends string>(
  db: Db,
  view: View,
  records: Records<R, T, I>,
  source: ByIdSource,
  ids: IdSource,
  include: Set<I>,
): BatchRead<T[]> {
  return itemsByIds(db, source, ids, records.relation(db, view, include), records.present(view));
}

/**
 * One record of a content kind as a read for any batch: by its id, or by a subquery naming the row writes
 * earlier in the batch inserted. The kind's NOT_FOUND when missing, or trashed for non-administrators
 * (docs/decisions.md#administrators-can-read-trashed-items).
 */
export function oneRecord<R extends Record<string, unknown>, T, I extends string>(
  db: Db,
  view: View,
  records: ContentRecords<R, T, I>,
  id: number | SQL,
  include: Set<I>,
): BatchRead<T> {
  const source = byId(records.kind, view.isAdmin);
  return readAs(recordsByIds(db, view, records, source, typeof id === "number" ? [id] : id, include), ([record]) => {
    if (!record) throw new ApiError(records.kind.notFound);
    return record;
  });
}

/** One record of a content kind (see {@link oneRecord}). */
export function loadOne<R extends Record<string, unknown>, T, I extends string>(
  db: Db,
  view: View,
  records: ContentRecords<R, T, I>,
  id: number,
  include: Set<I>,
): Promise<T> {
  return batch(db, oneRecord(db, view, records, id, include));
}

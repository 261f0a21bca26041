/**
 * Pages and single items of any listed table, each as ONE batch: an optional existence check, the total, the
 * rows, and every requested relation over the page's ids (the page query reused as a subquery). Reads thus
 * cost one round trip after authentication, whatever per_page and include are.
 */
import { and, asc, count, desc, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteSelect, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { IdSource } from "../../behaviours/id-source";
import { inIds } from "../../behaviours/id-source";
import { runBatch, type BatchStatement, type Db } from "../../db/client";
import { ApiError, type ErrorName } from "../../lib/errors";
import type { Order } from "../../lib/order";
import { paginate, type PageRequest, type Pagination } from "../../lib/pagination";
import type { Relation } from "./relations";

export interface ListSource {
  table: SQLiteTable;
  /** The listed table's id column: pages are over its values. */
  id: SQLiteColumn;
  columns: Record<string, SQLiteColumn | SQL.Aliased>;
  /** An inner join, e.g. `follows` for "what a user follows" or `topicables` for a topic's questions. */
  join?: { table: SQLiteTable; on: SQL };
  where?: SQL;
  orderBy: SQL[];
}

/** A statement whose empty result means the list's owner is missing (e.g. the question of its answers). */
export interface ExistenceCheck {
  statement: BatchStatement;
  notFound: ErrorName;
}

/** `ORDER BY field, id` in the asked direction: the id settles ties so pages never overlap. */
export function orderBy<F extends string>(columns: Record<F, SQLiteColumn>, order: Order<F>, id: SQLiteColumn): SQL[] {
  const direction = order.desc ? desc : asc;
  return [direction(columns[order.field]), direction(id)];
}

function from<Q extends SQLiteSelect>(query: Q, source: ListSource): Q {
  const joined = (source.join ? query.innerJoin(source.join.table, source.join.on) : query) as Q;
  return joined.where(source.where) as Q;
}

export function pageStatements(db: Db, source: ListSource, page: PageRequest) {
  const paged = <Q extends SQLiteSelect>(query: Q) => from(query, source).orderBy(...source.orderBy).limit(page.per_page).offset(page.offset);
  return {
    total: from(db.select({ total: count() }).from(source.table).$dynamic(), source),
    rows: paged(db.select(source.columns).from(source.table).$dynamic()),
    ids: paged(db.select({ id: source.id }).from(source.table).$dynamic()),
  };
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
  const { total, rows, ids } = pageStatements(db, source, request);
  const relations = relation?.(ids);
  const results = await runBatch(db, [...(check ? [check.statement] : []), total, rows, ...(relations?.statements ?? [])]);
  if (check && (results.shift() as unknown[]).length === 0) throw new ApiError(check.notFound);
  const [counted] = results.shift() as { total: number }[];
  const pageRows = results.shift() as R[];
  const relationsOf = relations?.resolve(results);
  return {
    data: pageRows.map((row) => present(row, relationsOf?.(row[idKey(source)] as number))),
    pagination: paginate(request, counted?.total ?? 0),
  };
}

/** The name under which the id column is selected in `columns`. */
function idKey(source: ListSource): string {
  const entry = Object.entries(source.columns).find(([, column]) => column === source.id);
  if (!entry) throw new Error("a list source must select its id column");
  return entry[0];
}

/**
 * Items by id after `writes` (in the same batch, so they see the writes), in the order asked; ids not found
 * by `where` are skipped. Used to answer a write with the records it changed.
 */
export async function loadByIds<R extends Record<string, unknown>, T>(
  db: Db,
  source: Pick<ListSource, "table" | "id" | "columns" | "where">,
  ids: number[],
  relation: ((ids: IdSource) => Relation) | null,
  present: (row: R, relationships: Record<string, unknown> | undefined) => T,
  writes: BatchStatement[] = [],
): Promise<T[]> {
  const rows = db.select(source.columns).from(source.table).where(and(inIds(source.id, ids), source.where));
  const relations = relation?.(ids);
  const results = (await runBatch(db, [...writes, rows, ...(relations?.statements ?? [])])).slice(writes.length);
  const key = idKey(source as ListSource);
  const found = new Map((results.shift() as R[]).map((row) => [row[key] as number, row]));
  const relationsOf = relations?.resolve(results);
  return ids.flatMap((id) => {
    const row = found.get(id);
    return row ? [present(row, relationsOf?.(id))] : [];
  });
}

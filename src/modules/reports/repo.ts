/**
 * Queries on reports. A report's target is a (type, id) pair; one report per user and target is the table's
 * unique key (docs/decisions.md#one-vote-follow-and-report-per-user-and-target), so a duplicate is found by the insert
 * itself, never by a read before it.
 */
import { and, count, desc, eq, getTableColumns, max, notInArray, type SQL, sql } from "drizzle-orm";
import type { ListSource } from "../../behaviours/content/repo";
import { type IdSource, inIds } from "../../behaviours/id-source";
import { isLive, privateRows } from "../../behaviours/live";
import type { BatchStatement, Db } from "../../db/client";
import { allOf } from "../../db/conditions";
import { reports } from "../../db/schema";
import type { ReportableKind } from "../../domain/entities";
import type { PageRequest } from "../../lib/pagination";
import { reportables, type Target } from "./targets";

export type ReportRow = typeof reports.$inferSelect;

const onTarget = (target: Target): SQL =>
  allOf(eq(reports.reportable_type, target.type), eq(reports.reportable_id, target.id));

/**
 * The live targets of one type among `ids`, as `id` plus their summary columns: none when missing or trashed. A private
 * message is found only by its parties (`reporter`), or, for the administrators' lists (no reporter), once reported.
 */
export function selectTargets(db: Db, type: ReportableKind, ids: IdSource, reporter: number | null = null) {
  const kind = reportables[type];
  // Aliased: D1 batches return rows keyed by column name, so the id column selected twice would collapse.
  const id = sql<number>`${kind.id}`.as("id");
  return db
    .select({ id, ...kind.summaryColumns })
    .from(kind.table)
    .where(allOf(isLive(kind, ids), privateRows(kind, reporter)));
}

/**
 * INSERT ... SELECT from the live target, ON CONFLICT DO NOTHING, RETURNING the row: nothing comes back when the
 * target is missing or trashed (or a message the user is no party to), or when the user already reported it (the
 * unique key), even under concurrency.
 */
export function insertReport(db: Db, target: Target, userId: number, reason: string, time: number) {
  const kind = reportables[target.type];
  const row = db
    .select({
      // NULL makes SQLite assign the next report_id.
      report_id: sql<number>`NULL`.as("report_id"),
      reportable_id: sql<number>`${target.id}`.as("reportable_id"),
      reportable_type: sql<ReportableKind>`${target.type}`.as("reportable_type"),
      user_id: sql<number>`${userId}`.as("user_id"),
      reason: sql<string>`${reason}`.as("reason"),
      create_time: sql<number>`${time}`.as("create_time"),
    })
    .from(kind.table)
    .where(allOf(isLive(kind, target.id), privateRows(kind, userId)));
  return db.insert(reports).select(row).onConflictDoNothing().returning();
}

/** The reports on one target, newest first (the id settles reports made within the same second). */
export function reportsOf(target: Target): ListSource {
  return {
    table: reports,
    id: reports.report_id,
    columns: getTableColumns(reports),
    where: onTarget(target),
    orderBy: [desc(reports.create_time), desc(reports.report_id)],
  };
}

/**
 * GET /reports: one group per reported target, the target with the newest report first. The newest report's id
 * breaks ties between targets last reported within the same second; being unique, it also keeps pages apart.
 * `total` counts distinct targets (docs/decisions.md#report-list-total-counts-targets; the reference counted the first
 * group's reports). Without a type, the `hidden` types are left out.
 */
export function groupStatements(
  db: Db,
  type: ReportableKind | undefined,
  page: PageRequest,
  hidden: readonly ReportableKind[] = [],
) {
  const where = type
    ? eq(reports.reportable_type, type)
    : hidden.length > 0
      ? notInArray(reports.reportable_type, [...hidden])
      : undefined;
  const rows = db
    .select({
      reportable_id: reports.reportable_id,
      reportable_type: reports.reportable_type,
      reporter_count: count().as("reporter_count"),
    })
    .from(reports)
    .where(where)
    .groupBy(reports.reportable_type, reports.reportable_id)
    .orderBy(desc(max(reports.create_time)), desc(max(reports.report_id)))
    .limit(page.per_page)
    .offset(page.offset);
  const targets = db
    .selectDistinct({ type: reports.reportable_type, id: reports.reportable_id })
    .from(reports)
    .where(where)
    .as("report_targets");
  const pageRows = rows.as("report_page");
  return {
    total: db.select({ total: count() }).from(targets),
    rows,
    /** The ids of the page's targets of one type, as a subquery, so their summaries load in the page's batch. */
    idsOf: (targetType: ReportableKind) =>
      db
        .select({ id: pageRows.reportable_id })
        .from(pageRows)
        .where(eq(pageRows.reportable_type, targetType))
        .$dynamic(),
  };
}

/** Every report on the targets: one statement per type, all for one batch. */
export function deleteReportsOn(db: Db, targets: Target[]): BatchStatement[] {
  const idsByType = new Map<ReportableKind, number[]>();
  for (const { type, id } of targets) idsByType.set(type, [...(idsByType.get(type) ?? []), id]);
  return [...idsByType].map(([type, ids]) =>
    db.delete(reports).where(and(eq(reports.reportable_type, type), inIds(reports.reportable_id, ids))),
  );
}

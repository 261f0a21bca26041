/**
 * Rules of the reports routes (spec operation 7, docs/operations.md#reports): the order of checks on a new report, the
 * administrators' lists and deletes. Each request is one batch after authentication: a list with every include
 * in the page's batch; a new report with its target check and duplicate detection in the insert's batch.
 */
import { loadPage, type Page } from "../../behaviours/content/page";
import type { Relationships } from "../../behaviours/content/present";
import type { CallerId } from "../../core/caller";
import { ApiError } from "../../core/errors";
import { batch, commit, type Db } from "../../db/client";
import type { ReportableKind } from "../../domain/entities";
import type { View } from "../../http/view";
import { paginate, parsePage } from "../../lib/pagination";
import { now } from "../../lib/time";
import { zodToApiError } from "../../lib/validation";
import { emit } from "../events/outbox";
import { groupRelation, reportRelation } from "./relations";
import { deleteReportsOn, groupStatements, insertReport, type ReportRow, reportsOf, selectTargets } from "./repo";
import {
  type GroupInclude,
  type Report,
  ReportBody,
  type ReportGroup,
  type ReportGroupQueryInput,
  type ReportInclude,
  type ReportPageQueryInput,
} from "./schema";
import { reportables, type Target } from "./targets";

const presentReport = (row: ReportRow, relationships: Relationships | undefined): Report =>
  ({ ...row, ...(relationships && { relationships }) }) as Report;

/**
 * POST /reports/{type}:{id}. Checks in the reference's order (docs/operations.md#reports): type (parsed with the path),
 * target, reason, duplicate. Reporting oneself or one's own content is allowed.
 */
export async function createReport(
  db: Db,
  view: View,
  caller: CallerId,
  target: Target,
  raw: unknown,
  include: Set<ReportInclude>,
): Promise<Report> {
  const kind = reportables[target.type];
  const parsed = ReportBody.safeParse(raw);
  if (!parsed.success) {
    // A missing target outranks a bad reason, so it is looked up before the field error is answered.
    const [found] = await batch(db, selectTargets(db, target.type, [target.id], caller.user_id));
    if (!found) throw new ApiError(kind.notFound);
    throw zodToApiError(parsed.error);
  }
  // One batch: D1 runs it atomically, so the target cannot vanish between its check and the insert.
  const {
    targets: [found],
    inserted: [row],
    reporter,
  } = await batch(db, {
    targets: selectTargets(db, target.type, [target.id], caller.user_id),
    inserted: insertReport(db, target, caller.user_id, parsed.data.reason, now()),
    reporter: include.has("reporter") ? selectTargets(db, "user", [caller.user_id]) : null,
  });
  if (!found) throw new ApiError(kind.notFound);
  if (!row) throw new ApiError("ALREADY_REPORTED");
  emit(db, "report.created", { report: presentReport(row, undefined) });
  if (include.size === 0) return presentReport(row, undefined);
  // The reporter (the caller) and the target were read with the insert: nothing more to load.
  const relationships: Relationships = {};
  if (reporter?.[0]) relationships.reporter = reportables.user.summary(reporter[0], view) as Relationships["reporter"];
  if (include.has(target.type)) relationships[target.type] = kind.summary(found, view);
  return presentReport(row, relationships);
}

/** GET /reports/{type}:{id} (spec operation 7): the target's reports, newest first; none is an empty page. */
export function listReportsOf(
  db: Db,
  view: View,
  target: Target,
  query: ReportPageQueryInput,
  include: Set<ReportInclude>,
): Promise<Page<Report>> {
  return loadPage(db, reportsOf(target), parsePage(query), reportRelation(db, view, target, include), presentReport);
}

/**
 * GET /reports: one group per reported target, the most recently reported first, with the total of targets; without
 * a type asked, the `hidden` types are left out (those MDClub's admin panel cannot show, under MDCLUB_COMPAT).
 */
export async function listReportGroups(
  db: Db,
  view: View,
  query: ReportGroupQueryInput,
  include: Set<GroupInclude>,
  hidden: readonly ReportableKind[] = [],
): Promise<Page<ReportGroup>> {
  const request = parsePage(query);
  const { total, rows, idsOf } = groupStatements(db, query.reportable_type, request, hidden);
  const found = await batch(db, { total, groups: rows, relations: groupRelation(db, view, include, idsOf) });
  const [counted] = found.total;
  const relationsOf = found.relations;
  return {
    data: found.groups.map((group) => ({
      ...group,
      ...(relationsOf && { relationships: relationsOf(group.reportable_type, group.reportable_id) }),
    })),
    pagination: paginate(request, counted?.total ?? 0),
  };
}

/** DELETE /reports/{targets}: every report on each listed target; targets without reports are no error. */
export async function deleteReports(db: Db, targets: Target[]): Promise<void> {
  await commit(db, deleteReportsOn(db, targets));
}

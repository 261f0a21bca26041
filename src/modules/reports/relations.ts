/**
 * Includes of reports and report groups (docs/conventions.md#object-shapes), each one statement for the whole page,
 * loaded in the page's own batch: the reporter, and the target's summary under its type's key (null when the target is
 * missing or trashed). A target summary appears only under the key of the row's own type.
 */
import type { Relationships } from "../../behaviours/content/present";
import {
  authorRelation,
  includedRelations,
  type Relation,
  type StatementRelation,
} from "../../behaviours/content/relations";
import type { SummaryRow } from "../../behaviours/content/summaries";
import type { IdSource } from "../../behaviours/id-source";
import { type BatchRead, type Db, readAs } from "../../db/client";
import { reports } from "../../db/schema";
import type { ReportableKind } from "../../domain/entities";
import type { View } from "../../http/view";
import { selectTargets } from "./repo";
import type { GroupInclude, ReportInclude } from "./schema";
import { reportables, type Target } from "./targets";

const summaryOf = (type: ReportableKind, row: SummaryRow | undefined, view: View) =>
  row ? reportables[type].summary(row, view) : null;

/** The one target every report of the page shares: its summary is the same for each row. */
function targetRelation(db: Db, view: View, target: Target): StatementRelation {
  return readAs(selectTargets(db, target.type, [target.id]), ([row]) => {
    const summary = summaryOf(target.type, row, view);
    return () => ({ [target.type]: summary });
  });
}

/** The relations of a page of reports on `target`; null when nothing is included (no `relationships` key). */
export function reportRelation(
  db: Db,
  view: View,
  target: Target,
  include: Set<ReportInclude>,
): ((ids: IdSource) => Relation) | null {
  return includedRelations(include, () => [
    include.has("reporter") && authorRelation(view, reports.user_id, "reporter"),
    include.has(target.type) && targetRelation(db, view, target),
  ]);
}

/** The relationships of a group by its target. */
export type GroupRelation = BatchRead<(type: ReportableKind, id: number) => Relationships>;

/**
 * The summaries of a page of groups: one statement per included type over the page's targets of that type
 * (`idsOf` gives them as a subquery of the page). Null when nothing is included.
 */
export function groupRelation(
  db: Db,
  view: View,
  include: Set<GroupInclude>,
  idsOf: (type: ReportableKind) => IdSource,
): GroupRelation | null {
  if (include.size === 0) return null;
  const types = [...include];
  return readAs(
    types.map((type) =>
      readAs(
        selectTargets(db, type, idsOf(type)),
        (rows) => [type, new Map(rows.map((row) => [row.id, row]))] as const,
      ),
    ),
    (byType) => {
      const found = new Map(byType);
      return (type, id) => {
        const rows = found.get(type);
        return rows ? { [type]: summaryOf(type, rows.get(id), view) } : {};
      };
    },
  );
}

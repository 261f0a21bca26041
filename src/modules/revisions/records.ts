/**
 * How revision rows become Revision records (docs/revisions.md#reading): the fields the edit changed, each with its
 * value before and after, and the editor's summary (`user`).
 */
import type { Records } from "../../behaviours/content/page";
import { authorRelation, includedRelations } from "../../behaviours/content/relations";
import { REVISED_FIELDS, type RevisedField } from "../../behaviours/revisable";
import { revisions } from "../../db/schema-bookmarks-revisions";
import { REVISION_INCLUDES, type Revision, type RevisionInclude, RevisionSchema } from "./schema";

/** A row of an item's revisions list (behaviours/revisable.ts `revisionsSource`). */
type RevisionRow = { revision: number; user_id: number; create_time: number } & Partial<
  Record<RevisedField | `${RevisedField}_after`, string | null>
>;

/** A field's value as the record shows it: topic ids are kept as JSON text. */
const shown = (field: RevisedField, value: string | null | undefined) =>
  field === "topic_ids" ? (JSON.parse(value ?? "[]") as number[]) : (value ?? "");

export const revisionRecords: Records<RevisionRow, Revision, RevisionInclude> = {
  includes: REVISION_INCLUDES,
  schema: RevisionSchema,
  relation: (_db, view, include) =>
    includedRelations(include, () => [include.has("user") && authorRelation(view, revisions.user_id)]),
  present: () => (row, relationships) => {
    const changes: Record<string, unknown> = {};
    for (const field of REVISED_FIELDS) {
      const before = row[field];
      if (typeof before === "string") {
        changes[field] = { before: shown(field, before), after: shown(field, row[`${field}_after`]) };
      }
    }
    const record = { revision: row.revision, user_id: row.user_id, create_time: row.create_time, changes };
    return (relationships ? { ...record, relationships } : record) as Revision;
  },
};

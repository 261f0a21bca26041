/** The one read of a trash, untrash or delete: the listed rows, live or trashed, with every column. */
import { inIds } from "../../behaviours/id-source";
import type { Db } from "../../db/client";
import type { ContentKind } from "../content/kinds";

/** A content row as stored (every kind has these; the rest depends on the kind). */
export interface TargetRow extends Record<string, unknown> {
  delete_time: number;
}

export function selectTargetsStatement(db: Db, kind: ContentKind, ids: number[]) {
  return db.select(kind.columns).from(kind.table).where(inIds(kind.id, ids));
}

export async function selectTargets(db: Db, kind: ContentKind, ids: number[]): Promise<TargetRow[]> {
  return (await selectTargetsStatement(db, kind, ids)) as TargetRow[];
}

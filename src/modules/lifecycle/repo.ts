/** The one read of a trash, untrash or delete: the listed rows, live or trashed, with every column. */
import { inIds } from "../../behaviours/id-source";
import { batch, type Db } from "../../db/client";
import type { EntityWith } from "../../domain/entities";

/** A row as stored (every kind with a trash has these; the rest depends on the kind). */
export interface TargetRow extends Record<string, unknown> {
  delete_time: number;
}

export function selectTargetsStatement(db: Db, kind: EntityWith<"trash">, ids: number[]) {
  return db.select(kind.columns).from(kind.table).where(inIds(kind.id, ids));
}

export async function selectTargets(db: Db, kind: EntityWith<"trash">, ids: number[]): Promise<TargetRow[]> {
  return (await batch(db, selectTargetsStatement(db, kind, ids))) as TargetRow[];
}

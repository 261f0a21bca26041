/**
 * Each revisable kind's restore, which is its own edit (docs/revisions.md#restore), with the kind's include names and
 * record schema, for the routes written once for every revisable kind.
 */
import type { CallerId } from "../../core/caller";
import type { Db } from "../../db/client";
import type { RevisableKind } from "../../domain/entities";
import type { View } from "../../http/view";
import { restoreAnswer } from "../answers/service";
import { restoreArticle } from "../articles/service";
import { recordKinds } from "../lifecycle/records";
import { restoreQuestion } from "../questions/service";

type Restore = (
  db: Db,
  view: View,
  caller: CallerId,
  id: number,
  revision: number,
  include: Set<string>,
) => Promise<unknown>;

/** Widened to any include name, which is sound here: the route parses `include` with the kind's own names. */
const widen = <I extends string>(
  restore: (db: Db, view: View, caller: CallerId, id: number, revision: number, include: Set<I>) => Promise<unknown>,
) => restore as Restore;

export const restorers: Record<RevisableKind, { restore: Restore; records: (typeof recordKinds)[RevisableKind] }> = {
  question: { restore: widen(restoreQuestion), records: recordKinds.question },
  answer: { restore: widen(restoreAnswer), records: recordKinds.answer },
  article: { restore: widen(restoreArticle), records: recordKinds.article },
};

/**
 * Reading an item's edit history (docs/revisions.md#reading); restoring a revision is an edit, each kind's own
 * (modules/revisions/restorers.ts).
 */
import { type Page, type PageQuery, pageOf } from "../../behaviours/content/page";
import { type RevisionTarget, revisionsSource, selectReadable } from "../../behaviours/revisable";
import type { Db } from "../../db/client";
import type { View } from "../../http/view";
import { revisionRecords } from "./records";
import type { Revision, RevisionInclude } from "./schema";

/**
 * GET /{resource}/{id}/revisions: newest first, for whoever may read the item (its not-found code otherwise:
 * missing, or trashed for anyone but administrators), in one batch.
 */
export function listRevisions(
  db: Db,
  view: View,
  target: RevisionTarget,
  id: number,
  query: PageQuery,
  include: Set<RevisionInclude>,
): Promise<Page<Revision>> {
  const check = { statement: selectReadable(db, target, id, view.isAdmin), notFound: target.notFound };
  return pageOf(db, view, revisionRecords, revisionsSource(target, id), query, include, check);
}

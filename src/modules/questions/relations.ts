/** The includes a question can carry (behaviour.md 2.1): `user`, `topics`, `is_following`, `voting`. */
import { followTargets } from "../../behaviours/followable";
import type { IdSource } from "../../behaviours/id-source";
import type { Db } from "../../db/client";
import { questions } from "../../db/schema";
import type { View } from "../../lib/view";
import { authorRelation, combineRelations, followingRelation, topicsRelation, votingRelation, type Relation } from "../content/relations";
import type { QuestionInclude } from "./schema";

/** Builds the relations of a page or of some questions; null when nothing is included (no `relationships` key). */
export function questionRelation(db: Db, view: View, include: Set<QuestionInclude>): ((ids: IdSource) => Relation) | null {
  if (include.size === 0) return null;
  return (ids) =>
    combineRelations([
      include.has("user") && authorRelation(db, view, questions, questions.question_id, questions.user_id, ids),
      include.has("topics") && topicsRelation(db, view, "question", ids),
      include.has("is_following") && followingRelation(db, view, followTargets.question, ids),
      include.has("voting") && votingRelation(db, view, "question", ids),
    ]);
}

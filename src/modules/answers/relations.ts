/** The includes an answer can carry (spec "Answer"): `user`, `question`, `voting`. */
import type { IdSource } from "../../behaviours/id-source";
import type { Db } from "../../db/client";
import { answers } from "../../db/schema";
import type { View } from "../../lib/view";
import { answerQuestionRelation, authorRelation, combineRelations, votingRelation, type Relation } from "../content/relations";
import type { AnswerInclude } from "./schema";

/** Builds the relations of a page or of some answers; null when nothing is included (no `relationships` key). */
export function answerRelation(db: Db, view: View, include: Set<AnswerInclude>): ((ids: IdSource) => Relation) | null {
  if (include.size === 0) return null;
  return (ids) =>
    combineRelations([
      include.has("user") && authorRelation(db, view, answers, answers.answer_id, answers.user_id, ids),
      include.has("question") && answerQuestionRelation(db, ids),
      include.has("voting") && votingRelation(db, view, "answer", ids),
    ]);
}

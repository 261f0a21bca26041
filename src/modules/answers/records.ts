/**
 * How answer rows become Answer records (spec "Answer"), with the includes `user`, `question`, `voting`,
 * `is_bookmarked`.
 */
import { bookmarkTargets } from "../../behaviours/bookmarkable";
import type { ContentRecords } from "../../behaviours/content/page";
import { type AnswerRow, presentRecord } from "../../behaviours/content/present";
import {
  answerQuestionRelation,
  authorRelation,
  bookmarkedRelation,
  includedRelations,
  votingRelation,
} from "../../behaviours/content/relations";
import { answers } from "../../db/schema";
import { entities } from "../../domain/entities";
import { ANSWER_INCLUDES, ANSWER_ORDER, type Answer, type AnswerInclude, AnswerSchema } from "./schema";

export const answerRecords: ContentRecords<AnswerRow, Answer, AnswerInclude> = {
  kind: entities.answer,
  includes: ANSWER_INCLUDES,
  order: ANSWER_ORDER,
  schema: AnswerSchema,
  relation: (db, view, include) =>
    includedRelations(include, (ids) => [
      include.has("user") && authorRelation(view, answers.user_id),
      include.has("question") && answerQuestionRelation(db, ids),
      include.has("voting") && votingRelation(view, "answer", answers.answer_id),
      include.has("is_bookmarked") && bookmarkedRelation(view, bookmarkTargets.answer, answers.answer_id),
    ]),
  present: (view) => (row, relationships) => presentRecord(row, view, relationships) as Answer,
};

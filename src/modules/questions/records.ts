/**
 * How question rows become Question records (docs/conventions.md#object-shapes), with the includes `user`, `topics`,
 * `is_following`, `voting`, `is_bookmarked`.
 */
import { bookmarkTargets } from "../../behaviours/bookmarkable";
import type { ContentRecords } from "../../behaviours/content/page";
import { presentRecord, type QuestionRow } from "../../behaviours/content/present";
import {
  authorRelation,
  bookmarkedRelation,
  followingRelation,
  includedRelations,
  topicsRelation,
  votingRelation,
} from "../../behaviours/content/relations";
import { followTargets } from "../../behaviours/followable";
import { questions } from "../../db/schema";
import { entities } from "../../domain/entities";
import { QUESTION_INCLUDES, QUESTION_ORDER, type Question, type QuestionInclude, QuestionSchema } from "./schema";

export const questionRecords: ContentRecords<QuestionRow, Question, QuestionInclude> = {
  kind: entities.question,
  includes: QUESTION_INCLUDES,
  order: QUESTION_ORDER,
  schema: QuestionSchema,
  relation: (db, view, include) =>
    includedRelations(include, (ids) => [
      include.has("user") && authorRelation(view, questions.user_id),
      include.has("topics") && topicsRelation(db, view, "question", ids),
      include.has("is_following") && followingRelation(view, followTargets.question, questions.question_id),
      include.has("voting") && votingRelation(view, "question", questions.question_id),
      include.has("is_bookmarked") && bookmarkedRelation(view, bookmarkTargets.question, questions.question_id),
    ]),
  present: (view) => (row, relationships) => presentRecord(row, view, relationships) as Question,
};

/**
 * The records trash and untrash answer with, as each resource module defines them: its allowed `include` names,
 * its relation loaders and its record schema (behaviour.md 2.1). The rows are presented by the shared content
 * presenters, in the write's own batch.
 */
import type { IdSource } from "../../behaviours/id-source";
import type { Db } from "../../db/client";
import type { z } from "../../lib/openapi";
import type { View } from "../../lib/view";
import { ANSWER_INCLUDES, AnswerSchema } from "../answers/schema";
import { answerRelation } from "../answers/relations";
import { ARTICLE_INCLUDES, ArticleSchema } from "../articles/schema";
import { articleRelation } from "../articles/service";
import { COMMENT_INCLUDES, CommentSchema } from "../comments/schema";
import { commentRelation } from "../comments/service";
import type { ContentType } from "../content/kinds";
import { presentRecord, presentTopic, type Relationships, type TopicRow } from "../content/present";
import type { Relation } from "../content/relations";
import { QUESTION_INCLUDES, QuestionSchema } from "../questions/schema";
import { questionRelation } from "../questions/relations";
import { TOPIC_INCLUDES, TopicSchema } from "../topics/schema";
import { topicRelation } from "../topics/relations";

interface RecordKind {
  includes: readonly string[];
  schema: z.ZodType;
  /** Method syntax: each module's loader takes its own include names, which `parseInclude` guarantees. */
  relation(db: Db, view: View, include: Set<string>): ((ids: IdSource) => Relation) | null;
}

export const recordKinds: Record<ContentType, RecordKind> = {
  question: { includes: QUESTION_INCLUDES, schema: QuestionSchema, relation: questionRelation },
  answer: { includes: ANSWER_INCLUDES, schema: AnswerSchema, relation: answerRelation },
  article: { includes: ARTICLE_INCLUDES, schema: ArticleSchema, relation: articleRelation },
  comment: { includes: COMMENT_INCLUDES, schema: CommentSchema, relation: commentRelation },
  topic: { includes: TOPIC_INCLUDES, schema: TopicSchema, relation: topicRelation },
};

/** A record as the wire shows it: every column of its kind, `delete_time` and `relationships` as presented. */
export type LifecycleRecord = Record<string, unknown>;

/** The presenter of a kind: topics carry cover URLs instead of the stored file name. */
export function presenterOf(type: ContentType, view: View) {
  return (row: Record<string, unknown>, relationships: Relationships | undefined): LifecycleRecord =>
    type === "topic" ? presentTopic(row as TopicRow, view, relationships) : presentRecord(row as { delete_time: number }, view, relationships);
}

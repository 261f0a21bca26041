/**
 * How topic rows become Topic records (docs/conventions.md#object-shapes): cover URLs, and the one include
 * `is_following`.
 */
import type { ContentRecords } from "../../behaviours/content/page";
import { presentTopic, type TopicRow } from "../../behaviours/content/present";
import { followingRelation, includedRelations } from "../../behaviours/content/relations";
import { followTargets } from "../../behaviours/followable";
import { topics } from "../../db/schema";
import { entities } from "../../domain/entities";
import { TOPIC_INCLUDES, TOPIC_ORDER, type Topic, type TopicInclude, TopicSchema } from "./schema";

export const topicRecords: ContentRecords<TopicRow, Topic, TopicInclude> = {
  kind: entities.topic,
  includes: TOPIC_INCLUDES,
  order: TOPIC_ORDER,
  schema: TopicSchema,
  relation: (_db, view, include) =>
    includedRelations(include, () => [
      include.has("is_following") && followingRelation(view, followTargets.topic, topics.topic_id),
    ]),
  present: (view) => (row, relationships) => presentTopic(row, view, relationships) as Topic,
};

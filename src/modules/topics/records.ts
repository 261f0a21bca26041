/** How topic rows become Topic records (behaviour.md 2.1): cover URLs, and the one include `is_following`. */
import { followTargets } from "../../behaviours/followable";
import { entities } from "../../domain/entities";
import type { ContentRecords } from "../content/page";
import { presentTopic, type TopicRow } from "../content/present";
import { followingRelation, includedRelations } from "../content/relations";
import { TOPIC_INCLUDES, TOPIC_ORDER, type Topic, type TopicInclude, TopicSchema } from "./schema";

export const topicRecords: ContentRecords<TopicRow, Topic, TopicInclude> = {
  kind: entities.topic,
  includes: TOPIC_INCLUDES,
  order: TOPIC_ORDER,
  schema: TopicSchema,
  relation: (db, view, include) =>
    includedRelations(include, (ids) => [
      include.has("is_following") && followingRelation(db, view, followTargets.topic, ids),
    ]),
  present: (view) => (row, relationships) => presentTopic(row, view, relationships) as Topic,
};

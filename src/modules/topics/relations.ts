/** The includes a topic can carry (behaviour.md 2.1): only `is_following`. */
import { followTargets } from "../../behaviours/followable";
import type { IdSource } from "../../behaviours/id-source";
import type { Db } from "../../db/client";
import type { View } from "../../lib/view";
import { combineRelations, followingRelation, type Relation } from "../content/relations";
import type { TopicInclude } from "./schema";

/** Builds the relations of a page or of some topics; null when nothing is included (no `relationships` key). */
export function topicRelation(db: Db, view: View, include: Set<TopicInclude>): ((ids: IdSource) => Relation) | null {
  if (include.size === 0) return null;
  return (ids) => combineRelations([include.has("is_following") && followingRelation(db, view, followTargets.topic, ids)]);
}

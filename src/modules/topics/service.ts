/**
 * Rules of the topics routes (docs/operations.md#topics): who sees trashed topics, name uniqueness among live topics,
 * and the lists of topics. Every operation is one batch after authentication: checks, writes, the record they
 * answer with and its relations travel together.
 */
import { filteredPage, loadOne, type PageQuery, pageOf, recordsByIds } from "../../behaviours/content/page";
import { byId, followedBy, newestWhere, userExists } from "../../behaviours/content/repo";
import { documentOf, indexNew, reindexFields } from "../../behaviours/searchable";
import { ApiError, validationError } from "../../core/errors";
import { batch, type Db } from "../../db/client";
import { entities } from "../../domain/entities";
import type { View } from "../../http/view";
import { emit } from "../events/outbox";
import { topicRecords } from "./records";
import { insertTopic, liveTopicNamed, sameName, selectForEdit, topicHolds, updateTopic } from "./repo";
import type { Topic, TopicChanges, TopicInclude } from "./schema";

export interface TopicListQuery extends PageQuery {
  topic_id?: number;
  name?: string;
  trashed?: string;
}

/** GET /topics: live topics, or for administrators asking `trashed=true` only trashed ones. */
export function listTopics(db: Db, view: View, query: TopicListQuery, include: Set<TopicInclude>) {
  const named = query.name === undefined ? undefined : sameName(query.name);
  const filter = { topic_id: query.topic_id, where: named, trashed: view.isAdmin && query.trashed === "true" };
  return filteredPage(db, view, topicRecords, filter, query, include);
}

/** The live topics a user follows, newest follow first (docs/operations.md#users); 201003 when the user is missing. */
export function listFollowedTopics(db: Db, view: View, userId: number, query: PageQuery, include: Set<TopicInclude>) {
  return pageOf(db, view, topicRecords, followedBy("topic", userId), query, include, userExists(db, view, userId));
}

/** One topic; trashed ones only for administrators (docs/decisions.md#content). */
export function getTopic(db: Db, view: View, id: number, include: Set<TopicInclude>): Promise<Topic> {
  return loadOne(db, view, topicRecords, id, include);
}

/** A duplicate name is a 200001 on `name` with 409, as for taken usernames (docs/decisions.md#wire-format). */
const nameTaken = () => validationError({ name: "a topic with this name already exists" }, 409);

export async function createTopic(
  db: Db,
  view: View,
  fields: { name: string; description: string },
  include: Set<TopicInclude>,
): Promise<Topic> {
  // The new topic's id is only known inside the batch: its relations select it by its (unique) name. The row
  // comes from the insert itself, as a refused insert (name taken) must not answer the topic holding the name.
  const { inserted, records } = await batch(db, {
    inserted: insertTopic(db, fields),
    indexed: indexNew(db, "topic", newestWhere(db, entities.topic, sameName(fields.name)), documentOf.topic(fields)),
    records: recordsByIds(
      db,
      view,
      topicRecords,
      byId(entities.topic, false),
      liveTopicNamed(db, fields.name),
      include,
    ),
  });
  const [record] = records;
  if (inserted.length === 0 || !record) throw nameTaken();
  emit(db, "topic.created", { ids: [record.topic_id] });
  return record;
}

/**
 * Changes the fields sent of a live topic (205001 otherwise, administrators included). The existence and
 * name checks run in the same batch as the guarded update, so a taken name changes nothing.
 */
export async function editTopic(
  db: Db,
  view: View,
  id: number,
  changes: TopicChanges,
  include: Set<TopicInclude>,
): Promise<Topic> {
  const { before, owner } = selectForEdit(db, id, changes.name);
  const found = await batch(db, {
    before,
    owner,
    update: Object.keys(changes).length > 0 ? updateTopic(db, id, changes) : undefined,
    indexed: reindexTopic(db, id, changes),
    after: recordsByIds(db, view, topicRecords, byId(entities.topic, true), [id], include),
  });
  if (found.before.length === 0) throw new ApiError("TOPIC_NOT_FOUND");
  if (found.owner && found.owner.length > 0) throw nameTaken();
  const [record] = found.after;
  if (!record) throw new Error(`Topic ${id}, found before its edit, is missing after it`);
  if (found.update) emit(db, "topic.updated", { ids: [id] });
  return record;
}

/**
 * The edited fields of a topic's document, changed only if the edit was (a taken name refuses it in the batch): the
 * topic then holds the values sent.
 */
function reindexTopic(db: Db, id: number, changes: TopicChanges) {
  const { name, description } = changes;
  const doc = documentOf.topic({ name: name ?? "", description: description ?? "" });
  const fields = {
    ...(name !== undefined && { title: doc.title }),
    ...(description !== undefined && { body: doc.body }),
  };
  return reindexFields(db, "topic", id, fields, topicHolds(id, { name, description }));
}

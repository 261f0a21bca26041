/**
 * The Notification record (spec "Notification", docs/notifications.md) and its includes, as the notifications routes
 * answer it and as a member's live stream carries it (docs/events.md).
 */
import { presentRecord, type Relationships } from "../../behaviours/content/present";
import { type Relation, statementRelation } from "../../behaviours/content/relations";
import type { IdSource } from "../../behaviours/id-source";
import type { NotificationType } from "../../behaviours/notification-events";
import { type Db, readAs } from "../../db/client";
import type { View } from "../../http/view";
import { type NotificationRow, relatedSummary, selectRelated } from "./repo";
import type { Notification, NotificationInclude } from "./schema";

/** The includes of notifications: one statement per name over their ids, in the batch of the rows themselves. */
export function notificationRelation(
  db: Db,
  view: View,
  include: Set<NotificationInclude>,
): ((ids: IdSource) => Relation) | null {
  if (include.size === 0) return null;
  const names = [...include];
  return (ids) =>
    statementRelation(
      readAs(
        names.map((name) =>
          readAs(selectRelated(db, name, ids), (rows) => [name, new Map(rows.map((row) => [row.nid, row]))] as const),
        ),
        (found) => {
          return (id) =>
            Object.fromEntries(
              found.map(([name, rows]) => {
                const row = rows.get(id);
                return [name, row ? relatedSummary(name, row, view) : null];
              }),
            );
        },
      ),
    );
}

/**
 * The item a `*_deleted` kind deleted: its key is left out of relationships
 * (docs/decisions.md#the-deleted-item-has-no-relationship-key).
 */
const deletedKey: Partial<Record<NotificationType, NotificationInclude>> = {
  question_deleted: "question",
  article_deleted: "article",
  answer_deleted: "answer",
  comment_deleted: "comment",
};

/**
 * The record: every column but content_deleted, which only the *_deleted kinds carry, as the deleted item's record
 * (delete_time for administrators only, via presentRecord), and webhook_id, which only webhook_disabled carries; the
 * other kinds have no such keys (docs/notifications.md).
 */
export const presentNotification =
  (view: View) =>
  (row: NotificationRow, relationships: Relationships | undefined): Notification => {
    const { content_deleted, webhook_id, ...columns } = row;
    const deleted = deletedKey[row.type as NotificationType];
    const snapshot =
      deleted && content_deleted && presentRecord(JSON.parse(content_deleted) as { delete_time: number }, view);
    const shown =
      relationships && Object.fromEntries(Object.entries(relationships).filter(([name]) => name !== deleted));
    return {
      ...columns,
      ...(row.type === "webhook_disabled" && { webhook_id }),
      ...(snapshot && { content_deleted: snapshot }),
      ...(shown && { relationships: shown }),
    } as Notification;
  };

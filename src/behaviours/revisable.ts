/**
 * Edit history (docs/revisions.md), written once for every revisable kind of the entity model (domain/entities.ts).
 * Revision 1 is the item as created; each edit that changes something makes the next one and keeps, of the fields
 * it changed, what they held before it (a row of `revisions`), written by the edit's own batch from the item's row as
 * it is at that point, so two edits can never keep the same text. What a revision held is then the newest value
 * kept by a later revision, or the item's own: the list and a restore read it that way, in SQL.
 *
 * Storage is bounded per item: the newest revisions are kept while their texts fit in {@link KEPT_BYTES}, and at
 * most {@link KEPT_REVISIONS} (the newest one always).
 */
import { and, desc, eq, gt, type SQL, sql } from "drizzle-orm";
import { alias, type SQLiteColumn } from "drizzle-orm/sqlite-core";
import { ApiError } from "../core/errors";
import type { BatchStatement, Db } from "../db/client";
import { topicables, topics } from "../db/schema";
import { revisions } from "../db/schema-bookmarks-revisions";
import { type Entity, type EntityWith, entitiesWith } from "../domain/entities";
import type { ListSource } from "./content/repo";
import { isLive } from "./live";
import { mentionSource, selectMembers, selectMentionable } from "./mentionable";

export type RevisionTarget = EntityWith<"revisable">;

export const revisionTargets = entitiesWith("revisable");

/** docs/revisions.md#storage: at most this many revisions of an item are kept, the newest ones. */
export const KEPT_REVISIONS = 50;
/** docs/revisions.md#storage: the texts the kept revisions of an item hold, in UTF-8 bytes, beyond the newest one. */
export const KEPT_BYTES = 1024 * 1024;

/** The fields an edit may change and a revision keeps. */
export const REVISED_FIELDS = ["title", "content_markdown", "topic_ids"] as const;
export type RevisedField = (typeof REVISED_FIELDS)[number];

/**
 * What an edit sets, each field only if it sends it: the new title, markdown, and set of live topics; and the members
 * the content it replaces mentioned, kept beside that content (docs/mentions.md#edits-and-restores).
 */
export type Revised = Partial<{ title: string; content_markdown: string; topic_ids: number[]; mentioned: number[] }>;

/** The fields a kind keeps: a title if it has one, its content, its topics if it is filed under any. */
const fieldsOf = (target: RevisionTarget): RevisedField[] =>
  REVISED_FIELDS.filter((field) =>
    field === "topic_ids" ? Boolean((target as Entity).topicable) : target.columns[field] !== undefined,
  );

/** A later revision of the same item, in a subquery on a revision row. */
const later = alias(revisions, "later");

const ofItem = (target: RevisionTarget, id: number, table: typeof revisions | typeof later = revisions) =>
  and(eq(table.revisable_type, target.type), eq(table.revisable_id, id));

/** An item's live topics' ids, ascending, as JSON text: what `revisions.topic_ids` holds. */
function liveTopicIds(target: RevisionTarget, id: SQLiteColumn | number): SQL {
  return sql`(SELECT json_group_array(topic_id) FROM (SELECT ${topicables.topic_id} AS topic_id FROM ${topicables}
    JOIN ${topics} ON ${topics.topic_id} = ${topicables.topic_id} AND ${topics.delete_time} = 0
    WHERE ${topicables.topicable_type} = ${target.type} AND ${topicables.topicable_id} = ${id}
    ORDER BY ${topicables.topic_id}))`;
}

/** The item's own value of a field, read from its row (`id`: a column of the row, or the id). */
function currentValue(target: RevisionTarget, field: RevisedField, id: SQLiteColumn | number): SQL {
  if (field === "topic_ids") return liveTopicIds(target, id);
  const column = target.columns[field] as SQLiteColumn;
  return typeof id === "number"
    ? sql`(SELECT ${column} FROM ${target.table} WHERE ${eq(target.id, id)})`
    : sql`${column}`;
}

/** A set of topic ids as a revision keeps it. */
const topicIdsText = (ids: number[]) => JSON.stringify([...ids].sort((a, b) => a - b));

/**
 * The statements that keep what an edit replaces, for its batch BEFORE the statements that change the item: the
 * new revision (nothing when no field sent differs from the item's), then the pruning of the oldest beyond the
 * bounds.
 */
export function recordRevision(
  db: Db,
  target: RevisionTarget,
  id: number,
  editorId: number,
  next: Revised,
  time: number,
): BatchStatement[] {
  const kept = fieldsOf(target).map((field) => {
    const value = next[field];
    if (value === undefined) return sql`NULL AS ${sql.identifier(field)}`;
    const now = currentValue(target, field, target.id);
    const sent = typeof value === "string" ? value : topicIdsText(value);
    return sql`CASE WHEN ${now} IS NOT ${sent} THEN ${now} END AS ${sql.identifier(field)}`;
  });
  const names = fieldsOf(target).map((field) => sql.identifier(field));
  const column = (field: RevisedField) => (fieldsOf(target).includes(field) ? sql.identifier(field) : sql`NULL`);
  const number = sql`(SELECT COALESCE(MAX(${revisions.revision}), 1) + 1 FROM ${revisions}
    WHERE ${ofItem(target, id)})`;
  const mentioned = sql`CASE WHEN "content_markdown" IS NOT NULL THEN ${JSON.stringify(next.mentioned ?? [])} END`;
  const insert = db.insert(revisions).select(
    sql`SELECT ${target.type}, ${id}, ${number}, ${editorId}, ${column("title")}, ${column("content_markdown")},
      ${column("topic_ids")}, ${time}, ${mentioned}
      FROM (SELECT ${sql.join(kept, sql`, `)} FROM ${target.table} WHERE ${eq(target.id, id)})
      WHERE ${sql.join(
        names.map((name) => sql`${name} IS NOT NULL`),
        sql` OR `,
      )}`,
  );
  return [insert, prune(db, target, id)];
}

/**
 * Deletes an item's revisions older than the newest ones kept: while their texts (UTF-8 bytes) add up to at most
 * {@link KEPT_BYTES}, and at most {@link KEPT_REVISIONS}; the newest revision is always kept.
 */
function prune(db: Db, target: RevisionTarget, id: number): BatchStatement {
  const bytes = sql`length(CAST(COALESCE(${revisions.title}, '') || COALESCE(${revisions.content_markdown}, '')
    || COALESCE(${revisions.topic_ids}, '') || COALESCE(${revisions.mention_ids}, '') AS BLOB))`;
  const newestFirst = sql`OVER (ORDER BY ${revisions.revision} DESC)`;
  const oldestKept = sql`(SELECT MIN(revision) FROM (
      SELECT ${revisions.revision} AS revision, SUM(${bytes}) ${newestFirst} AS running,
        ROW_NUMBER() ${newestFirst} AS n
      FROM ${revisions} WHERE ${ofItem(target, id)})
    WHERE n = 1 OR (n <= ${KEPT_REVISIONS} AND running <= ${KEPT_BYTES}))`;
  return db.delete(revisions).where(and(ofItem(target, id), sql`${revisions.revision} < ${oldestKept}`));
}

/**
 * What a field held at a revision (a number, or a revision row's column) if something changed it since: the value
 * the first later revision that changed it kept; NULL when none did, the item's own value then being the answer.
 */
function keptAfter(
  target: RevisionTarget,
  id: number,
  field: RevisedField | "mention_ids",
  revision: number | SQLiteColumn,
): SQL {
  const column = later[field];
  const newer = and(ofItem(target, id, later), gt(later.revision, revision));
  return sql`(SELECT ${column} FROM ${revisions} AS ${sql.identifier("later")} WHERE ${newer}
    AND ${column} IS NOT NULL ORDER BY ${later.revision} LIMIT 1)`;
}

/**
 * An item's revisions as a list source, newest first. Each row holds the values its edit replaced (NULL for a field
 * it left alone) and, as `<field>_after`, what the edit made of them: the value kept by the next revision that
 * changed the field, else the item's own.
 */
export function revisionsSource(target: RevisionTarget, id: number): ListSource {
  const after = Object.fromEntries(
    fieldsOf(target).map((field) => {
      const value = sql`CASE WHEN ${revisions[field]} IS NULL THEN NULL
        ELSE COALESCE(${keptAfter(target, id, field, revisions.revision)}, ${currentValue(target, field, id)}) END`;
      return [`${field}_after`, value.as(`${field}_after`)];
    }),
  );
  return {
    table: revisions,
    id: revisions.revision,
    columns: {
      revision: revisions.revision,
      user_id: revisions.user_id,
      create_time: revisions.create_time,
      ...Object.fromEntries(fieldsOf(target).map((field) => [field, revisions[field]])),
      ...after,
    },
    where: ofItem(target, id),
    orderBy: [desc(revisions.revision)],
  };
}

/** What a restore reads of the revision asked for: the kept range, and each field's value there if it differs. */
function selectRevisionState(db: Db, target: RevisionTarget, id: number, revision: number) {
  const range = (aggregate: "MIN" | "MAX") =>
    sql<number | null>`(SELECT ${sql.raw(aggregate)}(${revisions.revision}) FROM ${revisions}
      WHERE ${ofItem(target, id)})`;
  const fields = Object.fromEntries(
    fieldsOf(target).map((field) => {
      const value = keptAfter(target, id, field, revision);
      // Topics that have left the live ones since are not restored.
      const restored =
        field === "topic_ids"
          ? sql`(SELECT json_group_array(value) FROM json_each(${value})
              JOIN ${topics} ON ${topics.topic_id} = value AND ${topics.delete_time} = 0)`
          : value;
      return [field, sql<string | null>`${restored}`];
    }),
  ) as Record<RevisedField, SQL<string | null>>;
  return db
    .select({ oldest: range("MIN"), newest: range("MAX"), ...fields })
    .from(target.table)
    .where(eq(target.id, id));
}

type RevisionState = Partial<Record<RevisedField, string | null>> & {
  oldest: number | null;
  newest: number | null;
};

/**
 * The edit that restores a revision: its values of the fields that differ from the item's now. REVISION_NOT_FOUND
 * for a revision that is not an earlier one, or no longer kept (the oldest kept revision's edit still knows what
 * the one before it held, so that one can be restored too). Topics are restored when some of them are still live.
 */
function restoredFields(state: RevisionState | undefined, revision: number): Revised {
  const current = state?.newest ?? 1;
  const earliest = (state?.oldest ?? current + 1) - 1;
  if (!state || revision >= current || revision < earliest) throw new ApiError("REVISION_NOT_FOUND");
  const restored: Revised = {};
  if (typeof state.title === "string") restored.title = state.title;
  if (typeof state.content_markdown === "string") restored.content_markdown = state.content_markdown;
  const topicIds = typeof state.topic_ids === "string" ? (JSON.parse(state.topic_ids) as number[]) : [];
  if (topicIds.length > 0) restored.topic_ids = topicIds;
  return restored;
}

/** Where an edit's fields come from: the request's body, or a revision it restores (docs/revisions.md#restore). */
export type EditSource = { body: unknown } | { revision: number };

/**
 * What an edit's first batch reads besides the item: for a body, the members its content may mention; for a restore,
 * the revision's state and the members its content mentioned, whose mentions it renders again as they were
 * (docs/mentions.md#edits-and-restores).
 */
export function editRead(db: Db, target: RevisionTarget, id: number, source: EditSource) {
  if ("body" in source) return { state: undefined, members: selectMentionable(db, mentionSource(source.body)) };
  const ids = sql`(SELECT value FROM json_each(${keptAfter(target, id, "mention_ids", source.revision)}))`;
  return { state: selectRevisionState(db, target, id, source.revision), members: selectMembers(db, ids) };
}

/** The body an edit validates: the request's, or the fields a revision restores (read by {@link editRead}). */
export const editedBody = (source: EditSource, state: RevisionState[] | undefined): unknown =>
  "body" in source ? source.body : restoredFields(state?.[0], source.revision);

/** The item, if the reader may read it: live, or trashed for administrators (docs/revisions.md#reading). */
export const selectReadable = (db: Db, target: RevisionTarget, id: number, withTrashed: boolean) =>
  db
    .select({ id: target.id })
    .from(target.table)
    .where(withTrashed ? eq(target.id, id) : isLive(target, id));

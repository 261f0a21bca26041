/**
 * Counters by one rule (docs/counters.md; docs/decisions.md#counters-count-what-a-reader-sees): every
 * stored counter is set to a COUNT(*) of the rows it counts, by an UPDATE in the same batch as the write that
 * changes them. Creates, trash, untrash, delete, votes, follows and notifications all recount through
 * {@link recount}, so concurrent or repeated requests can never double count, a hard delete of a trashed row
 * cannot decrement twice, and no counter goes below 0. Each counter is derived from the entity model.
 */
import { and, count, eq, getTableColumns, ne, or, type SQL, sql } from "drizzle-orm";
import { alias, type SQLiteColumn, type SQLiteTable } from "drizzle-orm/sqlite-core";
import type { BatchStatement, Db } from "../db/client";
import { allOf, equalsUnindexed } from "../db/conditions";
import { comments, conversation_members, follows, messages, notifications, votes } from "../db/schema";
import {
  type Entity,
  type EntityWith,
  entities,
  type FollowableKind,
  type Kind,
  kindOf,
  kindsWith,
  type VotableKind,
} from "../domain/entities";
import { type IdSource, inIds } from "./id-source";
import { isLive } from "./live";

/** A counter: which rows it counts for each owner row, and the column(s) it sets. */
export interface Counter {
  /** The kind whose rows hold the counter. */
  owner: Entity;
  /** Each column set, with its aggregate over the counted rows. */
  columns: Record<string, SQL>;
  rows: SQLiteTable;
  /** The column of the counted rows naming their owner. */
  by: SQLiteColumn;
  /** The column of the counted rows naming the item whose writes move the counter: their own id, or a link's. */
  item: SQLiteColumn;
  /** Which of the rows are of this counter's type (a link's or a comment's target type): the column and its value. */
  of?: [SQLiteColumn, string];
  /** Only these rows count (live ones, unread ones). */
  counts?: SQL;
  /** A link row counts only while the item it points at is live. */
  join?: { table: SQLiteTable; on: SQL };
}

/** The rows a counter counts for the owner row being updated: COUNT(*) unless the column says otherwise. */
function tally(db: Db, counter: Counter, aggregate: SQL): SQL {
  const query = db.select({ n: sql<number>`${aggregate}` }).from(counter.rows);
  const joined = counter.join ? query.innerJoin(counter.join.table, counter.join.on) : query;
  // A select inside sql`` renders as a parenthesised scalar subquery.
  const of = counter.of && eq(...counter.of);
  return sql`${joined.where(and(eq(counter.by, counter.owner.id), of, counter.counts))}`;
}

/** The ids of the owner rows to recount: a value, a list, or a subquery. */
export type Owners = number | IdSource;

/** Sets the counter of each owner row among `owners` from the rows as they are at this point of the batch. */
export function recount(db: Db, counter: Counter, owners: Owners): BatchStatement {
  const values = Object.fromEntries(
    Object.entries(counter.columns).map(([column, aggregate]) => [column, tally(db, counter, aggregate)]),
  );
  const which = typeof owners === "number" ? eq(counter.owner.id, owners) : inIds(counter.owner.id, owners);
  return db.update(counter.owner.table).set(values).where(which);
}

/**
 * Recounts a counter for the owner rows the items `ids` feed, found through the counted rows themselves (live or
 * not, so a trash recounts the owners of what it hides).
 */
export function recountOwnersOf(db: Db, counter: Counter, ids: IdSource): BatchStatement {
  // Rows picked by their primary key keep the type off any index (docs/data-model.md#indexes); a link's item is no
  // key, and the index on (type, item) is the one that finds it.
  const of = counter.of && (counter.item.primary ? equalsUnindexed(...counter.of) : eq(...counter.of));
  const owners = db
    .select({ id: counter.by })
    .from(counter.rows)
    .$dynamic()
    .where(and(inIds(counter.item, ids), of));
  return recount(db, counter, owners);
}

const counting = (column: SQLiteColumn) => ({
  owner: entities[kindOf(column.table)],
  columns: { [column.name]: count() },
});

/**
 * A counter over a kind's own live rows, each naming its owner in `by` (questions.user_id, answers.question_id,
 * comments.commentable_id ...); `type` is the value of the kind's type column when the owner is polymorphic.
 */
function ownRows(counter: SQLiteColumn, kind: Entity, by: SQLiteColumn, type?: [SQLiteColumn, Kind]): Counter {
  const base = counting(counter);
  // A comment's replies are comments too: counting rows of the owner's own table needs another name for them.
  const rows = base.owner.table === kind.table ? alias(kind.table, "counted") : kind.table;
  const column = (c: SQLiteColumn) =>
    rows === kind.table ? c : (rows as unknown as Record<string, SQLiteColumn>)[c.name];
  const trash = kind.trash && column(kind.trash);
  return {
    ...base,
    rows,
    by: column(by) as SQLiteColumn,
    item: column(kind.id) as SQLiteColumn,
    of: type && [column(type[0]) as SQLiteColumn, type[1]],
    counts: trash ? eq(trash, 0) : undefined,
  };
}

/** A link table between owners and items: follows (a user and what they follow). */
interface Link {
  table: SQLiteTable;
  owner: SQLiteColumn;
  item: SQLiteColumn;
  type: SQLiteColumn;
}

const followLinks: Link = {
  table: follows,
  owner: follows.user_id,
  item: follows.followable_id,
  type: follows.followable_type,
};
/** A counter over link rows to live items of one kind: a follower's follows of a type. */
function linkRows(counter: SQLiteColumn, link: Link, kind: Entity): Counter {
  return {
    ...counting(counter),
    rows: link.table,
    by: link.owner,
    item: link.item,
    of: [link.type, kind.type],
    join: kind.trash ? { table: kind.table, on: isLive(kind, link.item) } : undefined,
  };
}

/** The follower's counter of what they follow of a kind (trashed targets left out, as their lists leave them out). */
export const followingCounter = (kind: EntityWith<"followable">) =>
  linkRows(kind.followable.following, followLinks, kind);

/** Every counter elsewhere that the live rows of a kind feed. */
function fedBy(kind: Entity): Counter[] {
  const fed = (kind.feeds ?? []).map((feed) => ownRows(feed.counter, kind, feed.by));
  if (kind.followable) fed.push(followingCounter(kind as EntityWith<"followable">));
  // A topic's counters are kept by triggers on its links (drizzle/0008, docs/counters.md#topic-counters).
  // Comments feed the counter of whatever they are on.
  if (kind === entities.comment) {
    for (const target of kindsWith("commentable")) {
      const { commentable } = entities[target];
      fed.push(ownRows(commentable.counter, kind, comments.commentable_id, [comments.commentable_type, target]));
    }
  }
  return fed;
}

const countersFed = Object.fromEntries(
  Object.values(entities).map((kind: Entity) => [kind.type, fedBy(kind)]),
) as Record<Kind, Counter[]>;

/**
 * Recounts every counter the rows `ids` of a kind feed, for exactly the owners those rows name: after they are
 * created, trashed, untrashed, or (put in the trash first) deleted.
 */
export function recountStatements(db: Db, kind: Kind, ids: IdSource): BatchStatement[] {
  return countersFed[kind].map((counter) => recountOwnersOf(db, counter, ids));
}

/** A followable kind's `follower_count`: every follow row of it, whatever the follower's state. */
export const followerCounter = (kind: EntityWith<"followable">): Counter => ({
  owner: kind,
  columns: { follower_count: count() },
  rows: follows,
  by: follows.followable_id,
  item: follows.followable_id,
  of: [follows.followable_type, kind.type satisfies FollowableKind],
});

const up = sql`count(*) filter (where ${eq(votes.type, "up")})`;
const down = sql`count(*) filter (where ${eq(votes.type, "down")})`;

/** A votable kind's three counters; `vote_count` is up − down and may be negative. */
export const voteCounter = (kind: EntityWith<"votable">): Counter => ({
  owner: kind,
  columns: { vote_count: sql`${up} - ${down}`, vote_up_count: up, vote_down_count: down },
  rows: votes,
  by: votes.votable_id,
  item: votes.votable_id,
  of: [votes.votable_type, kind.type satisfies VotableKind],
});

/** A user's `notification_unread`. */
export const unreadCounter: Counter = {
  owner: entities.user,
  columns: { notification_unread: count() },
  rows: notifications,
  by: notifications.receiver_id,
  item: notifications.notification_id,
  counts: eq(notifications.read_time, 0),
};

/**
 * A user's `inbox_unread`: the unread messages addressed to them that are still in their inbox, i.e. newer than what
 * they removed of that conversation (docs/messages.md#unread-counts). Recounted by every send, read-mark, removal and
 * withdrawal in the same batch, from the rows as that batch leaves them, so concurrent writes cannot make it drift.
 */
export const inboxUnreadCounter: Counter = {
  owner: entities.user,
  columns: { inbox_unread: count() },
  rows: messages,
  by: messages.receiver_id,
  item: messages.message_id,
  counts: eq(messages.read_time, 0),
  join: {
    table: conversation_members,
    on: allOf(
      eq(conversation_members.user_id, messages.receiver_id),
      eq(conversation_members.other_user_id, messages.sender_id),
      sql`${messages.message_id} > ${conversation_members.clear_message_id}`,
    ),
  },
};

/**
 * Every counter kept by recounting (a topic's question and article counts are kept by triggers instead:
 * docs/counters.md#topic-counters), for recounting a whole database after an import (docs/migrating-from-mdclub.md).
 */
export function everyCounter(): Counter[] {
  return [
    ...Object.values(countersFed).flat(),
    ...kindsWith("followable").map((kind) => followerCounter(entities[kind])),
    ...kindsWith("votable").map((kind) => voteCounter(entities[kind])),
    unreadCounter,
    inboxUnreadCounter,
  ];
}

/** The number of owner rows whose stored value of the counter differs from what it counts. */
export function countDiffering(db: Db, counter: Counter) {
  const stored = getTableColumns(counter.owner.table);
  const differs = Object.entries(counter.columns).map(([column, aggregate]) =>
    ne(stored[column] as SQLiteColumn, tally(db, counter, aggregate)),
  );
  return db
    .select({ n: count() })
    .from(counter.owner.table)
    .where(or(...differs));
}

/** Recounts the counter on every row of its owner's table. */
export const recountEvery = (db: Db, counter: Counter): BatchStatement =>
  recount(db, counter, db.select({ id: counter.owner.id }).from(counter.owner.table).$dynamic());

/**
 * The event catalogue (docs/events.md#the-catalogue): every event type, declared once with its audience and how its
 * data is built, by the API's own presenters, as a reader with that audience's rights would read it. The socket
 * fan-out, the webhook filter, the webhook schema's list of types and the tests' `describe.each` all derive from it.
 *
 * Services hand each committed write's subject to the outbox (outbox.ts); after the answer, `load` reads what the
 * event says in one background batch (publish.ts), on the primary, so it sees the write. An event's data is the item
 * as it is then: one trashed or deleted meanwhile is not sent where only live items go.
 */
import { type ContentRecords, itemsByIds, recordsByIds } from "../../behaviours/content/page";
import { byId } from "../../behaviours/content/repo";
import type { VoteCounts } from "../../behaviours/votable";
import { type BatchRead, type Db, readAs } from "../../db/client";
import { entities, type FollowableKind, type TrashableKind, type VotableKind } from "../../domain/entities";
import type { View } from "../../http/view";
import { messageRecords } from "../inbox/records";
import { messagesById } from "../inbox/repo";
import { recordKinds } from "../lifecycle/records";
import { notificationRelation, presentNotification } from "../notifications/present";
import { notificationsById } from "../notifications/repo";
import type { NotificationInclude } from "../notifications/schema";
import type { Report } from "../reports/schema";
import { userRecords } from "../users/records";
import { usersById } from "../users/repo";
import { CHANNEL_KINDS, type ChannelKind, channelOf } from "./channels";
import { type Notified, notifiedBy, pageChannels, type Start, unreadCounters } from "./repo";

/** One event to send: its data and, for the audiences that need them, its channels and members. */
export interface Loaded {
  data: Record<string, unknown>;
  /** Public channels (`question:12`) whose sockets receive it. */
  channels?: string[];
  /** Members whose own streams receive it. */
  members?: number[];
}

/**
 * Who may receive an event: the sockets of public channels (anyone), a member's own stream (that member alone), the
 * administrators' webhook endpoints (never a member's private data: no restricted user field, notification, unread
 * count or message).
 */
type Audience = "channels" | "members" | "webhooks";

interface Entry<S> {
  audience: readonly Audience[];
  /** The statements of the background batch and the events they make; a subject may make none, or several. */
  load(db: Db, view: View, subject: S): BatchRead<Loaded[]>;
}

const entry = <S>(audience: readonly Audience[], load: Entry<S>["load"]): Entry<S> => ({ audience, load });

/** The events of a subject that says all they carry: nothing to read. */
const unread = (loaded: Loaded[]): BatchRead<Loaded[]> => readAs(null, () => loaded);

// ---- content: questions, answers, articles, comments, topics -------------------------------------------------------

/** Items by id (new, edited, untrashed). */
export interface Items {
  ids: number[];
}

/** Items trashed or deleted, as the write read them before: every column of their kind. */
export interface Removed {
  rows: Record<string, unknown>[];
}

/** What an item's record carries on the wire: the includes of the public record that are the same for everyone. */
const SHOWN: Record<TrashableKind, readonly string[]> = {
  question: ["user", "topics"],
  answer: ["user"],
  article: ["user", "topics"],
  comment: ["user"],
  topic: [],
};

const isChannelKind = (type: string): type is ChannelKind => (CHANNEL_KINDS as readonly string[]).includes(type);

/** The channel of an item's own page, without a read: questions, articles and topics. */
const ownChannel = (type: string, id: number): string[] => (isChannelKind(type) ? [channelOf(type, id)] : []);

/** A live item's events: its public record, to its page and its topics' pages, and to webhooks. */
function shownItems(kind: TrashableKind): Entry<Items> {
  const entity = entities[kind];
  const records = recordKinds[kind] as ContentRecords<Record<string, unknown>, Record<string, unknown>, string>;
  return entry(["channels", "webhooks"], (db, view, { ids }) =>
    readAs(
      {
        records: recordsByIds(db, view, records, byId(entity, false), ids, new Set(SHOWN[kind])),
        // A question, article or topic is its own page (read live just above); answers and comments walk up to theirs.
        pages: isChannelKind(kind)
          ? null
          : pageChannels(
              db,
              ids.map((id) => ({ type: kind, id })),
            ),
      },
      ({ records, pages }) =>
        records.map((record) => {
          const id = record[entity.id.name] as number;
          const topics = ((record.relationships as { topics?: { topic_id: number }[] } | undefined)?.topics ?? []).map(
            (topic) => channelOf("topic", topic.topic_id),
          );
          const page = pages ? pages.get(`${kind}:${id}`) : channelOf(kind as ChannelKind, id);
          return { data: record, channels: [...(page ? [page] : []), ...topics] };
        }),
    ),
  );
}

/** The fields a removed item's event carries: its id and where it hung (the ids a deletion notice carries). */
const refFields = (kind: TrashableKind): string[] => {
  const entity = entities[kind];
  const carried = "notifiedOnDeletion" in entity ? entity.notifiedOnDeletion.carries : [];
  return [...new Set([entity.id.name, ...carried])];
};

/**
 * What a removed item's page is, walked up from where it hung (its row may be gone): a question's for an answer, the
 * commented item's for a comment; questions, articles and topics are their own page.
 */
function parentOf(kind: TrashableKind, row: Record<string, unknown>): Start | null {
  if (kind === "answer") return { type: "question", id: row.question_id as number };
  if (kind === "comment") return { type: row.commentable_type as string, id: row.commentable_id as number };
  return null;
}

/** A trashed or deleted item's events: its ids, to its page (or the page it was on) and to webhooks. */
function removedItems(kind: TrashableKind): Entry<Removed> {
  const fields = refFields(kind);
  const id = entities[kind].id.name;
  return entry(["channels", "webhooks"], (db, _view, { rows }) => {
    const starts = rows.map((row) => parentOf(kind, row)).filter((start) => start !== null);
    return readAs(starts.length ? pageChannels(db, starts) : null, (pages) =>
      rows.map((row) => {
        const parent = parentOf(kind, row);
        const page = parent ? pages?.get(`${parent.type}:${parent.id}`) : undefined;
        return {
          data: Object.fromEntries(fields.map((field) => [field, row[field]])),
          channels: parent ? (page ? [page] : []) : ownChannel(kind, row[id] as number),
        };
      }),
    );
  });
}

function contentEvents<K extends TrashableKind>(kind: K) {
  const shown = shownItems(kind);
  const removed = removedItems(kind);
  return {
    [`${kind}.created`]: shown,
    [`${kind}.updated`]: shown,
    [`${kind}.trashed`]: removed,
    [`${kind}.untrashed`]: shown,
    [`${kind}.deleted`]: removed,
  } as { [A in "created" | "updated" | "untrashed" as `${K}.${A}`]: Entry<Items> } & {
    [A in "trashed" | "deleted" as `${K}.${A}`]: Entry<Removed>;
  };
}

// ---- votes and follows --------------------------------------------------------------------------------------------

type VoteSubject = { votable_type: VotableKind; votable_id: number } & VoteCounts;

interface FollowSubject {
  followable_type: FollowableKind;
  followable_id: number;
  /** The follower. */
  user_id: number;
  follower_count: number;
}

/** The new counts, to the page the item is on (if live) and to webhooks. */
const voteUpdated = entry<VoteSubject>(["channels", "webhooks"], (db, _view, subject) =>
  readAs(pageChannels(db, [{ type: subject.votable_type, id: subject.votable_id }]), (pages) => {
    const page = pages.get(`${subject.votable_type}:${subject.votable_id}`);
    return [{ data: { ...subject }, channels: page ? [page] : [] }];
  }),
);

/** A follow or unfollow, with the new follower count: to the followed page (not a user's) and to webhooks. */
const followChanged = entry<FollowSubject>(["channels", "webhooks"], (_db, _view, subject) =>
  unread([{ data: { ...subject }, channels: ownChannel(subject.followable_type, subject.followable_id) }]),
);

// ---- a member's own stream: notifications and unread counts -------------------------------------------------------

/** The includes a live notification comes with: what a list of notifications needs to show it. */
const NOTIFICATION_SHOWN = new Set<NotificationInclude>([
  "sender",
  "question",
  "article",
  "answer",
  "comment",
  "reply",
]);

/** Each notification a write created, as GET /api/notifications shows it, to its receiver alone. */
const notificationCreated = entry<Notified>(["members"], (db, view, key) =>
  readAs(
    itemsByIds(
      db,
      notificationsById,
      notifiedBy(db, key),
      notificationRelation(db, view, NOTIFICATION_SHOWN),
      presentNotification(view),
    ),
    (records) => records.map((record) => ({ data: record, members: [record.receiver_id] })),
  ),
);

/** Whose unread counts changed: users by id, or the receivers of notifications a write created. */
type UnreadSubject = { users: number[] } | { notified: Notified };

/** A member's `notification_unread` and `inbox_unread` (restricted fields of their own record), to them alone. */
const unreadUpdated = entry<UnreadSubject>(["members"], (db, _view, subject) =>
  readAs(unreadCounters(db, "users" in subject ? subject.users : subject.notified), (rows) =>
    rows.map(({ user_id, ...counters }) => ({ data: counters, members: [user_id] })),
  ),
);

// ---- private messages: their two members alone --------------------------------------------------------------------

/** The include a live message comes with: who sent it, as a conversation shows it. */
const MESSAGE_SHOWN = new Set(["sender"] as const);

/**
 * A new message, as GET /api/inbox/{user_id} shows it with its sender: to its receiver's sockets and its sender's
 * (their other pages stay in step). Never to a channel or a webhook (docs/events.md#private-messages).
 */
const messageCreated = entry<Items>(["members"], (db, view, { ids }) =>
  readAs(recordsByIds(db, view, messageRecords, messagesById, ids, MESSAGE_SHOWN), (records) =>
    records.map((record) => ({ data: { ...record }, members: [record.sender_id, record.receiver_id] })),
  ),
);

// ---- moderation and accounts --------------------------------------------------------------------------------------

/** A new report, as the Report record without relationships: to webhooks only (reports are for administrators). */
const reportCreated = entry<{ report: Omit<Report, "relationships"> }>(["webhooks"], (_db, _view, { report }) =>
  unread([{ data: { ...report } }]),
);

/** Users as anyone reads them (no restricted field): to webhooks. */
const usersShown = entry<Items>(["webhooks"], (db, view, { ids }) =>
  readAs(recordsByIds(db, view, userRecords, usersById, ids, new Set()), (records) =>
    records.map((record) => ({ data: record as Record<string, unknown> })),
  ),
);

export const catalogue = {
  ...contentEvents("question"),
  ...contentEvents("answer"),
  ...contentEvents("article"),
  ...contentEvents("comment"),
  ...contentEvents("topic"),
  "vote.updated": voteUpdated,
  "follow.created": followChanged,
  "follow.deleted": followChanged,
  "notification.created": notificationCreated,
  "unread.updated": unreadUpdated,
  "message.created": messageCreated,
  "report.created": reportCreated,
  "user.created": usersShown,
  "user.updated": usersShown,
  "user.disabled": usersShown,
};

export type EventType = keyof typeof catalogue;

/** What the write that emits an event of type T hands over. */
export type Subject<T extends EventType> = Parameters<(typeof catalogue)[T]["load"]>[2];

export const EVENT_TYPES = Object.keys(catalogue) as EventType[];

/** The types a webhook may subscribe to: those whose audience includes webhooks. */
export const WEBHOOK_EVENT_TYPES = EVENT_TYPES.filter((type) => catalogue[type].audience.includes("webhooks"));

/** Any entry, its subject widened: how the publisher reads the catalogue. */
export const entryOf = (type: EventType) => catalogue[type] as unknown as Entry<unknown>;

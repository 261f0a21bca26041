/**
 * The entity model: the seven kinds of row the API serves, each as one table of facts (where its rows live, how a
 * path and an error name it, what it counts elsewhere, how it is summarised) and the capabilities it has. Every
 * per-kind registry and every union of kind names is derived from here, so adding a kind, or a capability to a
 * kind, is one edit in this file; the checks at the end hold it to the schema's enums.
 */
import { getTableColumns } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { ErrorName } from "../core/errors";
import {
  answers,
  articles,
  comments,
  type follows,
  type images,
  messages,
  questions,
  type reports,
  type topicables,
  topics,
  users,
  type votes,
} from "../db/schema";
import type { bookmarks, revisions } from "../db/schema-bookmarks-revisions";
import { type ImageSize, TOPIC_COVER_SIZES } from "../lib/storage";

/** A counter on another row that a kind's live rows feed, found through a column of those rows (docs/counters.md). */
export interface Feed {
  counter: SQLiteColumn;
  /** The column of the counting kind's rows that names the row holding the counter. */
  by: SQLiteColumn;
}

/**
 * A column of another kind's rows that names one row of this kind (a question's accepted answer), found through a
 * column of this kind's rows (the answer's question_id); it goes back to 0 when the row it names leaves the live rows
 * (trash, delete: docs/deletion.md#cascade).
 */
export interface Reference {
  column: SQLiteColumn;
  /** The column of this kind's rows naming the row that holds the reference. */
  by: SQLiteColumn;
}

/** What is stated about a kind. `type` and `columns` are added from its name and table. */
export interface Facts {
  table: SQLiteTable;
  id: SQLiteColumn;
  /** The author's user_id; users and topics have none. */
  author?: SQLiteColumn;
  /** `delete_time` > 0 puts a row in the trash, hidden from everyone but administrators; users have none. */
  trash?: SQLiteColumn;
  notFound: ErrorName;
  /** The path parameter naming one row, as in `/questions/{question_id}`. */
  param: string;
  /** The resource's path segment, also its OpenAPI tag. */
  resource: string;
  /** The columns of its summary (docs/conventions.md#object-shapes), as reports and notifications include it. */
  summary?: readonly string[];
  /** Counters its live rows feed through a column of their own; those of its capabilities are derived from them. */
  feeds?: readonly Feed[];
  /** References to its rows from other rows, cleared when a row is trashed or deleted. */
  referencedBy?: readonly Reference[];
  /** `vote_count`, `vote_up_count` and `vote_down_count`, from `votes`. */
  votable?: true;
  /** Its `follower_count` from `follows`, and the counter of the follower that counts what they follow of it. */
  followable?: { following: SQLiteColumn };
  /** The counter its live comments feed, and the path segment listing them (a comment's are its replies). */
  commentable?: { counter: SQLiteColumn; list: "comments" | "replies" };
  /** Filed under topics through `topicables`; its live rows feed the topic's counter. */
  topicable?: { counter: SQLiteColumn };
  reportable?: true;
  /** Members bookmark it (`bookmarks`), privately; a hard delete removes the bookmarks with it. */
  bookmarkable?: true;
  /**
   * Every edit keeps what it replaced (`revisions`): its title if it has one, its content, its topics if it is filed
   * under topics; a hard delete removes its history with it.
   */
  revisable?: true;
  /** Uploaded images its markdown uses are linked to it (`images.item_type`) and deleted with it. */
  illustrated?: true;
  /** Image sets in R2 named by a column of its rows (its cover), removed once a hard delete of the row commits. */
  files?: { column: SQLiteColumn; sizes: readonly ImageSize[] };
  /** `{type}_deleted` goes to the author when someone else trashes or deletes it, naming these fields of the row. */
  notifiedOnDeletion?: { carries: readonly string[] };
  /**
   * A row is seen only by the users these columns name (a private message's two members), and by administrators only
   * once someone reported it (docs/messages.md#privacy); anyone else is told it does not exist.
   */
  parties?: readonly SQLiteColumn[];
}

type Model<F> = {
  [K in keyof F & string]: F[K] & {
    type: K;
    columns: F[K] extends { table: infer T extends SQLiteTable } ? T["_"]["columns"] : never;
  };
};

const model = <const F extends Record<string, Facts>>(facts: F): Model<F> =>
  Object.fromEntries(
    Object.entries(facts).map(([type, fact]) => [type, { ...fact, type, columns: getTableColumns(fact.table) }]),
  ) as Model<F>;

export const entities = model({
  question: {
    table: questions,
    id: questions.question_id,
    author: questions.user_id,
    trash: questions.delete_time,
    notFound: "QUESTION_NOT_FOUND",
    param: "question_id",
    resource: "questions",
    summary: ["question_id", "title", "create_time", "update_time"],
    feeds: [{ counter: users.question_count, by: questions.user_id }],
    votable: true,
    followable: { following: users.following_question_count },
    commentable: { counter: questions.comment_count, list: "comments" },
    topicable: { counter: topics.question_count },
    reportable: true,
    bookmarkable: true,
    revisable: true,
    illustrated: true,
    notifiedOnDeletion: { carries: ["question_id"] },
  },
  answer: {
    table: answers,
    id: answers.answer_id,
    author: answers.user_id,
    trash: answers.delete_time,
    notFound: "ANSWER_NOT_FOUND",
    param: "answer_id",
    resource: "answers",
    summary: ["answer_id", "question_id", "content_rendered", "create_time", "update_time"],
    feeds: [
      { counter: users.answer_count, by: answers.user_id },
      { counter: questions.answer_count, by: answers.question_id },
    ],
    referencedBy: [{ column: questions.accepted_answer_id, by: answers.question_id }],
    votable: true,
    commentable: { counter: answers.comment_count, list: "comments" },
    reportable: true,
    bookmarkable: true,
    revisable: true,
    illustrated: true,
    notifiedOnDeletion: { carries: ["question_id", "answer_id"] },
  },
  article: {
    table: articles,
    id: articles.article_id,
    author: articles.user_id,
    trash: articles.delete_time,
    notFound: "ARTICLE_NOT_FOUND",
    param: "article_id",
    resource: "articles",
    summary: ["article_id", "title", "create_time", "update_time"],
    feeds: [{ counter: users.article_count, by: articles.user_id }],
    votable: true,
    followable: { following: users.following_article_count },
    commentable: { counter: articles.comment_count, list: "comments" },
    topicable: { counter: topics.article_count },
    reportable: true,
    bookmarkable: true,
    revisable: true,
    illustrated: true,
    notifiedOnDeletion: { carries: ["article_id"] },
  },
  comment: {
    table: comments,
    id: comments.comment_id,
    author: comments.user_id,
    trash: comments.delete_time,
    notFound: "COMMENT_NOT_FOUND",
    param: "comment_id",
    resource: "comments",
    summary: ["comment_id", "content", "create_time", "update_time"],
    votable: true,
    commentable: { counter: comments.reply_count, list: "replies" },
    reportable: true,
    notifiedOnDeletion: { carries: ["comment_id", "commentable_type", "commentable_id"] },
  },
  topic: {
    table: topics,
    id: topics.topic_id,
    trash: topics.delete_time,
    notFound: "TOPIC_NOT_FOUND",
    param: "topic_id",
    resource: "topics",
    followable: { following: users.following_topic_count },
    files: { column: topics.cover, sizes: TOPIC_COVER_SIZES },
  },
  user: {
    table: users,
    id: users.user_id,
    notFound: "USER_NOT_FOUND",
    param: "user_id",
    resource: "users",
    summary: ["user_id", "username", "headline", "avatar"],
    followable: { following: users.followee_count },
    reportable: true,
  },
  message: {
    table: messages,
    id: messages.message_id,
    author: messages.sender_id,
    notFound: "MESSAGE_NOT_FOUND",
    param: "message_id",
    resource: "messages",
    summary: ["message_id", "sender_id", "receiver_id", "content_markdown", "content_rendered", "create_time"],
    reportable: true,
    parties: [messages.sender_id, messages.receiver_id],
  },
});

type Entities = typeof entities;
export type Kind = keyof Entities;

/** Any kind's entry, widened: what code written once for every kind reads. */
export interface Entity extends Facts {
  type: Kind;
  columns: Record<string, SQLiteColumn>;
}

/** The kinds whose entry states `fact`. */
export type KindsWith<F extends keyof Facts> = { [K in Kind]: [F] extends [keyof Entities[K]] ? K : never }[Kind];

/** The entry of a kind known to state `fact`. */
export type EntityWith<F extends keyof Facts> = Entity & { [P in F]-?: NonNullable<Facts[P]> } & { type: KindsWith<F> };

export type ContentKind = KindsWith<"author">;
export type TrashableKind = KindsWith<"trash">;
export type VotableKind = KindsWith<"votable">;
export type FollowableKind = KindsWith<"followable">;
export type CommentableKind = KindsWith<"commentable">;
export type TopicableKind = KindsWith<"topicable">;
export type ReportableKind = KindsWith<"reportable">;
export type BookmarkableKind = KindsWith<"bookmarkable">;
export type RevisableKind = KindsWith<"revisable">;
export type IllustratedKind = KindsWith<"illustrated">;
export type SummarisedKind = KindsWith<"summary">;
export type NotifiedKind = KindsWith<"notifiedOnDeletion">;

const kinds = Object.keys(entities) as Kind[];

/** The kinds whose entry states `fact`, in the model's order. */
export const kindsWith = <F extends keyof Facts>(fact: F): KindsWith<F>[] =>
  kinds.filter((kind) => (entities[kind] as Entity)[fact] !== undefined) as KindsWith<F>[];

/** The entries stating `fact`, by kind. */
export const entitiesWith = <F extends keyof Facts>(fact: F): { [K in KindsWith<F>]: Entities[K] } =>
  Object.fromEntries(kindsWith(fact).map((kind) => [kind, entities[kind]])) as { [K in KindsWith<F>]: Entities[K] };

/** Whether a kind states `fact`, narrowing its name. */
export const has = <F extends keyof Facts>(kind: Kind, fact: F): kind is KindsWith<F> =>
  (entities[kind] as Entity)[fact] !== undefined;

/** The kind whose table is `table`: the owner of a counter column. */
export function kindOf(table: SQLiteTable): Kind {
  const kind = kinds.find((k) => entities[k].table === table);
  if (!kind) throw new Error("a counter sits on a table the entity model does not know");
  return kind;
}

// Compile-time checks that the model agrees with the schema: a failing one is reported at its own line below.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
type Enum<C extends { enumValues: readonly string[] | undefined }> = NonNullable<C["enumValues"]>[number];
type HasColumns<K extends Kind, N> = [N] extends [keyof Entities[K]["columns"]] ? true : false;
type Every<T extends Record<string, boolean>> = Same<T[keyof T], true>;

/**
 * Each polymorphic type column's enum names exactly the kinds with its capability, and each capability's or
 * summary's columns exist on the kind's table.
 */
export type ModelMatchesSchema = [
  Holds<Same<VotableKind, Enum<typeof votes.votable_type>>>,
  Holds<Same<FollowableKind, Enum<typeof follows.followable_type>>>,
  Holds<Same<CommentableKind, Enum<typeof comments.commentable_type>>>,
  Holds<Same<TopicableKind, Enum<typeof topicables.topicable_type>>>,
  Holds<Same<ReportableKind, Enum<typeof reports.reportable_type>>>,
  Holds<Same<BookmarkableKind, Enum<typeof bookmarks.bookmarkable_type>>>,
  Holds<Same<RevisableKind, Enum<typeof revisions.revisable_type>>>,
  Holds<Same<IllustratedKind, Enum<typeof images.item_type>>>,
  // A report shows its target's summary.
  Holds<Same<ReportableKind & SummarisedKind, ReportableKind>>,
  Holds<Every<{ [K in VotableKind]: HasColumns<K, "vote_count" | "vote_up_count" | "vote_down_count"> }>>,
  Holds<Every<{ [K in FollowableKind]: HasColumns<K, "follower_count"> }>>,
  Holds<Every<{ [K in RevisableKind]: HasColumns<K, "content_markdown"> }>>,
  Holds<Every<{ [K in SummarisedKind]: HasColumns<K, Entities[K]["summary"][number]> }>>,
];

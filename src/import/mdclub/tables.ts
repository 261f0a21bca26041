/**
 * How each table of an MDClub 1.0.x database (its `mdclub.sql`) becomes rows of this API's tables
 * (docs/migrating-from-mdclub.md#what-comes-across). The column names are mostly the same, since the spec kept
 * MDClub's: a row keeps its ids, times, trash and disable times, and counters (recounted after the import). What
 * differs is converted here: NULL text becomes '', MDClub's file names become the R2 keys this API serves
 * (docs/images.md: the same folders MDClub's uploads use), tokens are stored hashed (docs/auth.md#tokens), user 1
 * (MDClub's only administrator) gets the administrator role, and content is rendered again by this API's own
 * pipeline so that no HTML of the old site is served unsanitised.
 */
import { entities } from "../../domain/entities";
import { sha256Hex } from "../../lib/crypto";
import { processContent } from "../../lib/markdown";
import type { SqlValue } from "../../lib/sql-text";
import { type OwnerFolder, ownerFolder } from "../../lib/storage";
import { skipMessage } from "./inbox";
import { phpUnserialize } from "./php-serialize";

export type Row = Record<string, SqlValue>;

/** A column of the target table: an integer (NULL or text → 0), text (NULL → ''), or text that may be NULL. */
type ColumnType = "int" | "text" | "null-text";

export interface TableMap {
  /** The table written. */
  target: string;
  /** MDClub's columns, in its schema's order (used for INSERTs without a column list and no CREATE TABLE). */
  source: readonly string[];
  /** Source columns not copied as they are: {@link derive} computes them, or this API has no such column. */
  notCopied?: readonly string[];
  /** Columns computed from the whole row, after the copied ones. */
  derive?: (row: Row) => Promise<Row> | Row;
  /** Why the row is not carried over, if it is not. */
  skip?: (row: Row) => string | null;
  /** A note on the row that does not stop it (content that could not be rendered again). */
  note?: (row: Row) => string | null;
}

const TEXT_COLUMNS = new Set(
  words(`username email password create_ip create_location last_login_ip last_login_location headline bio blog company
    location name description title content type reason content_deleted key filename device`),
);

/** A copied column's type: text by name or as a `*_type`, `images.item_type` nullable, every other an integer. */
function columnType(column: string): ColumnType {
  if (column === "item_type") return "null-text";
  return TEXT_COLUMNS.has(column) || column.endsWith("_type") ? "text" : "int";
}

function words(list: string): string[] {
  return list.split(/\s+/).filter(Boolean);
}

/** MDClub keeps a file name; this API keeps the R2 key, in the same folder MDClub's uploads put it. */
async function fileKey(folder: OwnerFolder, id: SqlValue | undefined, name: SqlValue | undefined): Promise<string> {
  if (typeof name !== "string" || name === "" || typeof id !== "number") return "";
  return `${await ownerFolder(folder, id)}/${name}`;
}

const rendered = new WeakMap<Row, ReturnType<typeof processContent>>();
function renderOnce(row: Row) {
  let result = rendered.get(row);
  if (!result) {
    const text = (value: SqlValue | undefined) => (typeof value === "string" ? value : "");
    result = processContent({
      content_markdown: text(row.content_markdown),
      content_rendered: text(row.content_rendered),
    });
    rendered.set(row, result);
  }
  return result;
}

/** content_rendered from this API's pipeline; content that does not pass it keeps its markdown and shows no HTML. */
function content(row: Row): Row {
  const result = renderOnce(row);
  if (result.ok) return { ...result.content };
  return {
    content_markdown: typeof row.content_markdown === "string" ? row.content_markdown : "",
    content_rendered: "",
  };
}

function contentNote(row: Row): string | null {
  const result = renderOnce(row);
  const empty = !row.content_markdown && !row.content_rendered;
  return result.ok || empty ? null : `content kept as markdown, not rendered: ${result.errors.content_markdown}`;
}

/** The kind each `*_deleted` notification keeps a copy of. */
const DELETED_KINDS: Record<string, DeletedKind> = {
  question_deleted: "question",
  answer_deleted: "answer",
  article_deleted: "article",
  comment_deleted: "comment",
};
type DeletedKind = "question" | "answer" | "article" | "comment";

/**
 * A deleted item's row as this API keeps it (docs/notifications.md#deleted-content-snapshot): exactly the columns of
 * its kind's table, typed as that table types them (a column MDClub lacks as 0 or ''; one this API lacks dropped),
 * content rendered again by this API's pipeline (MDClub's stored HTML is never served), `delete_time` 0. Read from
 * MDClub's PHP `serialize()` of the row, whose numbers PDO gave as strings; '' when there is none or it cannot be
 * read.
 */
function deletedContent(row: Row): Row {
  const text = typeof row.content_deleted === "string" ? row.content_deleted : "";
  const kind = DELETED_KINDS[String(row.type)];
  if (!text || !kind) return { content_deleted: "" };
  let item: unknown;
  try {
    item = phpUnserialize(text);
  } catch {
    return { content_deleted: "" };
  }
  if (typeof item !== "object" || item === null) return { content_deleted: "" };
  const source = item as Record<string, unknown>;
  const snapshot: Row = {};
  for (const [name, column] of Object.entries(entities[kind].columns)) {
    const value = source[name];
    snapshot[name] =
      column.dataType === "number"
        ? typeof value === "number"
          ? value
          : typeof value === "string" && /^-?\d+$/.test(value)
            ? Number(value)
            : 0
        : typeof value === "string"
          ? value
          : "";
  }
  const rendered = "content_rendered" in snapshot ? content(snapshot) : {};
  return { content_deleted: JSON.stringify({ ...snapshot, ...rendered, delete_time: 0 }) };
}

const ifType = (column: string, allowed: readonly string[]) => (row: Row) =>
  allowed.includes(String(row[column])) ? null : `${column} "${row[column]}" is not one of ${allowed.join(", ")}`;

const contentColumns = ["content_markdown", "content_rendered"];

export const TABLES: Readonly<Record<string, TableMap>> = {
  user: {
    target: "users",
    source: words(`user_id username email avatar cover password create_ip create_location last_login_time last_login_ip
      last_login_location follower_count followee_count following_article_count following_question_count
      following_topic_count article_count question_count answer_count notification_unread inbox_unread headline bio
      blog company location create_time update_time disable_time`),
    notCopied: ["avatar", "cover"],
    // MDClub's administrator is user 1 (its Auth::isManager); here administrators are a role.
    derive: async (row) => ({
      role: row.user_id === 1 ? "admin" : "user",
      avatar: await fileKey("user-avatar", row.user_id, row.avatar),
      cover: await fileKey("user-cover", row.user_id, row.cover),
    }),
    skip: (row) => (row.username && row.email ? null : "no username or e-mail address"),
  },
  topic: {
    target: "topics",
    source: words("topic_id name cover description article_count question_count follower_count delete_time"),
    notCopied: ["cover"],
    derive: async (row) => ({ cover: await fileKey("topic-cover", row.topic_id, row.cover) }),
  },
  question: {
    target: "questions",
    source: words(`question_id user_id title content_markdown content_rendered comment_count answer_count follower_count
      vote_count vote_up_count vote_down_count last_answer_time create_time update_time delete_time`),
    notCopied: contentColumns,
    derive: content,
    note: contentNote,
  },
  answer: {
    target: "answers",
    source:
      words(`answer_id question_id user_id content_markdown content_rendered comment_count vote_count vote_up_count
      vote_down_count create_time update_time delete_time`),
    notCopied: contentColumns,
    derive: content,
    note: contentNote,
  },
  article: {
    target: "articles",
    source: words(`article_id user_id title content_markdown content_rendered comment_count follower_count vote_count
      vote_up_count vote_down_count create_time update_time delete_time`),
    notCopied: contentColumns,
    derive: content,
    note: contentNote,
  },
  comment: {
    target: "comments",
    source: words(`comment_id commentable_id commentable_type user_id content reply_count vote_count vote_up_count
      vote_down_count create_time update_time delete_time`),
    skip: ifType("commentable_type", ["question", "answer", "article", "comment"]),
  },
  topicable: {
    target: "topicables",
    source: words("topic_id topicable_id topicable_type create_time"),
    skip: ifType("topicable_type", ["question", "article"]),
  },
  follow: {
    target: "follows",
    source: words("user_id followable_id followable_type create_time"),
    skip: ifType("followable_type", ["user", "question", "article", "topic"]),
  },
  vote: {
    target: "votes",
    source: words("user_id votable_id votable_type type create_time"),
    skip: (row) =>
      ifType("votable_type", ["question", "answer", "article", "comment"])(row) ?? ifType("type", ["up", "down"])(row),
  },
  report: {
    target: "reports",
    source: words("report_id reportable_id reportable_type user_id reason create_time"),
    skip: ifType("reportable_type", ["question", "answer", "article", "comment", "user"]),
  },
  notification: {
    target: "notifications",
    source: words(`notification_id receiver_id sender_id type article_id question_id answer_id comment_id reply_id
      content_deleted create_time read_time`),
    notCopied: ["content_deleted"],
    derive: deletedContent,
    note: (row) =>
      row.content_deleted && !deletedContent(row).content_deleted ? "deleted item's copy unreadable: dropped" : null,
  },
  image: {
    target: "images",
    source: words("key filename width height create_time item_type item_id user_id"),
    skip: (row) => (row.key ? null : "no key"),
  },
  // Their conversations are made once every row is in (inbox.ts).
  inbox: {
    target: "messages",
    source: words("inbox_id receiver_id sender_id content_markdown content_rendered create_time read_time"),
    notCopied: ["inbox_id", ...contentColumns],
    derive: (row) => ({ message_id: columnValue("int", row.inbox_id), conversation_id: 0, ...content(row) }),
    skip: skipMessage,
    note: contentNote,
  },
  token: {
    target: "tokens",
    source: words("token user_id device create_time update_time expire_time"),
    notCopied: ["token"],
    // Only the token's SHA-256 is stored, as for tokens this API issues (docs/auth.md#tokens).
    derive: async (row) => ({ token: await sha256Hex(String(row.token)) }),
    skip: (row) => (row.token ? null : "no token"),
  },
};

/** MDClub tables that are read and deliberately not carried over, with the reason the summary gives. */
export const NOT_CARRIED: Readonly<Record<string, string>> = {
  cache: "MDClub's cache: this API caches in KV",
};

/** A row of the target table from MDClub's row: the copied columns converted to their type, then the derived ones. */
export async function mapRow(map: TableMap, source: Row): Promise<Row> {
  const row: Row = {};
  for (const column of map.source) {
    if (!map.notCopied?.includes(column)) row[column] = columnValue(columnType(column), source[column]);
  }
  return { ...row, ...(await map.derive?.(source)) };
}

function columnValue(type: ColumnType, value: SqlValue | undefined): SqlValue {
  if (type === "int") {
    const n = typeof value === "number" ? value : Number(value ?? 0);
    return Number.isFinite(n) ? Math.trunc(n) : 0;
  }
  if (value === null || value === undefined) return type === "null-text" ? null : "";
  return String(value);
}

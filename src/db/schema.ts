/**
 * The whole data model. Table and column names are the spec's field names so rows map onto the wire shape
 * without a renaming layer. Times are Unix seconds; `delete_time` 0 means live, > 0 means in the trash.
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { INBOX_ACCEPT } from "./inbox-schema";

const int = (name: string) => integer(name).notNull().default(0);
const str = (name: string) => text(name).notNull().default("");

/** Columns every votable item carries. */
const voteCounters = () => ({
  vote_count: int("vote_count"),
  vote_up_count: int("vote_up_count"),
  vote_down_count: int("vote_down_count"),
});

export const users = sqliteTable(
  "users",
  {
    user_id: integer("user_id").primaryKey({ autoIncrement: true }),
    username: text("username").notNull(),
    email: text("email").notNull(),
    /** PBKDF2 of the peppered SHA-1 digest of the password, with its parameters (lib/password.ts). */
    password: text("password").notNull(),
    /** 'admin' or 'user': administrators are a role, not "user 1" (docs/decisions.md#administrators-are-a-role). */
    role: text("role", { enum: ["user", "admin"] })
      .notNull()
      .default("user"),
    avatar: str("avatar"),
    cover: str("cover"),
    create_ip: str("create_ip"),
    create_location: str("create_location"),
    last_login_time: int("last_login_time"),
    last_login_ip: str("last_login_ip"),
    last_login_location: str("last_login_location"),
    follower_count: int("follower_count"),
    followee_count: int("followee_count"),
    following_article_count: int("following_article_count"),
    following_question_count: int("following_question_count"),
    following_topic_count: int("following_topic_count"),
    article_count: int("article_count"),
    question_count: int("question_count"),
    answer_count: int("answer_count"),
    notification_unread: int("notification_unread"),
    inbox_unread: int("inbox_unread"),
    headline: str("headline"),
    bio: str("bio"),
    blog: str("blog"),
    company: str("company"),
    location: str("location"),
    create_time: int("create_time"),
    update_time: int("update_time"),
    disable_time: int("disable_time"),
    // Who may write to the user, and whether a message is mailed to them (docs/messages.md#who-may-write-to-whom).
    inbox_accept: text("inbox_accept", { enum: INBOX_ACCEPT }).notNull().default("everyone"),
    inbox_email: integer("inbox_email", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [
    // Case-insensitive uniqueness (docs/decisions.md#names-and-addresses-are-unique-case-insensitively): lookups use
    // the same lower() expression to hit these.
    uniqueIndex("users_username_lower_unique").on(sql`lower(${t.username})`),
    uniqueIndex("users_email_lower_unique").on(sql`lower(${t.email})`),
    index("users_disable_create_idx").on(t.disable_time, t.create_time),
    index("users_disable_follower_idx").on(t.disable_time, t.follower_count),
    // Statistics count new rows per day whatever their state (trashed, disabled): by create_time alone.
    index("users_create_idx").on(t.create_time),
  ],
);

export const tokens = sqliteTable(
  "tokens",
  {
    /** SHA-256 hex of the token the client holds; the token itself is never stored. */
    token: text("token").primaryKey(),
    user_id: integer("user_id").notNull(),
    device: str("device"),
    create_time: int("create_time"),
    update_time: int("update_time"),
    expire_time: int("expire_time"),
  },
  (t) => [index("tokens_user_idx").on(t.user_id), index("tokens_expire_idx").on(t.expire_time)],
);

export const options = sqliteTable("options", {
  name: text("name").primaryKey(),
  /** JSON-encoded value, so booleans and integers keep their type. */
  value: text("value").notNull(),
});

/**
 * Site-wide totals of live rows, one row a kind (question, answer, article, comment, topic, and user: not
 * disabled), kept by triggers on each table (drizzle/0005_site_totals.sql), so that the unfiltered lists read their
 * total instead of counting every row (docs/data-model.md#indexes).
 */
export const siteTotals = sqliteTable("site_totals", {
  kind: text("kind").primaryKey(),
  live: int("live").notNull().default(0),
});

export const topics = sqliteTable(
  "topics",
  {
    topic_id: integer("topic_id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    cover: str("cover"),
    description: str("description"),
    article_count: int("article_count"),
    question_count: int("question_count"),
    follower_count: int("follower_count"),
    delete_time: int("delete_time"),
  },
  (t) => [
    uniqueIndex("topics_name_lower_live_unique").on(sql`lower(${t.name})`).where(sql`${t.delete_time} = 0`),
    index("topics_delete_follower_idx").on(t.delete_time, t.follower_count),
    // The administrators' list of trashed topics, in id order, reads only trashed rows.
    index("topics_trashed_idx").on(t.topic_id).where(sql`${t.delete_time} > 0`),
  ],
);

export const topicables = sqliteTable(
  "topicables",
  {
    topic_id: integer("topic_id").notNull(),
    topicable_id: integer("topicable_id").notNull(),
    topicable_type: text("topicable_type", { enum: ["question", "article"] }).notNull(),
    create_time: int("create_time"),
    /**
     * The item's own trash and order columns, copied onto its links and kept by triggers
     * (drizzle/0007_topic_link_orders.sql), so that a topic's list is read through an index in its order
     * (docs/data-model.md#indexes). Nothing but those triggers writes them.
     */
    item_delete_time: int("item_delete_time").notNull().default(0),
    item_update_time: int("item_update_time").notNull().default(0),
    item_create_time: int("item_create_time").notNull().default(0),
    item_vote_count: int("item_vote_count").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.topicable_type, t.topicable_id, t.topic_id] }),
    index("topicables_topic_idx").on(t.topic_id, t.topicable_type, t.topicable_id),
    index("topicables_topic_update_idx").on(
      t.topic_id,
      t.topicable_type,
      t.item_delete_time,
      t.item_update_time,
      t.topicable_id,
    ),
    index("topicables_topic_create_idx").on(
      t.topic_id,
      t.topicable_type,
      t.item_delete_time,
      t.item_create_time,
      t.topicable_id,
    ),
    index("topicables_topic_vote_idx").on(
      t.topic_id,
      t.topicable_type,
      t.item_delete_time,
      t.item_vote_count,
      t.topicable_id,
    ),
  ],
);

export const questions = sqliteTable(
  "questions",
  {
    question_id: integer("question_id").primaryKey({ autoIncrement: true }),
    user_id: integer("user_id").notNull(),
    title: text("title").notNull(),
    content_markdown: str("content_markdown"),
    content_rendered: str("content_rendered"),
    comment_count: int("comment_count"),
    answer_count: int("answer_count"),
    follower_count: int("follower_count"),
    ...voteCounters(),
    last_answer_time: int("last_answer_time"),
    create_time: int("create_time"),
    update_time: int("update_time"),
    delete_time: int("delete_time"),
    accepted_answer_id: int("accepted_answer_id"), // 0 for none (docs/operations.md#accepted-answer)
  },
  (t) => [
    index("questions_user_idx").on(t.user_id, t.delete_time, t.update_time),
    index("questions_delete_update_idx").on(t.delete_time, t.update_time),
    index("questions_delete_create_idx").on(t.delete_time, t.create_time),
    index("questions_delete_vote_idx").on(t.delete_time, t.vote_count),
    index("questions_create_idx").on(t.create_time),
  ],
);

export const answers = sqliteTable(
  "answers",
  {
    answer_id: integer("answer_id").primaryKey({ autoIncrement: true }),
    question_id: integer("question_id").notNull(),
    user_id: integer("user_id").notNull(),
    content_markdown: str("content_markdown"),
    content_rendered: str("content_rendered"),
    comment_count: int("comment_count"),
    ...voteCounters(),
    create_time: int("create_time"),
    update_time: int("update_time"),
    delete_time: int("delete_time"),
  },
  (t) => [
    index("answers_question_idx").on(t.question_id, t.delete_time, t.create_time),
    index("answers_user_idx").on(t.user_id, t.delete_time, t.create_time),
    index("answers_delete_create_idx").on(t.delete_time, t.create_time),
    index("answers_delete_vote_idx").on(t.delete_time, t.vote_count),
    index("answers_create_idx").on(t.create_time),
  ],
);

export const articles = sqliteTable(
  "articles",
  {
    article_id: integer("article_id").primaryKey({ autoIncrement: true }),
    user_id: integer("user_id").notNull(),
    title: text("title").notNull(),
    content_markdown: str("content_markdown"),
    content_rendered: str("content_rendered"),
    comment_count: int("comment_count"),
    follower_count: int("follower_count"),
    ...voteCounters(),
    create_time: int("create_time"),
    update_time: int("update_time"),
    delete_time: int("delete_time"),
  },
  (t) => [
    index("articles_user_idx").on(t.user_id, t.delete_time, t.create_time),
    index("articles_delete_create_idx").on(t.delete_time, t.create_time),
    index("articles_delete_update_idx").on(t.delete_time, t.update_time),
    index("articles_delete_vote_idx").on(t.delete_time, t.vote_count),
    index("articles_create_idx").on(t.create_time),
  ],
);

export const comments = sqliteTable(
  "comments",
  {
    comment_id: integer("comment_id").primaryKey({ autoIncrement: true }),
    commentable_id: integer("commentable_id").notNull(),
    /** A comment whose target type is `comment` is a reply. */
    commentable_type: text("commentable_type", { enum: ["article", "question", "answer", "comment"] }).notNull(),
    user_id: integer("user_id").notNull(),
    content: text("content").notNull(),
    reply_count: int("reply_count"),
    ...voteCounters(),
    create_time: int("create_time"),
    update_time: int("update_time"),
    delete_time: int("delete_time"),
  },
  (t) => [
    index("comments_target_idx").on(t.commentable_type, t.commentable_id, t.delete_time, t.create_time),
    index("comments_user_idx").on(t.user_id, t.delete_time),
    index("comments_delete_create_idx").on(t.delete_time, t.create_time),
    index("comments_delete_vote_idx").on(t.delete_time, t.vote_count),
    index("comments_create_idx").on(t.create_time),
  ],
);

export const votes = sqliteTable(
  "votes",
  {
    user_id: integer("user_id").notNull(),
    votable_id: integer("votable_id").notNull(),
    votable_type: text("votable_type", { enum: ["question", "answer", "article", "comment"] }).notNull(),
    type: text("type", { enum: ["up", "down"] }).notNull(),
    create_time: int("create_time"),
  },
  (t) => [
    // A key: one vote per user and target (docs/decisions.md#one-vote-follow-and-report-per-user-and-target).
    primaryKey({ columns: [t.votable_type, t.votable_id, t.user_id] }),
    index("votes_user_idx").on(t.user_id, t.votable_type),
    index("votes_target_time_idx").on(t.votable_type, t.votable_id, t.create_time),
  ],
);

export const follows = sqliteTable(
  "follows",
  {
    user_id: integer("user_id").notNull(),
    followable_id: integer("followable_id").notNull(),
    followable_type: text("followable_type", { enum: ["user", "question", "article", "topic"] }).notNull(),
    create_time: int("create_time"),
  },
  (t) => [
    primaryKey({ columns: [t.followable_type, t.followable_id, t.user_id] }),
    index("follows_target_time_idx").on(t.followable_type, t.followable_id, t.create_time),
    index("follows_user_time_idx").on(t.user_id, t.followable_type, t.create_time, t.followable_id),
  ],
);

export const reports = sqliteTable(
  "reports",
  {
    report_id: integer("report_id").primaryKey({ autoIncrement: true }),
    reportable_id: integer("reportable_id").notNull(),
    reportable_type: text("reportable_type", {
      enum: ["question", "answer", "article", "comment", "user", "message"],
    }).notNull(),
    user_id: integer("user_id").notNull(),
    reason: text("reason").notNull(),
    create_time: int("create_time"),
  },
  (t) => [
    uniqueIndex("reports_target_user_unique").on(t.reportable_type, t.reportable_id, t.user_id),
    index("reports_create_idx").on(t.create_time),
  ],
);

export const notifications = sqliteTable(
  "notifications",
  {
    notification_id: integer("notification_id").primaryKey({ autoIncrement: true }),
    receiver_id: integer("receiver_id").notNull(),
    sender_id: int("sender_id"),
    type: text("type").notNull(),
    article_id: int("article_id"),
    question_id: int("question_id"),
    answer_id: int("answer_id"),
    comment_id: int("comment_id"),
    reply_id: int("reply_id"),
    /** JSON snapshot of the deleted item for the `*_deleted` kinds, '' otherwise. */
    content_deleted: str("content_deleted"),
    create_time: int("create_time"),
    read_time: int("read_time"),
    webhook_id: int("webhook_id"), // webhook_disabled's endpoint (docs/events.md#disabled-endpoints), else 0
  },
  (t) => [
    index("notifications_receiver_time_idx").on(t.receiver_id, t.create_time),
    index("notifications_receiver_read_idx").on(t.receiver_id, t.read_time, t.type),
  ],
);

export const images = sqliteTable(
  "images",
  {
    key: text("key").primaryKey(),
    filename: str("filename"),
    width: int("width"),
    height: int("height"),
    create_time: int("create_time"),
    item_type: text("item_type", { enum: ["question", "answer", "article"] }),
    item_id: int("item_id"),
    user_id: integer("user_id").notNull(),
  },
  (t) => [
    index("images_create_idx").on(t.create_time),
    index("images_item_idx").on(t.item_type, t.item_id),
    index("images_user_idx").on(t.user_id),
  ],
);

export const email_codes = sqliteTable(
  "email_codes",
  {
    /** A code is bound to its purpose and address (docs/decisions.md#e-mail-codes-are-single-use-and-bound). */
    purpose: text("purpose", { enum: ["register", "password_reset"] }).notNull(),
    email: text("email").notNull(),
    /** SHA-256 hex of the code. */
    code: text("code").notNull(),
    attempts: int("attempts"),
    create_time: int("create_time"),
    expire_time: int("expire_time"),
  },
  (t) => [primaryKey({ columns: [t.purpose, t.email] }), index("email_codes_expire_idx").on(t.expire_time)],
);

/** One row per counted event (a failed login, a code mail); windows are sliding, old rows are purged by cron. */
export const throttles = sqliteTable(
  "throttles",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    action: text("action").notNull(),
    subject: text("subject").notNull(),
    create_time: int("create_time"),
  },
  (t) => [
    index("throttles_lookup_idx").on(t.action, t.subject, t.create_time),
    index("throttles_create_idx").on(t.create_time),
  ],
);

/** Captchas waiting for their answer; a check deletes the row in the same statement, so each is used once. */
export const captchas = sqliteTable(
  "captchas",
  {
    token: text("token").primaryKey(),
    /** The characters shown, upper-case. */
    code: text("code").notNull(),
    expire_time: int("expire_time"),
  },
  (t) => [index("captchas_expire_idx").on(t.expire_time)],
);
export type UserRow = typeof users.$inferSelect;
export type TokenRow = typeof tokens.$inferSelect;
export * from "./inbox-schema"; // private messages and blocks (docs/messages.md#model)

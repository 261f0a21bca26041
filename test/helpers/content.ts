/**
 * Content built straight into D1 for tests that need it as a starting point, with every counter the real
 * write would move kept consistent (so counter assertions stay meaningful). Tests of the create routes
 * themselves go through HTTP instead.
 */
import { env } from "cloudflare:workers";
import { now } from "../../src/lib/time";
import { uniqueName } from "./factories";

const db = () => env.DB;

async function insert(sql: string, ...values: unknown[]): Promise<number> {
  const row = await db()
    .prepare(sql)
    .bind(...values)
    .first<{ id: number }>();
  return row!.id;
}

export async function createTopic(
  fields: { name?: string; description?: string; delete_time?: number } = {},
): Promise<number> {
  return insert(
    "INSERT INTO topics (name, description, delete_time) VALUES (?, ?, ?) RETURNING topic_id AS id",
    fields.name ?? uniqueName("t"),
    fields.description ?? "A topic",
    fields.delete_time ?? 0,
  );
}

interface PostFields {
  title?: string;
  content_markdown?: string;
  topic_ids?: number[];
  create_time?: number;
  delete_time?: number;
}

/** Counters count what a reader sees (DECISIONS.md): an item created in the trash moves none. */
const live = (fields: { delete_time?: number }) => !fields.delete_time;

async function attachTopics(
  type: "question" | "article",
  id: number,
  topicIds: number[],
  time: number,
  counted: boolean,
) {
  const counter = type === "question" ? "question_count" : "article_count";
  for (const topicId of topicIds) {
    await db().batch([
      db()
        .prepare("INSERT INTO topicables (topic_id, topicable_id, topicable_type, create_time) VALUES (?, ?, ?, ?)")
        .bind(topicId, id, type, time),
      db()
        .prepare(`UPDATE topics SET ${counter} = ${counter} + ? WHERE topic_id = ?`)
        .bind(counted ? 1 : 0, topicId),
    ]);
  }
}

export async function createQuestion(userId: number, fields: PostFields = {}): Promise<number> {
  const time = fields.create_time ?? now();
  const markdown = fields.content_markdown ?? "question body";
  const id = await insert(
    `INSERT INTO questions (user_id, title, content_markdown, content_rendered, create_time, update_time, delete_time)
     VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING question_id AS id`,
    userId,
    fields.title ?? "A question title",
    markdown,
    `<p>${markdown}</p>`,
    time,
    time,
    fields.delete_time ?? 0,
  );
  await attachTopics("question", id, fields.topic_ids ?? [], time, live(fields));
  if (live(fields))
    await db().prepare("UPDATE users SET question_count = question_count + 1 WHERE user_id = ?").bind(userId).run();
  return id;
}

export async function createArticle(userId: number, fields: PostFields = {}): Promise<number> {
  const time = fields.create_time ?? now();
  const markdown = fields.content_markdown ?? "article body";
  const id = await insert(
    `INSERT INTO articles (user_id, title, content_markdown, content_rendered, create_time, update_time, delete_time)
     VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING article_id AS id`,
    userId,
    fields.title ?? "An article title",
    markdown,
    `<p>${markdown}</p>`,
    time,
    time,
    fields.delete_time ?? 0,
  );
  await attachTopics("article", id, fields.topic_ids ?? [], time, live(fields));
  if (live(fields))
    await db().prepare("UPDATE users SET article_count = article_count + 1 WHERE user_id = ?").bind(userId).run();
  return id;
}

export async function createAnswer(
  userId: number,
  questionId: number,
  fields: { content_markdown?: string; create_time?: number; delete_time?: number } = {},
): Promise<number> {
  const time = fields.create_time ?? now();
  const markdown = fields.content_markdown ?? "answer body";
  const id = await insert(
    `INSERT INTO answers (question_id, user_id, content_markdown, content_rendered, create_time, update_time, delete_time)
     VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING answer_id AS id`,
    questionId,
    userId,
    markdown,
    `<p>${markdown}</p>`,
    time,
    time,
    fields.delete_time ?? 0,
  );
  if (live(fields)) {
    await db().batch([
      db().prepare("UPDATE users SET answer_count = answer_count + 1 WHERE user_id = ?").bind(userId),
      db()
        .prepare(
          "UPDATE questions SET answer_count = answer_count + 1, last_answer_time = ?, update_time = ? WHERE question_id = ?",
        )
        .bind(time, time, questionId),
    ]);
  }
  return id;
}

export type CommentTarget = "question" | "answer" | "article" | "comment";

const counterOf: Record<CommentTarget, [string, string, string]> = {
  question: ["questions", "question_id", "comment_count"],
  answer: ["answers", "answer_id", "comment_count"],
  article: ["articles", "article_id", "comment_count"],
  comment: ["comments", "comment_id", "reply_count"],
};

/** A comment on a question, answer or article, or a reply (target `comment`). */
export async function createComment(
  userId: number,
  target: CommentTarget,
  targetId: number,
  fields: { content?: string; create_time?: number; delete_time?: number } = {},
): Promise<number> {
  const time = fields.create_time ?? now();
  const id = await insert(
    `INSERT INTO comments (commentable_id, commentable_type, user_id, content, create_time, update_time, delete_time)
     VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING comment_id AS id`,
    targetId,
    target,
    userId,
    fields.content ?? "a comment",
    time,
    time,
    fields.delete_time ?? 0,
  );
  const [table, idColumn, counter] = counterOf[target];
  if (live(fields))
    await db().prepare(`UPDATE ${table} SET ${counter} = ${counter} + 1 WHERE ${idColumn} = ?`).bind(targetId).run();
  return id;
}

/** Reads one row of a table, for counter and state assertions. */
export async function row<T = Record<string, number | string>>(
  table: string,
  idColumn: string,
  id: number,
): Promise<T> {
  return (await db().prepare(`SELECT * FROM ${table} WHERE ${idColumn} = ?`).bind(id).first<T>())!;
}

/**
 * Content built straight into D1 for tests that need it as a starting point, with every counter the real
 * write would move recounted by the app's own rule (behaviours/counters.ts), so counter assertions stay
 * meaningful. Tests of the create routes themselves go through HTTP instead.
 */
import { env } from "cloudflare:workers";
import { recountStatements } from "../../src/behaviours/counters";
import { type BatchStatement, commit, createDb, D1Meter, type Db } from "../../src/db/client";
import type { CommentableKind, Kind, TopicableKind } from "../../src/domain/entities";
import { now } from "../../src/lib/time";
import { markAnswered } from "../../src/modules/answers/repo";
import { uniqueName } from "./factories";

const db = () => env.DB;

/** Recounts what a new row feeds, as the create route does in its batch, after `writes` of that route. */
async function recountFed(kind: Kind, id: number, writes: (app: Db) => BatchStatement[] = () => []): Promise<void> {
  const app = createDb(env.DB, new D1Meter());
  await commit(app, [...writes(app), ...recountStatements(app, kind, [id])]);
}

/**
 * Recounts the counters rows of a kind feed, as the routes do in their batches: for tests that write rows straight
 * into D1 (bulk inserts, a trash by UPDATE) and then read totals, which lists take from those counters.
 */
export async function recountCounters(kind: Kind, ids: number[]): Promise<void> {
  const app = createDb(env.DB, new D1Meter());
  await commit(app, recountStatements(app, kind, ids));
}

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

async function attachTopics(type: TopicableKind, id: number, topicIds: number[], time: number) {
  for (const topicId of topicIds) {
    await db()
      .prepare("INSERT INTO topicables (topic_id, topicable_id, topicable_type, create_time) VALUES (?, ?, ?, ?)")
      .bind(topicId, id, type, time)
      .run();
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
  await attachTopics("question", id, fields.topic_ids ?? [], time);
  await recountFed("question", id);
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
  await attachTopics("article", id, fields.topic_ids ?? [], time);
  await recountFed("article", id);
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
  // An answer created in the trash moves nothing, as nobody sees it.
  await recountFed("answer", id, (app) => (fields.delete_time ? [] : [markAnswered(app, questionId, time)]));
  return id;
}

export type CommentTarget = CommentableKind;

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
  await recountFed("comment", id);
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

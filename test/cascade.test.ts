/**
 * What a hard delete takes with it (docs/deletion.md#cascade with docs/decisions.md#replies-go-with-their-comment's
 * fixes): for each kind, every row that must disappear (answers, comments and whole reply trees, votes, reports,
 * follows, topic links) and every counter left behind, checked with COUNT(*) against the rows that remain; nothing else
 * is touched.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { now } from "../src/lib/time";
import { del, post } from "./helpers/api";
import { createAnswer, createArticle, createComment, createQuestion, createTopic, row } from "./helpers/content";
import { createAdmin, createUser, type TestUser } from "./helpers/factories";

type Votable = "question" | "answer" | "article" | "comment";

async function run(sql: string, ...values: unknown[]): Promise<void> {
  await env.DB.prepare(sql)
    .bind(...values)
    .run();
}

async function all<T>(sql: string, ...values: unknown[]): Promise<T[]> {
  return (
    await env.DB.prepare(sql)
      .bind(...values)
      .all<T>()
  ).results;
}

async function vote(user: TestUser, type: Votable, id: number): Promise<void> {
  await run(
    "INSERT INTO votes (user_id, votable_id, votable_type, type, create_time) VALUES (?, ?, ?, 'up', ?)",
    user.user_id,
    id,
    type,
    now(),
  );
  await run(
    `UPDATE ${type}s SET vote_count = vote_count + 1, vote_up_count = vote_up_count + 1 WHERE ${type}_id = ?`,
    id,
  );
}

async function report(user: TestUser, type: Votable, id: number): Promise<void> {
  await run(
    "INSERT INTO reports (reportable_id, reportable_type, user_id, reason, create_time) VALUES (?, ?, ?, 'spam', ?)",
    id,
    type,
    user.user_id,
    now(),
  );
}

async function follow(user: TestUser, type: "question" | "article" | "topic", id: number): Promise<void> {
  await run(
    "INSERT INTO follows (user_id, followable_id, followable_type, create_time) VALUES (?, ?, ?, ?)",
    user.user_id,
    id,
    type,
    now(),
  );
  await run(`UPDATE ${type}s SET follower_count = follower_count + 1 WHERE ${type}_id = ?`, id);
  await run(`UPDATE users SET following_${type}_count = following_${type}_count + 1 WHERE user_id = ?`, user.user_id);
}

const ids = async (table: string, idColumn: string) =>
  (await all<{ id: number }>(`SELECT ${idColumn} AS id FROM ${table} ORDER BY 1`)).map((r) => r.id);

/** What remains of the side tables, as `type:id` keys (follows with their follower, topic links with their topic). */
const remaining = {
  votes: async () =>
    (await all<{ k: string }>("SELECT votable_type || ':' || votable_id AS k FROM votes ORDER BY 1")).map((r) => r.k),
  reports: async () =>
    (await all<{ k: string }>("SELECT reportable_type || ':' || reportable_id AS k FROM reports ORDER BY 1")).map(
      (r) => r.k,
    ),
  follows: async () =>
    (
      await all<{ k: string }>(
        "SELECT followable_type || ':' || followable_id || '<-' || user_id AS k FROM follows ORDER BY 1",
      )
    ).map((r) => r.k),
  topicables: async () =>
    (
      await all<{ k: string }>(
        "SELECT topicable_type || ':' || topicable_id || '@' || topic_id AS k FROM topicables ORDER BY 1",
      )
    ).map((r) => r.k),
};

const sorted = (keys: string[]) => [...keys].sort();

/** A user's counters that content feeds, as stored, and as recounted from the rows a reader sees. */
async function userCounters(user: TestUser) {
  const stored = await row<Record<string, number>>("users", "user_id", user.user_id);
  const [counted] = await all<Record<string, number>>(
    `SELECT
       (SELECT count(*) FROM questions WHERE user_id = ?1 AND delete_time = 0) AS question_count,
       (SELECT count(*) FROM answers WHERE user_id = ?1 AND delete_time = 0) AS answer_count,
       (SELECT count(*) FROM articles WHERE user_id = ?1 AND delete_time = 0) AS article_count,
       (SELECT count(*) FROM follows f JOIN questions q ON q.question_id = f.followable_id AND q.delete_time = 0
          WHERE f.user_id = ?1 AND f.followable_type = 'question') AS following_question_count,
       (SELECT count(*) FROM follows f JOIN articles a ON a.article_id = f.followable_id AND a.delete_time = 0
          WHERE f.user_id = ?1 AND f.followable_type = 'article') AS following_article_count,
       (SELECT count(*) FROM follows f JOIN topics t ON t.topic_id = f.followable_id AND t.delete_time = 0
          WHERE f.user_id = ?1 AND f.followable_type = 'topic') AS following_topic_count`,
    user.user_id,
  );
  const keys = Object.keys(counted!);
  return { stored: Object.fromEntries(keys.map((k) => [k, stored[k]])), counted };
}

/** Asserts the user's counters, and that each equals COUNT(*) of what it counts. */
async function expectUserCounts(user: TestUser, expected: Record<string, number>) {
  const { stored, counted } = await userCounters(user);
  expect(stored).toEqual(counted);
  expect(stored).toMatchObject(expected);
}

async function topicCounts(topic: number) {
  const stored = await row<{ question_count: number; article_count: number }>("topics", "topic_id", topic);
  const [counted] = await all<{ question_count: number; article_count: number }>(
    `SELECT
       (SELECT count(*) FROM topicables t JOIN questions q ON q.question_id = t.topicable_id AND q.delete_time = 0
          WHERE t.topic_id = ?1 AND t.topicable_type = 'question') AS question_count,
       (SELECT count(*) FROM topicables t JOIN articles a ON a.article_id = t.topicable_id AND a.delete_time = 0
          WHERE t.topic_id = ?1 AND t.topicable_type = 'article') AS article_count`,
    topic,
  );
  expect({ question_count: stored.question_count, article_count: stored.article_count }).toEqual(counted);
  return counted!;
}

/** comment_count of an item, checked against its live comments. */
async function commentCount(type: "question" | "answer" | "article", id: number): Promise<number> {
  const stored = (await row<{ comment_count: number }>(`${type}s`, `${type}_id`, id)).comment_count;
  const [counted] = await all<{ n: number }>(
    "SELECT count(*) AS n FROM comments WHERE commentable_type = ? AND commentable_id = ? AND delete_time = 0",
    type,
    id,
  );
  expect(stored).toBe(counted!.n);
  return stored;
}

async function replyCount(comment: number): Promise<number> {
  const stored = (await row<{ reply_count: number }>("comments", "comment_id", comment)).reply_count;
  const [counted] = await all<{ n: number }>(
    "SELECT count(*) AS n FROM comments WHERE commentable_type = 'comment' AND commentable_id = ? AND delete_time = 0",
    comment,
  );
  expect(stored).toBe(counted!.n);
  return stored;
}

async function answerCount(question: number): Promise<number> {
  const stored = (await row<{ answer_count: number }>("questions", "question_id", question)).answer_count;
  const [counted] = await all<{ n: number }>(
    "SELECT count(*) AS n FROM answers WHERE question_id = ? AND delete_time = 0",
    question,
  );
  expect(stored).toBe(counted!.n);
  return stored;
}

type Users<N extends number, R extends TestUser[] = []> = R["length"] extends N ? R : Users<N, [...R, TestUser]>;

/** `n` fresh users, typed as a tuple so they destructure without checks. */
async function users<N extends number>(n: N): Promise<Users<N>> {
  return (await Promise.all(Array.from({ length: n }, () => createUser()))) as Users<N>;
}

describe("DELETE /api/questions/{question_id}", () => {
  it("takes its answers (trashed ones too), comments and reply trees, votes, reports, follows and topic links", async () => {
    const admin = await createAdmin();
    const [asker, answerer, other, follower, voter, reporter] = await users(6);
    const [t1, t2] = [await createTopic(), await createTopic()];
    const question = await createQuestion(asker.user_id, { topic_ids: [t1, t2] });
    const kept = await createQuestion(asker.user_id, { topic_ids: [t1] });
    await follow(follower, "question", question);
    await follow(follower, "question", kept);
    await vote(voter, "question", question);
    await vote(reporter, "question", question);
    await report(reporter, "question", question);

    // Comments on the question, with a reply tree two levels deep.
    const comment = await createComment(follower.user_id, "question", question);
    const reply = await createComment(voter.user_id, "comment", comment);
    const deep = await createComment(other.user_id, "comment", reply);
    await vote(voter, "comment", deep);
    await report(reporter, "comment", comment);
    await report(reporter, "comment", deep);

    // A live answer with comments and replies, and an answer already in the trash.
    const answer = await createAnswer(answerer.user_id, question);
    const onAnswer = await createComment(other.user_id, "answer", answer);
    await createComment(answerer.user_id, "comment", onAnswer);
    await vote(voter, "answer", answer);
    await vote(voter, "comment", onAnswer);
    await report(reporter, "answer", answer);
    const trashed = await createAnswer(other.user_id, question);
    await createComment(voter.user_id, "answer", trashed);
    await vote(voter, "answer", trashed);
    expect((await post(`/api/answers/${trashed}/trash`, { token: admin.token })).body.code).toBe(0);
    await expectUserCounts(other, { answer_count: 0 });

    // Untouched: the other question, its answer and comment, and what is attached to them.
    const keptAnswer = await createAnswer(answerer.user_id, kept);
    const keptComment = await createComment(other.user_id, "question", kept);
    await createComment(voter.user_id, "comment", keptComment);
    await vote(voter, "question", kept);
    await vote(voter, "answer", keptAnswer);
    await report(reporter, "question", kept);

    const res = await del(`/api/questions/${question}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ code: 0, data: null });
    expect(res.roundTrips).toBeLessThanOrEqual(2);

    expect(await ids("questions", "question_id")).toEqual([kept]);
    expect(await ids("answers", "answer_id")).toEqual([keptAnswer]);
    expect(
      await all("SELECT commentable_type AS type, commentable_id AS id FROM comments ORDER BY comment_id"),
    ).toEqual([
      { type: "question", id: kept },
      { type: "comment", id: keptComment },
    ]);
    expect(await remaining.votes()).toEqual(sorted([`answer:${keptAnswer}`, `question:${kept}`]));
    expect(await remaining.reports()).toEqual([`question:${kept}`]);
    expect(await remaining.follows()).toEqual([`question:${kept}<-${follower.user_id}`]);
    expect(await remaining.topicables()).toEqual([`question:${kept}@${t1}`]);

    await expectUserCounts(asker, { question_count: 1 });
    await expectUserCounts(follower, { following_question_count: 1 });
    await expectUserCounts(answerer, { answer_count: 1 });
    await expectUserCounts(other, { answer_count: 0 });
    expect(await topicCounts(t1)).toEqual({ question_count: 1, article_count: 0 });
    expect(await topicCounts(t2)).toEqual({ question_count: 0, article_count: 0 });
    expect(await answerCount(kept)).toBe(1);
    expect(await commentCount("question", kept)).toBe(1);
    expect(await replyCount(keptComment)).toBe(1);
  });

  it("counts a question trashed before its delete out once, and its answers when it goes", async () => {
    const admin = await createAdmin();
    const [asker, answerer, follower] = await users(3);
    const topic = await createTopic();
    const question = await createQuestion(asker.user_id, { topic_ids: [topic] });
    await follow(follower, "question", question);
    await createAnswer(answerer.user_id, question);

    await post(`/api/questions/${question}/trash`, { token: admin.token });
    await expectUserCounts(asker, { question_count: 0 });
    await expectUserCounts(follower, { following_question_count: 0 });
    await expectUserCounts(answerer, { answer_count: 1 });
    expect(await topicCounts(topic)).toEqual({ question_count: 0, article_count: 0 });

    const res = await del(`/api/questions/${question}`, { token: admin.token });
    expect(res.body).toEqual({ code: 0, data: null });
    await expectUserCounts(asker, { question_count: 0 });
    await expectUserCounts(follower, { following_question_count: 0 });
    await expectUserCounts(answerer, { answer_count: 0 });
    expect(await topicCounts(topic)).toEqual({ question_count: 0, article_count: 0 });
    expect(await all("SELECT * FROM answers")).toEqual([]);
  });

  it("deletes a list of questions with all their answers in one batch", async () => {
    const admin = await createAdmin();
    const [asker, answerer] = await users(2);
    const questions = [await createQuestion(asker.user_id), await createQuestion(asker.user_id)];
    for (const question of questions) await createAnswer(answerer.user_id, question);
    const res = await del(`/api/questions/${questions.join(",")}`, { token: admin.token });
    expect(res.body).toEqual({ code: 0, data: null });
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    expect(await all("SELECT * FROM questions")).toEqual([]);
    expect(await all("SELECT * FROM answers")).toEqual([]);
    await expectUserCounts(asker, { question_count: 0 });
    await expectUserCounts(answerer, { answer_count: 0 });
  });
});

describe("DELETE /api/articles/{article_id}", () => {
  it("takes its comments and reply trees, votes, reports, follows and topic links", async () => {
    const admin = await createAdmin();
    const [author, follower, voter, reporter] = await users(4);
    const [t1, t2] = [await createTopic(), await createTopic()];
    const article = await createArticle(author.user_id, { topic_ids: [t1, t2] });
    const kept = await createArticle(author.user_id, { topic_ids: [t2] });
    await follow(follower, "article", article);
    await follow(follower, "article", kept);
    await vote(voter, "article", article);
    await report(reporter, "article", article);
    const comment = await createComment(voter.user_id, "article", article);
    const reply = await createComment(author.user_id, "comment", comment);
    await createComment(voter.user_id, "comment", reply);
    await vote(voter, "comment", reply);
    await report(reporter, "comment", reply);
    const keptComment = await createComment(voter.user_id, "article", kept);
    await vote(voter, "article", kept);
    await vote(voter, "comment", keptComment);

    const res = await del(`/api/articles/${article}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ code: 0, data: null });
    expect(res.roundTrips).toBeLessThanOrEqual(2);

    expect(await ids("articles", "article_id")).toEqual([kept]);
    expect(await ids("comments", "comment_id")).toEqual([keptComment]);
    expect(await remaining.votes()).toEqual(sorted([`article:${kept}`, `comment:${keptComment}`]));
    expect(await remaining.reports()).toEqual([]);
    expect(await remaining.follows()).toEqual([`article:${kept}<-${follower.user_id}`]);
    expect(await remaining.topicables()).toEqual([`article:${kept}@${t2}`]);
    await expectUserCounts(author, { article_count: 1 });
    await expectUserCounts(follower, { following_article_count: 1 });
    expect(await topicCounts(t1)).toEqual({ question_count: 0, article_count: 0 });
    expect(await topicCounts(t2)).toEqual({ question_count: 0, article_count: 1 });
    expect(await commentCount("article", kept)).toBe(1);
  });
});

describe("DELETE /api/answers/{answer_id}", () => {
  it("takes its comments and reply trees, votes and reports, and counts it out of its question and author", async () => {
    const admin = await createAdmin();
    const [asker, answerer, voter, reporter] = await users(4);
    const question = await createQuestion(asker.user_id);
    const onQuestion = await createComment(voter.user_id, "question", question);
    const answer = await createAnswer(answerer.user_id, question);
    const kept = await createAnswer(answerer.user_id, question);
    const comment = await createComment(voter.user_id, "answer", answer);
    const reply = await createComment(asker.user_id, "comment", comment);
    const deep = await createComment(answerer.user_id, "comment", reply);
    await vote(voter, "answer", answer);
    await vote(voter, "comment", comment);
    await vote(voter, "comment", deep);
    await report(reporter, "answer", answer);
    await report(reporter, "comment", reply);
    const keptComment = await createComment(voter.user_id, "answer", kept);
    await vote(voter, "answer", kept);
    await report(reporter, "answer", kept);

    const res = await del(`/api/answers/${answer}`, { token: admin.token });
    expect(res.body).toEqual({ code: 0, data: null });
    expect(res.roundTrips).toBeLessThanOrEqual(2);

    expect(await ids("answers", "answer_id")).toEqual([kept]);
    expect(await ids("comments", "comment_id")).toEqual([onQuestion, keptComment]);
    expect(await remaining.votes()).toEqual([`answer:${kept}`]);
    expect(await remaining.reports()).toEqual([`answer:${kept}`]);
    expect(await answerCount(question)).toBe(1);
    expect(await commentCount("question", question)).toBe(1);
    expect(await commentCount("answer", kept)).toBe(1);
    await expectUserCounts(answerer, { answer_count: 1 });
    expect(await row("questions", "question_id", question)).toBeTruthy();
  });
});

describe("DELETE /api/comments/{comment_id}", () => {
  async function thread() {
    const [author, voter, reporter] = await users(3);
    const question = await createQuestion(author.user_id);
    const comment = await createComment(author.user_id, "question", question);
    const reply = await createComment(voter.user_id, "comment", comment);
    const sibling = await createComment(author.user_id, "comment", comment);
    const deep = await createComment(author.user_id, "comment", reply);
    const deeper = await createComment(voter.user_id, "comment", deep);
    const other = await createComment(voter.user_id, "question", question);
    const otherReply = await createComment(author.user_id, "comment", other);
    for (const id of [comment, reply, deeper, other]) await vote(voter, "comment", id);
    for (const id of [comment, deep, otherReply]) await report(reporter, "comment", id);
    return { question, comment, reply, sibling, deep, deeper, other, otherReply };
  }

  it("takes its whole reply tree with their votes and reports, and counts it out of its target", async () => {
    const admin = await createAdmin();
    const t = await thread();
    const res = await del(`/api/comments/${t.comment}`, { token: admin.token });
    expect(res.body).toEqual({ code: 0, data: null });
    expect(res.roundTrips).toBeLessThanOrEqual(2);

    expect(await ids("comments", "comment_id")).toEqual([t.other, t.otherReply]);
    expect(await remaining.votes()).toEqual([`comment:${t.other}`]);
    expect(await remaining.reports()).toEqual([`comment:${t.otherReply}`]);
    expect(await commentCount("question", t.question)).toBe(1);
    expect(await replyCount(t.other)).toBe(1);
  });

  it("takes a reply's subtree only and counts it out of its parent's reply_count", async () => {
    const admin = await createAdmin();
    const t = await thread();
    const res = await del(`/api/comments/${t.reply}`, { token: admin.token });
    expect(res.body).toEqual({ code: 0, data: null });

    expect(await ids("comments", "comment_id")).toEqual([t.comment, t.sibling, t.other, t.otherReply]);
    expect(await remaining.votes()).toEqual(sorted([`comment:${t.comment}`, `comment:${t.other}`]));
    expect(await remaining.reports()).toEqual(sorted([`comment:${t.comment}`, `comment:${t.otherReply}`]));
    expect(await replyCount(t.comment)).toBe(1);
    expect(await commentCount("question", t.question)).toBe(2);
  });

  it("takes replies in the trash too, and counts a trashed comment out once", async () => {
    const admin = await createAdmin();
    const t = await thread();
    await post(`/api/comments/${t.deep}/trash`, { token: admin.token });
    await post(`/api/comments/${t.comment}/trash`, { token: admin.token });
    expect(await commentCount("question", t.question)).toBe(1);
    expect(await replyCount(t.reply)).toBe(0);

    const res = await del(`/api/comments/${t.comment}`, { token: admin.token });
    expect(res.body).toEqual({ code: 0, data: null });
    expect(await ids("comments", "comment_id")).toEqual([t.other, t.otherReply]);
    expect(await commentCount("question", t.question)).toBe(1);
  });

  it.each(["answer", "article"] as const)("counts a comment out of the %s it is on", async (type) => {
    const admin = await createAdmin();
    const [author] = await users(1);
    const target =
      type === "answer"
        ? await createAnswer(author.user_id, await createQuestion(author.user_id))
        : await createArticle(author.user_id);
    const [gone, kept] = [
      await createComment(author.user_id, type, target),
      await createComment(author.user_id, type, target),
    ];
    await createComment(author.user_id, "comment", gone);
    await del(`/api/comments/${gone}`, { token: admin.token });
    expect(await ids("comments", "comment_id")).toEqual([kept]);
    expect(await commentCount(type, target)).toBe(1);
  });
});

describe("DELETE /api/topics/{topic_id}", () => {
  it("takes its follows and topic links; the questions and articles only lose the topic", async () => {
    const admin = await createAdmin();
    const [author, follower, another] = await users(3);
    const [topic, kept] = [await createTopic(), await createTopic()];
    const question = await createQuestion(author.user_id, { topic_ids: [topic, kept] });
    const article = await createArticle(author.user_id, { topic_ids: [topic] });
    await follow(follower, "topic", topic);
    await follow(follower, "topic", kept);
    await follow(another, "topic", topic);
    await follow(another, "question", question);
    const before = {
      question: await row("questions", "question_id", question),
      article: await row("articles", "article_id", article),
    };

    const res = await del(`/api/topics/${topic}`, { token: admin.token });
    expect(res.body).toEqual({ code: 0, data: null });
    expect(res.roundTrips).toBeLessThanOrEqual(2);

    expect(await ids("topics", "topic_id")).toEqual([kept]);
    expect(await remaining.follows()).toEqual(
      sorted([`question:${question}<-${another.user_id}`, `topic:${kept}<-${follower.user_id}`]),
    );
    expect(await remaining.topicables()).toEqual([`question:${question}@${kept}`]);
    expect(await row("questions", "question_id", question)).toEqual(before.question);
    expect(await row("articles", "article_id", article)).toEqual(before.article);
    await expectUserCounts(follower, { following_topic_count: 1 });
    await expectUserCounts(another, { following_topic_count: 0, following_question_count: 1 });
    await expectUserCounts(author, { question_count: 1, article_count: 1 });
    expect(await topicCounts(kept)).toEqual({ question_count: 1, article_count: 0 });
  });

  it("keeps follows of a trashed topic (its followers stop counting it) until it is deleted", async () => {
    const admin = await createAdmin();
    const [follower] = await users(1);
    const topic = await createTopic();
    await follow(follower, "topic", topic);
    await post(`/api/topics/${topic}/trash`, { token: admin.token });
    expect(await remaining.follows()).toEqual([`topic:${topic}<-${follower.user_id}`]);
    await expectUserCounts(follower, { following_topic_count: 0 });
    await post(`/api/topics/${topic}/untrash`, { token: admin.token });
    await expectUserCounts(follower, { following_topic_count: 1 });
    await post(`/api/topics/${topic}/trash`, { token: admin.token });
    await del(`/api/topics/${topic}`, { token: admin.token });
    expect(await remaining.follows()).toEqual([]);
    await expectUserCounts(follower, { following_topic_count: 0 });
  });
});

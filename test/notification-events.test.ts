/**
 * The nine notification events (spec "Events", docs/notifications.md,
 * docs/decisions.md#nobody-is-notified-of-their-own-action), each triggered through the HTTP API: exactly one
 * notification with its type, receiver, sender, ids (others 0), content_deleted and relationships; none for one's own
 * action, for cascaded children, on untrash, or twice for trash then delete; and the receiver's `notification_unread`
 * kept exact.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { BASE, del, get, post } from "./helpers/api";
import { type CommentTarget, createAnswer, createArticle, createComment, createQuestion, row } from "./helpers/content";
import { createAdmin, createUser, setOptions, type TestUser } from "./helpers/factories";

type NotificationRow = Record<string, number | string>;

const ALL_INCLUDES = "receiver,sender,article,question,answer,comment,reply";
const IDS = ["article_id", "question_id", "answer_id", "comment_id", "reply_id"] as const;

async function notificationsTo(user: TestUser): Promise<NotificationRow[]> {
  return (
    await env.DB.prepare("SELECT * FROM notifications WHERE receiver_id = ? ORDER BY notification_id")
      .bind(user.user_id)
      .all<NotificationRow>()
  ).results;
}

async function notificationCount(): Promise<number> {
  return (await env.DB.prepare("SELECT COUNT(*) AS n FROM notifications").first<{ n: number }>())!.n;
}

const unread = async (user: TestUser) => (await row("users", "user_id", user.user_id)).notification_unread;

/** The only notification `receiver` has, with exactly the ids given (the others 0). */
async function expectOne(
  receiver: TestUser,
  sender: TestUser,
  type: string,
  ids: Partial<Record<(typeof IDS)[number], number>>,
): Promise<NotificationRow> {
  const rows = await notificationsTo(receiver);
  expect(rows).toHaveLength(1);
  const [n] = rows;
  expect(n).toMatchObject({ receiver_id: receiver.user_id, sender_id: sender.user_id, type, read_time: 0 });
  for (const id of IDS) expect(n![id], id).toBe(ids[id] ?? 0);
  expect(await unread(receiver)).toBe(1);
  return n!;
}

const avatar = {
  original: `${BASE}/static/default/avatar.png`,
  small: `${BASE}/static/default/avatar_small.png`,
  middle: `${BASE}/static/default/avatar_middle.png`,
  large: `${BASE}/static/default/avatar_large.png`,
};
const userSummary = (user: TestUser) => ({ user_id: user.user_id, username: user.username, headline: "", avatar });

async function summaryOf(type: "question" | "article" | "answer" | "comment", id: number) {
  const r = (await row(`${type}s`, `${type}_id`, id)) as Record<string, never>;
  switch (type) {
    case "question":
    case "article":
      return { [`${type}_id`]: id, title: r.title, create_time: r.create_time, update_time: r.update_time };
    case "answer":
      return {
        answer_id: id,
        question_id: r.question_id,
        content_summary: "answer body",
        create_time: r.create_time,
        update_time: r.update_time,
      };
    case "comment":
      return { comment_id: id, content_summary: r.content, create_time: r.create_time, update_time: r.update_time };
  }
}

/** The receiver's list with every include: one record, read through the API. */
async function listed(receiver: TestUser) {
  const res = await get("/api/notifications", { token: receiver.token, query: { include: ALL_INCLUDES } });
  expect(res.status).toBe(200);
  expect(res.body.data).toHaveLength(1);
  return res.body.data[0];
}

describe("question_answered", () => {
  it("notifies the question's author when someone answers, with the question and answer", async () => {
    const [author, answerer] = [await createUser(), await createUser()];
    const questionId = await createQuestion(author.user_id);
    const res = await post(`/api/questions/${questionId}/answers`, {
      token: answerer.token,
      body: { content_markdown: "answer body" },
    });
    expect(res.status).toBe(200);
    const answerId = res.body.data.answer_id as number;
    await expectOne(author, answerer, "question_answered", { question_id: questionId, answer_id: answerId });
    expect(await notificationsTo(answerer)).toHaveLength(0);

    const record = await listed(author);
    // Only the *_deleted kinds carry content_deleted (spec "Notification"); the others have no such key.
    expect(record).not.toHaveProperty("content_deleted");
    expect(record.relationships).toEqual({
      receiver: userSummary(author),
      sender: userSummary(answerer),
      article: null,
      question: await summaryOf("question", questionId),
      answer: await summaryOf("answer", answerId),
      comment: null,
      reply: null,
    });
  });

  it("sends nothing when the author answers their own question", async () => {
    const author = await createUser();
    const questionId = await createQuestion(author.user_id);
    const res = await post(`/api/questions/${questionId}/answers`, {
      token: author.token,
      body: { content_markdown: "answer body" },
    });
    expect(res.status).toBe(200);
    expect(await notificationCount()).toBe(0);
    expect(await unread(author)).toBe(0);
  });
});

describe.each([
  { target: "question", type: "question_commented" },
  { target: "article", type: "article_commented" },
  { target: "answer", type: "answer_commented" },
] as const)("$type", ({ target, type }) => {
  it(`notifies the ${target}'s author with exactly its ids and the new comment`, async () => {
    const [author, commenter, asker] = [await createUser(), await createUser(), await createUser()];
    const questionId = await createQuestion(asker.user_id);
    const targetId =
      target === "question"
        ? await createQuestion(author.user_id)
        : target === "article"
          ? await createArticle(author.user_id)
          : await createAnswer(author.user_id, questionId);
    const res = await post(`/api/${target}s/${targetId}/comments`, {
      token: commenter.token,
      body: { content: "nice one" },
    });
    expect(res.status).toBe(200);
    const commentId = res.body.data.comment_id as number;
    const ids = target === "answer" ? { question_id: questionId, answer_id: targetId } : { [`${target}_id`]: targetId };
    await expectOne(author, commenter, type, { ...ids, comment_id: commentId });
    expect(await notificationsTo(asker)).toHaveLength(0);

    const record = await listed(author);
    expect(record.relationships).toEqual({
      receiver: userSummary(author),
      sender: userSummary(commenter),
      article: target === "article" ? await summaryOf("article", targetId) : null,
      question: target === "article" ? null : await summaryOf("question", target === "answer" ? questionId : targetId),
      answer: target === "answer" ? await summaryOf("answer", targetId) : null,
      comment: await summaryOf("comment", commentId),
      reply: null,
    });
  });

  it(`sends nothing when the ${target}'s author comments on it`, async () => {
    const author = await createUser();
    const targetId =
      target === "question"
        ? await createQuestion(author.user_id)
        : target === "article"
          ? await createArticle(author.user_id)
          : await createAnswer(author.user_id, await createQuestion(author.user_id));
    const res = await post(`/api/${target}s/${targetId}/comments`, { token: author.token, body: { content: "mine" } });
    expect(res.status).toBe(200);
    expect(await notificationCount()).toBe(0);
  });
});

describe("comment_replied", () => {
  /** A parent comment by `author` on a fresh target, and the ids the reply's notification adds for it. */
  async function parentOn(on: CommentTarget, author: TestUser, other: TestUser, answerTrashed = false) {
    const questionId = await createQuestion(other.user_id);
    switch (on) {
      case "question":
        return {
          parent: await createComment(author.user_id, "question", questionId),
          extra: { question_id: questionId },
        };
      case "article": {
        const articleId = await createArticle(other.user_id);
        return { parent: await createComment(author.user_id, "article", articleId), extra: { article_id: articleId } };
      }
      case "answer": {
        const answerId = await createAnswer(other.user_id, questionId, answerTrashed ? { delete_time: 1 } : {});
        return {
          parent: await createComment(author.user_id, "answer", answerId),
          extra: { answer_id: answerId, question_id: questionId },
        };
      }
      case "comment": {
        const top = await createComment(other.user_id, "question", questionId);
        return { parent: await createComment(author.user_id, "comment", top), extra: {} };
      }
    }
  }

  it.each(["question", "article", "answer", "comment"] as const)(
    "notifies the author of a comment on a %s with the target's ids",
    async (on) => {
      const [author, replier, other] = [await createUser(), await createUser(), await createUser()];
      const { parent, extra } = await parentOn(on, author, other);
      const res = await post(`/api/comments/${parent}/replies`, { token: replier.token, body: { content: "a reply" } });
      expect(res.status).toBe(200);
      const replyId = res.body.data.comment_id as number;
      await expectOne(author, replier, "comment_replied", { ...extra, comment_id: parent, reply_id: replyId });
      expect(await notificationsTo(other)).toHaveLength(0);

      const record = await listed(author);
      expect(record.relationships.comment).toEqual(await summaryOf("comment", parent));
      expect(record.relationships.reply).toEqual(await summaryOf("comment", replyId));
      expect(record.relationships.sender).toEqual(userSummary(replier));
    },
  );

  it("takes the question of a trashed answer (docs/notifications.md), with the trashed answer's summary null", async () => {
    const [author, replier, other] = [await createUser(), await createUser(), await createUser()];
    const { parent, extra } = await parentOn("answer", author, other, true);
    const res = await post(`/api/comments/${parent}/replies`, { token: replier.token, body: { content: "a reply" } });
    expect(res.status).toBe(200);
    await expectOne(author, replier, "comment_replied", {
      ...extra,
      comment_id: parent,
      reply_id: res.body.data.comment_id,
    });
    const record = await listed(author);
    expect(record.relationships.answer).toBeNull();
    expect(record.relationships.question).toEqual(await summaryOf("question", extra.question_id!));
  });

  it("sends nothing when replying to one's own comment", async () => {
    const [author, other] = [await createUser(), await createUser()];
    const { parent } = await parentOn("question", author, other);
    const res = await post(`/api/comments/${parent}/replies`, { token: author.token, body: { content: "me again" } });
    expect(res.status).toBe(200);
    expect(await notificationCount()).toBe(0);
  });
});

type Kind = "question" | "article" | "answer" | "comment";

interface Item {
  id: number;
  ids: Partial<Record<(typeof IDS)[number], number>>;
}

/** A live item of a kind by `author`; its parent (if any) by `other`. */
async function makeItem(kind: Kind, author: TestUser, other: TestUser): Promise<Item> {
  switch (kind) {
    case "question": {
      const id = await createQuestion(author.user_id);
      return { id, ids: { question_id: id } };
    }
    case "article": {
      const id = await createArticle(author.user_id);
      return { id, ids: { article_id: id } };
    }
    case "answer": {
      const questionId = await createQuestion(other.user_id);
      const id = await createAnswer(author.user_id, questionId);
      return { id, ids: { question_id: questionId, answer_id: id } };
    }
    case "comment": {
      const questionId = await createQuestion(other.user_id);
      const answerId = await createAnswer(other.user_id, questionId);
      const id = await createComment(author.user_id, "answer", answerId);
      return { id, ids: { comment_id: id, answer_id: answerId, question_id: questionId } };
    }
  }
}

describe.each(["question", "article", "answer", "comment"] as const)("%s_deleted", (kind) => {
  const resource = `${kind}s`;
  const type = `${kind}_deleted`;

  it("is sent on trash with the ids and the row as it was, and not again on the hard delete", async () => {
    const [author, admin, other] = [await createUser(), await createAdmin(), await createUser()];
    const item = await makeItem(kind, author, other);
    const before = await row(resource, `${kind}_id`, item.id);
    const trashed = await post(`/api/${resource}/${item.id}/trash`, { token: admin.token });
    expect(trashed.status).toBe(200);
    const n = await expectOne(author, admin, type, item.ids);
    expect(JSON.parse(n.content_deleted as string)).toEqual({ ...before, delete_time: 0 });
    expect(await notificationsTo(other)).toHaveLength(0);

    // The record: content_deleted in the item's record shape without delete_time, and no key for the item.
    const record = await listed(author);
    const { delete_time: _hidden, ...visible } = before;
    expect(record.content_deleted).toEqual(visible);
    expect(Object.keys(record.relationships)).not.toContain(kind);
    expect(record.relationships.sender).toEqual(userSummary(admin));
    expect(Object.keys(record.relationships).sort()).toEqual(
      ["answer", "article", "comment", "question", "receiver", "reply", "sender"].filter((k) => k !== kind).sort(),
    );

    const deleted = await del(`/api/${resource}/${item.id}`, { token: admin.token });
    expect(deleted.status).toBe(200);
    expect(await notificationsTo(author)).toHaveLength(1);
    expect(await unread(author)).toBe(1);
  });

  it("is sent on a hard delete of a live item, and none on untrash", async () => {
    const [author, admin, other] = [await createUser(), await createAdmin(), await createUser()];
    const item = await makeItem(kind, author, other);
    const before = await row(resource, `${kind}_id`, item.id);
    const res = await del(`/api/${resource}/${item.id}`, { token: admin.token });
    expect(res.status).toBe(200);
    const n = await expectOne(author, admin, type, item.ids);
    expect(JSON.parse(n.content_deleted as string)).toEqual({ ...before, delete_time: 0 });

    const second = await makeItem(kind, author, other);
    await env.DB.prepare(`UPDATE ${resource} SET delete_time = 5 WHERE ${kind}_id = ?`).bind(second.id).run();
    const untrashed = await post(`/api/${resource}/${second.id}/untrash`, { token: admin.token });
    expect(untrashed.status).toBe(200);
    expect(await notificationsTo(author)).toHaveLength(1);
  });

  it("is sent for each live item of a batch trash and of a batch delete, skipping trashed ones", async () => {
    const [author, admin, other] = [await createUser(), await createAdmin(), await createUser()];
    const [a, b] = [await makeItem(kind, author, other), await makeItem(kind, author, other)];
    const trashed = await post(`/api/${resource}/${a.id},${b.id}/trash`, { token: admin.token });
    expect(trashed.status).toBe(200);
    expect((await notificationsTo(author)).map((n) => n[`${kind}_id`])).toEqual([a.id, b.id]);
    expect(await unread(author)).toBe(2);

    const c = await makeItem(kind, author, other);
    const deleted = await del(`/api/${resource}/${a.id},${c.id}`, { token: admin.token });
    expect(deleted.status).toBe(200);
    expect((await notificationsTo(author)).map((n) => n[`${kind}_id`])).toEqual([a.id, b.id, c.id]);
    expect(await unread(author)).toBe(3);
  });

  it("is not sent for the actor's own content: an administrator's, or an author's own delete", async () => {
    const [admin, other] = [await createAdmin(), await createUser()];
    const own = await makeItem(kind, admin, other);
    expect((await post(`/api/${resource}/${own.id}/trash`, { token: admin.token })).status).toBe(200);
    expect((await del(`/api/${resource}/${own.id}`, { token: admin.token })).status).toBe(200);

    await setOptions({
      [`${kind}_can_delete`]: true,
      [`${kind}_can_delete_only_no_comment`]: false,
      [`${kind}_can_delete_only_no_answer`]: false,
    });
    const author = await createUser();
    const item = await makeItem(kind, author, other);
    const res = await del(`/api/${resource}/${item.id}`, { token: author.token });
    expect(res.status).toBe(200);
    expect(await notificationCount()).toBe(0);
  });
});

describe("cascaded removals", () => {
  it("notify only the author of the item deleted, not the authors of its answers and comments", async () => {
    const [author, answerer, commenter, admin] = [
      await createUser(),
      await createUser(),
      await createUser(),
      await createAdmin(),
    ];
    const questionId = await createQuestion(author.user_id);
    const answerId = await createAnswer(answerer.user_id, questionId);
    const comment = await createComment(commenter.user_id, "answer", answerId);
    await createComment(commenter.user_id, "question", questionId);
    await createComment(answerer.user_id, "comment", comment);
    const res = await del(`/api/questions/${questionId}`, { token: admin.token });
    expect(res.status).toBe(200);
    await expectOne(author, admin, "question_deleted", { question_id: questionId });
    expect(await notificationCount()).toBe(1);
  });

  it("notify nothing for topics", async () => {
    const admin = await createAdmin();
    const topic = await env.DB.prepare("INSERT INTO topics (name) VALUES ('t-notify') RETURNING topic_id AS id").first<{
      id: number;
    }>();
    expect((await post(`/api/topics/${topic!.id}/trash`, { token: admin.token })).status).toBe(200);
    expect((await del(`/api/topics/${topic!.id}`, { token: admin.token })).status).toBe(200);
    expect(await notificationCount()).toBe(0);
  });
});

describe("comment_deleted ids", () => {
  it.each([
    ["question", (q: number) => ({ question_id: q })],
    ["article", (_q: number, a: number) => ({ article_id: a })],
    ["comment", () => ({})],
  ] as const)("carries the ids of a comment on a %s", async (on, extra) => {
    const [author, admin, other] = [await createUser(), await createAdmin(), await createUser()];
    const questionId = await createQuestion(other.user_id);
    const articleId = await createArticle(other.user_id);
    const targetId =
      on === "question"
        ? questionId
        : on === "article"
          ? articleId
          : await createComment(other.user_id, "question", questionId);
    const id = await createComment(author.user_id, on, targetId);
    expect((await post(`/api/comments/${id}/trash`, { token: admin.token })).status).toBe(200);
    await expectOne(author, admin, "comment_deleted", { comment_id: id, ...extra(questionId, articleId) });
  });
});

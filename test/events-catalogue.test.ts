import { describe, expect, it } from "vitest";
import { EVENT_TYPES, type EventType, entryOf } from "../src/modules/events/catalogue";
import { type ApiResponse, call } from "./helpers/api";
import { createAnswer, createArticle, createComment, createQuestion, createTopic } from "./helpers/content";
import { createAdmin, createUser, type TestUser } from "./helpers/factories";
import { type LiveSocket, openLive, ticketFor } from "./helpers/live";
import { codeFromMail } from "./helpers/mailbox";
import { createWebhook, recordingQueue } from "./helpers/webhooks";

interface People {
  author: TestUser;
  other: TestUser;
  admin: TestUser;
  topic: number;
}

/** What a case writes, and where its event must arrive with what data. */
interface Outcome {
  write: (
    send: (method: string, path: string, token?: string, body?: unknown) => Promise<ApiResponse>,
  ) => Promise<ApiResponse>;
  /** The public channel its socket holds (for types that go to channels). */
  channel?: string;
  /** The member whose own socket receives it (for types that go to members). */
  member?: TestUser;
  data: Record<string, unknown>;
}

type Case = (people: People) => Promise<Outcome>;

const trashed = { delete_time: 1 };

/**
 * The five events of a titled post (questions, articles): created on a topic's page, the rest on its own. Edits are
 * an administrator's: the default settings let no author edit.
 */
type Action = "created" | "updated" | "trashed" | "untrashed" | "deleted";

function titled<K extends "question" | "article">(kind: K): Record<`${K}.${Action}`, Case> {
  const create = kind === "question" ? createQuestion : createArticle;
  const path = `/api/${kind}s`;
  const byAction: Record<Action, Case> = {
    created: async ({ author, topic }) => ({
      write: (send) =>
        send("POST", path, author.token, { title: "A new title", content_markdown: "body", topic_ids: [topic] }),
      channel: `topic:${topic}`,
      data: { title: "A new title", user_id: author.user_id },
    }),
    updated: async ({ author, admin }) => {
      const id = await create(author.user_id);
      return {
        write: (send) => send("PATCH", `${path}/${id}`, admin.token, { title: "Edited title" }),
        channel: `${kind}:${id}`,
        data: { [`${kind}_id`]: id, title: "Edited title" },
      };
    },
    trashed: async ({ author, admin }) => {
      const id = await create(author.user_id);
      return {
        write: (send) => send("POST", `${path}/${id}/trash`, admin.token),
        channel: `${kind}:${id}`,
        data: { [`${kind}_id`]: id },
      };
    },
    untrashed: async ({ author, admin }) => {
      const id = await create(author.user_id, trashed);
      return {
        write: (send) => send("POST", `${path}/${id}/untrash`, admin.token),
        channel: `${kind}:${id}`,
        data: { [`${kind}_id`]: id },
      };
    },
    deleted: async ({ author, admin }) => {
      const id = await create(author.user_id);
      return {
        write: (send) => send("DELETE", `${path}/${id}`, admin.token),
        channel: `${kind}:${id}`,
        data: { [`${kind}_id`]: id },
      };
    },
  };
  return Object.fromEntries(Object.entries(byAction).map(([action, make]) => [`${kind}.${action}`, make])) as Record<
    `${K}.${Action}`,
    Case
  >;
}

const cases: Record<EventType, Case> = {
  ...titled("question"),
  ...titled("article"),
  "answer.created": async ({ author, other }) => {
    const question = await createQuestion(author.user_id);
    return {
      write: (send) => send("POST", `/api/questions/${question}/answers`, other.token, { content_markdown: "new" }),
      channel: `question:${question}`,
      data: { question_id: question, content_markdown: "new" },
    };
  },
  "answer.updated": async ({ author, admin }) => {
    const question = await createQuestion(author.user_id);
    const id = await createAnswer(author.user_id, question);
    return {
      write: (send) => send("PATCH", `/api/answers/${id}`, admin.token, { content_markdown: "edited" }),
      channel: `question:${question}`,
      data: { answer_id: id, content_markdown: "edited" },
    };
  },
  "answer.trashed": async ({ author, admin }) => {
    const question = await createQuestion(author.user_id);
    const id = await createAnswer(author.user_id, question);
    return {
      write: (send) => send("POST", `/api/answers/${id}/trash`, admin.token),
      channel: `question:${question}`,
      data: { answer_id: id, question_id: question },
    };
  },
  "answer.untrashed": async ({ author, admin }) => {
    const question = await createQuestion(author.user_id);
    const id = await createAnswer(author.user_id, question, trashed);
    return {
      write: (send) => send("POST", `/api/answers/${id}/untrash`, admin.token),
      channel: `question:${question}`,
      data: { answer_id: id },
    };
  },
  "answer.deleted": async ({ author, admin }) => {
    const question = await createQuestion(author.user_id);
    const id = await createAnswer(author.user_id, question);
    return {
      write: (send) => send("DELETE", `/api/answers/${id}`, admin.token),
      channel: `question:${question}`,
      data: { answer_id: id, question_id: question },
    };
  },
  "comment.created": async ({ author, other }) => {
    const article = await createArticle(author.user_id);
    return {
      write: (send) => send("POST", `/api/articles/${article}/comments`, other.token, { content: "new comment" }),
      channel: `article:${article}`,
      data: { commentable_type: "article", commentable_id: article, content: "new comment" },
    };
  },
  "comment.updated": async ({ author, admin }) => {
    const article = await createArticle(author.user_id);
    const id = await createComment(author.user_id, "article", article);
    return {
      write: (send) => send("PATCH", `/api/comments/${id}`, admin.token, { content: "edited comment" }),
      channel: `article:${article}`,
      data: { comment_id: id, content: "edited comment" },
    };
  },
  "comment.trashed": async ({ author, admin }) => {
    const article = await createArticle(author.user_id);
    const id = await createComment(author.user_id, "article", article);
    return {
      write: (send) => send("POST", `/api/comments/${id}/trash`, admin.token),
      channel: `article:${article}`,
      data: { comment_id: id, commentable_type: "article", commentable_id: article },
    };
  },
  "comment.untrashed": async ({ author, admin }) => {
    const article = await createArticle(author.user_id);
    const id = await createComment(author.user_id, "article", article, trashed);
    return {
      write: (send) => send("POST", `/api/comments/${id}/untrash`, admin.token),
      channel: `article:${article}`,
      data: { comment_id: id },
    };
  },
  "comment.deleted": async ({ author, admin }) => {
    const article = await createArticle(author.user_id);
    const id = await createComment(author.user_id, "article", article);
    return {
      write: (send) => send("DELETE", `/api/comments/${id}`, admin.token),
      channel: `article:${article}`,
      data: { comment_id: id, commentable_type: "article", commentable_id: article },
    };
  },
  "topic.created": async ({ admin }) => ({
    write: (send) => send("POST", "/api/topics", admin.token, { name: "A new topic", description: "about it" }),
    data: { name: "A new topic", description: "about it" },
  }),
  "topic.updated": async ({ admin, topic }) => ({
    write: (send) => send("PATCH", `/api/topics/${topic}`, admin.token, { description: "edited" }),
    channel: `topic:${topic}`,
    data: { topic_id: topic, description: "edited" },
  }),
  "topic.trashed": async ({ admin, topic }) => ({
    write: (send) => send("POST", `/api/topics/${topic}/trash`, admin.token),
    channel: `topic:${topic}`,
    data: { topic_id: topic },
  }),
  "topic.untrashed": async ({ admin }) => {
    const id = await createTopic(trashed);
    return {
      write: (send) => send("POST", `/api/topics/${id}/untrash`, admin.token),
      channel: `topic:${id}`,
      data: { topic_id: id },
    };
  },
  "topic.deleted": async ({ admin, topic }) => ({
    write: (send) => send("DELETE", `/api/topics/${topic}`, admin.token),
    channel: `topic:${topic}`,
    data: { topic_id: topic },
  }),
  "vote.updated": async ({ author, other }) => {
    const question = await createQuestion(author.user_id);
    return {
      write: (send) => send("POST", `/api/questions/${question}/voters`, other.token, { type: "down" }),
      channel: `question:${question}`,
      data: { votable_type: "question", votable_id: question, vote_count: -1, vote_up_count: 0, vote_down_count: 1 },
    };
  },
  "follow.created": async ({ author, other }) => {
    const question = await createQuestion(author.user_id);
    return {
      write: (send) => send("POST", `/api/questions/${question}/followers`, other.token),
      channel: `question:${question}`,
      data: { followable_type: "question", followable_id: question, user_id: other.user_id, follower_count: 1 },
    };
  },
  "follow.deleted": async ({ author, other }) => {
    const article = await createArticle(author.user_id);
    await call("POST", `/api/articles/${article}/followers`, { token: other.token });
    return {
      write: (send) => send("DELETE", `/api/articles/${article}/followers`, other.token),
      channel: `article:${article}`,
      data: { followable_type: "article", followable_id: article, user_id: other.user_id, follower_count: 0 },
    };
  },
  "notification.created": async ({ author, other }) => {
    const question = await createQuestion(author.user_id);
    return {
      write: (send) => send("POST", `/api/questions/${question}/comments`, other.token, { content: "hello" }),
      member: author,
      data: { type: "question_commented", receiver_id: author.user_id, sender_id: other.user_id },
    };
  },
  "unread.updated": async ({ author, other }) => {
    const article = await createArticle(author.user_id);
    return {
      write: (send) => send("POST", `/api/articles/${article}/comments`, other.token, { content: "hello" }),
      member: author,
      data: { notification_unread: 1, inbox_unread: 0 },
    };
  },
  "message.created": async ({ author, other }) => ({
    write: (send) => send("POST", `/api/inbox/${author.user_id}`, other.token, { content_markdown: "only for you" }),
    member: author,
    data: { sender_id: other.user_id, receiver_id: author.user_id, content_markdown: "only for you", read_time: 0 },
  }),
  "report.created": async ({ author, other }) => {
    const question = await createQuestion(author.user_id);
    return {
      write: (send) => send("POST", `/api/reports/question:${question}`, other.token, { reason: "spam" }),
      data: { reportable_type: "question", reportable_id: question, user_id: other.user_id, reason: "spam" },
    };
  },
  "user.created": async () => {
    const email = `newcomer${crypto.randomUUID().slice(0, 8)}@example.test`;
    await call("POST", "/api/user/register/email", { body: { email } });
    const body = { email, email_code: await codeFromMail(email), username: "newcomer", password: "a long passphrase" };
    return { write: (send) => send("POST", "/api/users", undefined, body), data: { username: "newcomer" } };
  },
  "user.updated": async ({ author }) => ({
    write: (send) => send("PATCH", "/api/user", author.token, { headline: "A new headline" }),
    data: { user_id: author.user_id, headline: "A new headline" },
  }),
  "user.disabled": async ({ other, admin }) => ({
    write: (send) => send("POST", `/api/users/${other.user_id}/disable`, admin.token),
    data: { user_id: other.user_id, username: other.username },
  }),
};

const sockets: LiveSocket[] = [];

describe.each(EVENT_TYPES)("%s", (type) => {
  const { audience } = entryOf(type);
  it(`reaches its audience (${audience.join(", ")}) and no one else`, async () => {
    const people = { author: await createUser(), other: await createUser(), admin: await createAdmin(), topic: 0 };
    people.topic = await createTopic();
    const outcome = await cases[type](people);
    await createWebhook({ url: "https://hooks.example.com/every-type" });
    const { bindings, sent } = recordingQueue();
    const open = async (query: Record<string, string>) => {
      const live = await openLive(query);
      sockets.push(live);
      await live.next((message) => message.type === "live.ready");
      return live;
    };
    const channel = outcome.channel ? await open({ channels: outcome.channel }) : null;
    const member = outcome.member ? await open({ ticket: await ticketFor(outcome.member.token) }) : null;
    // Someone else, holding the same channel: a member's private event never reaches them.
    const bystander = await open({
      ticket: await ticketFor(people.admin.token),
      ...(outcome.channel && { channels: outcome.channel }),
    });

    const res = await outcome.write((method, path, token, body) => call(method, path, { token, body, env: bindings }));
    expect([res.status, res.body.code], JSON.stringify(res.body)).toEqual([200, 0]);

    if (audience.includes("channels") && channel) {
      expect((await channel.next((message) => message.type === type)).data).toMatchObject(outcome.data);
    }
    if (audience.includes("members")) {
      expect(member, "a case for a member's event names the member").not.toBeNull();
      expect((await member!.next((message) => message.type === type)).data).toMatchObject(outcome.data);
      await bystander.settle();
      expect(bystander.events().filter((message) => message.type === type)).toEqual([]);
    }
    const queued = sent.filter((message) => message.event_type === type);
    if (audience.includes("webhooks")) {
      expect(queued).toHaveLength(1);
      expect(JSON.parse(queued[0]!.body)).toMatchObject({ type, data: outcome.data });
    } else expect(queued).toEqual([]);
    for (const live of sockets.splice(0)) live.socket.close();
  });
});

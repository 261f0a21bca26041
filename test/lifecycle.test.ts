/**
 * Trash, untrash and delete through HTTP for every content kind (docs/operations.md#trash-untrash-and-delete,
 * docs/permissions.md#author-edit-and-delete-rules, docs/decisions.md#batch-operations-act-on-the-listed-ids;
 * docs/decisions.md#content): access, single and batch forms, the records answered, and the counters after each step —
 * counters count what a reader sees, so trash and untrash move them and a delete of a trashed item does not move them
 * again.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { now } from "../src/lib/time";
import { BASE, del, post } from "./helpers/api";
import { createAnswer, createArticle, createComment, createQuestion, createTopic, row } from "./helpers/content";
import { createAdmin, createUser, setOptions, type TestUser } from "./helpers/factories";

type Kind = "question" | "answer" | "article" | "comment" | "topic";

async function run(sql: string, ...values: unknown[]): Promise<void> {
  await env.DB.prepare(sql)
    .bind(...values)
    .run();
}

async function counter(table: string, idColumn: string, id: number, column: string): Promise<number> {
  return (await row<Record<string, number>>(table, idColumn, id))[column]!;
}

/** A follow row with the counters a follow moves, as the FOLLOW family would leave them. */
async function follow(user: TestUser, type: "question" | "article" | "topic", id: number): Promise<void> {
  const table = `${type}s`;
  await run(
    "INSERT INTO follows (user_id, followable_id, followable_type, create_time) VALUES (?, ?, ?, ?)",
    user.user_id,
    id,
    type,
    now(),
  );
  await run(`UPDATE ${table} SET follower_count = follower_count + 1 WHERE ${type}_id = ?`, id);
  await run(`UPDATE users SET following_${type}_count = following_${type}_count + 1 WHERE user_id = ?`, user.user_id);
}

/**
 * Two items of a kind that feed the same counters elsewhere, so each counter equals the number of the two a
 * reader sees. `fed` reads those counters.
 */
interface Pair {
  ids: [number, number];
  author: TestUser;
  fed(): Promise<Record<string, number>>;
}

interface KindCase {
  type: Kind;
  resource: string;
  table: string;
  notFound: number;
  /** The include names and the relationship keys they produce. */
  include: string;
  make(): Promise<Pair>;
}

async function postPair(type: "question" | "article"): Promise<Pair> {
  const author = await createUser();
  const follower = await createUser();
  const topic = await createTopic();
  const create = type === "question" ? createQuestion : createArticle;
  const ids: [number, number] = [
    await create(author.user_id, { topic_ids: [topic] }),
    await create(author.user_id, { topic_ids: [topic] }),
  ];
  for (const id of ids) await follow(follower, type, id);
  return {
    ids,
    author,
    fed: async () => ({
      [`author.${type}_count`]: await counter("users", "user_id", author.user_id, `${type}_count`),
      [`topic.${type}_count`]: await counter("topics", "topic_id", topic, `${type}_count`),
      [`follower.following_${type}_count`]: await counter(
        "users",
        "user_id",
        follower.user_id,
        `following_${type}_count`,
      ),
    }),
  };
}

const cases: KindCase[] = [
  {
    type: "question",
    resource: "questions",
    table: "questions",
    notFound: 202001,
    include: "user,topics,is_following,voting",
    make: () => postPair("question"),
  },
  {
    type: "article",
    resource: "articles",
    table: "articles",
    notFound: 206001,
    include: "user,topics,is_following,voting",
    make: () => postPair("article"),
  },
  {
    type: "answer",
    resource: "answers",
    table: "answers",
    notFound: 203001,
    include: "user,question,voting",
    async make() {
      const author = await createUser();
      const question = await createQuestion((await createUser()).user_id);
      const ids: [number, number] = [
        await createAnswer(author.user_id, question),
        await createAnswer(author.user_id, question),
      ];
      return {
        ids,
        author,
        fed: async () => ({
          "author.answer_count": await counter("users", "user_id", author.user_id, "answer_count"),
          "question.answer_count": await counter("questions", "question_id", question, "answer_count"),
        }),
      };
    },
  },
  {
    type: "comment",
    resource: "comments",
    table: "comments",
    notFound: 204001,
    include: "user,voting",
    async make() {
      const author = await createUser();
      const question = await createQuestion((await createUser()).user_id);
      const ids: [number, number] = [
        await createComment(author.user_id, "question", question),
        await createComment(author.user_id, "question", question),
      ];
      return {
        ids,
        author,
        fed: async () => ({
          "question.comment_count": await counter("questions", "question_id", question, "comment_count"),
        }),
      };
    },
  },
  {
    type: "topic",
    resource: "topics",
    table: "topics",
    notFound: 205001,
    include: "is_following",
    async make() {
      const follower = await createUser();
      const ids: [number, number] = [await createTopic(), await createTopic()];
      for (const id of ids) await follow(follower, "topic", id);
      return {
        ids,
        author: follower,
        fed: async () => ({
          "follower.following_topic_count": await counter(
            "users",
            "user_id",
            follower.user_id,
            "following_topic_count",
          ),
        }),
      };
    },
  },
];

const each = (fed: Record<string, number>, n: number) => Object.fromEntries(Object.keys(fed).map((key) => [key, n]));

const coverUrls = {
  original: `${BASE}/static/default/topic_cover.jpg`,
  small: `${BASE}/static/default/topic_cover_small.jpg`,
  middle: `${BASE}/static/default/topic_cover_middle.jpg`,
  large: `${BASE}/static/default/topic_cover_large.jpg`,
};

async function disabledUserToken(): Promise<string> {
  const user = await createUser();
  await run("UPDATE users SET disable_time = ? WHERE user_id = ?", now(), user.user_id);
  return user.token;
}

describe.each(cases)("trash, untrash and delete of $resource", (kind) => {
  const idColumn = `${kind.type}_id`;
  const path = (ids: (number | string)[], action?: string) =>
    `/api/${kind.resource}/${ids.join(",")}${action ? `/${action}` : ""}`;
  /** The record an administrator sees: the stored row, topics with cover URLs. */
  const record = async (id: number) => {
    const stored = await row<Record<string, unknown>>(kind.table, idColumn, id);
    return kind.type === "topic" ? { ...stored, cover: coverUrls } : stored;
  };
  const deleteTime = async (id: number) =>
    (await row<{ delete_time: number } | null>(kind.table, idColumn, id))?.delete_time;

  it("refuses anonymous callers with 201001, users with 201002 and disabled users' tokens with 201001", async () => {
    const { ids, fed } = await kind.make();
    const user = await createUser();
    const disabled = await disabledUserToken();
    for (const target of [
      path([ids[0]], "trash"),
      path([ids[0]], "untrash"),
      path(ids, "trash"),
      path(ids, "untrash"),
    ]) {
      const anonymous = await post(target);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.code).toBe(201001);
      const refused = await post(target, { token: user.token });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe(201002);
      const stale = await post(target, { token: disabled });
      expect(stale.status).toBe(401);
      expect(stale.body.code).toBe(201001);
    }
    const anonymousDelete = await del(path(ids));
    expect(anonymousDelete.status).toBe(401);
    expect(anonymousDelete.body.code).toBe(201001);
    const userBatchDelete = await del(path(ids), { token: user.token });
    expect(userBatchDelete.status).toBe(403);
    expect(userBatchDelete.body.code).toBe(201002);
    expect(await deleteTime(ids[0])).toBe(0);
    expect(await deleteTime(ids[1])).toBe(0);
    expect(await fed()).toEqual(each(await fed(), 2));
  });

  it("trashes one item, answers its record with delete_time, and stops counting it", async () => {
    const admin = await createAdmin();
    const { ids, fed } = await kind.make();
    expect(await fed()).toEqual(each(await fed(), 2));
    const before = now();
    const res = await post(path([ids[0]], "trash"), { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body.data.delete_time).toBeGreaterThanOrEqual(before);
    expect(res.body.data).toEqual(await record(ids[0]));
    expect(res.body.data.relationships).toBeUndefined();
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    expect(await deleteTime(ids[1])).toBe(0);
    expect(await fed()).toEqual(each(await fed(), 1));
  });

  it("answers the kind's not-found code for a single item already in the trash, or missing", async () => {
    const admin = await createAdmin();
    const { ids, fed } = await kind.make();
    await post(path([ids[0]], "trash"), { token: admin.token });
    const trashedAt = await deleteTime(ids[0]);
    for (const target of [path([ids[0]], "trash"), path([ids[1] + 1000], "trash")]) {
      const res = await post(target, { token: admin.token });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(kind.notFound);
    }
    expect(await deleteTime(ids[0])).toBe(trashedAt);
    expect(await fed()).toEqual(each(await fed(), 1));
  });

  it("untrashes one item, answers its record with delete_time 0, and counts it again", async () => {
    const admin = await createAdmin();
    const { ids, fed } = await kind.make();
    await post(path([ids[0]], "trash"), { token: admin.token });
    const res = await post(path([ids[0]], "untrash"), { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body.data.delete_time).toBe(0);
    expect(res.body.data).toEqual(await record(ids[0]));
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    expect(await fed()).toEqual(each(await fed(), 2));

    for (const target of [path([ids[0]], "untrash"), path([ids[1] + 1000], "untrash")]) {
      const refused = await post(target, { token: admin.token });
      expect(refused.status).toBe(404);
      expect(refused.body.code).toBe(kind.notFound);
    }
    expect(await fed()).toEqual(each(await fed(), 2));
  });

  it("trashes and untrashes lists, in the order listed, skipping unknown ids and items in the wrong state", async () => {
    const admin = await createAdmin();
    const { ids, fed } = await kind.make();
    const missing = ids[1] + 1000;

    const trashed = await post(path([ids[1], missing, ids[0]], "trash"), { token: admin.token });
    expect(trashed.status).toBe(200);
    expect(trashed.body.code).toBe(0);
    expect(trashed.body.pagination).toBeUndefined();
    expect(trashed.body.data).toEqual([await record(ids[1]), await record(ids[0])]);
    expect(trashed.body.data.every((item: { delete_time: number }) => item.delete_time > 0)).toBe(true);
    expect(trashed.roundTrips).toBeLessThanOrEqual(2);
    expect(await fed()).toEqual(each(await fed(), 0));

    const again = await post(path(ids, "trash"), { token: admin.token });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual([]);
    expect(await fed()).toEqual(each(await fed(), 0));

    const untrashed = await post(path([missing, ids[0]], "untrash"), { token: admin.token });
    expect(untrashed.status).toBe(200);
    expect(untrashed.body.data).toEqual([await record(ids[0])]);
    expect(untrashed.body.data[0].delete_time).toBe(0);
    expect(untrashed.roundTrips).toBeLessThanOrEqual(2);
    expect(await fed()).toEqual(each(await fed(), 1));

    const mixed = await post(path(ids, "untrash"), { token: admin.token });
    expect(mixed.body.data).toEqual([await record(ids[1])]);
    expect(await fed()).toEqual(each(await fed(), 2));
  });

  it("answers the requested relationships", async () => {
    const admin = await createAdmin();
    const { ids } = await kind.make();
    const res = await post(path([ids[0]], "trash"), {
      token: admin.token,
      query: { include: `${kind.include},unknown` },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data.relationships).sort()).toEqual(kind.include.split(",").sort());
    if (kind.include.includes("voting")) expect(res.body.data.relationships.voting).toBe("");
    if (kind.include.includes("is_following")) expect(res.body.data.relationships.is_following).toBe(false);
    expect(res.roundTrips).toBeLessThanOrEqual(2);
  });

  it("refuses more than 100 ids or a part that is not an id with 200001, before acting", async () => {
    const admin = await createAdmin();
    const { ids, fed } = await kind.make();
    const tooMany = [ids[0], ...Array.from({ length: 100 }, (_, i) => ids[1] + 1000 + i)];
    for (const list of [tooMany, [ids[0], "x"], [ids[0], ""], [ids[0], "1.5"], [ids[0], "-2"]]) {
      for (const [send, target] of [
        [post, path(list, "trash")],
        [post, path(list, "untrash")],
        [del, path(list)],
      ] as const) {
        const res = await send(target, { token: admin.token });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe(200001);
        expect(Object.keys(res.body.errors)).toEqual([target.endsWith("trash") ? `${kind.type}_ids` : idColumn]);
      }
    }
    const exactly100 = await post(path(tooMany.slice(0, 100), "trash"), { token: admin.token });
    expect(exactly100.status).toBe(200);
    expect(exactly100.body.data).toEqual([await record(ids[0])]);
    expect(await fed()).toEqual(each(await fed(), 1));
  });

  it("deletes a list for administrators, skipping unknown ids, live or trashed", async () => {
    const admin = await createAdmin();
    const { ids, fed } = await kind.make();
    await post(path([ids[0]], "trash"), { token: admin.token });
    const res = await del(path([ids[0], ids[1] + 1000, ids[1]]), { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ code: 0, data: null });
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    expect(await deleteTime(ids[0])).toBeUndefined();
    expect(await deleteTime(ids[1])).toBeUndefined();
    expect(await fed()).toEqual(each(await fed(), 0));

    const nothing = await del(path([ids[0], ids[1]]), { token: admin.token });
    expect(nothing.body).toEqual({ code: 0, data: null });
  });

  it("lets an administrator delete one trashed item, counting it out only once", async () => {
    const admin = await createAdmin();
    const { ids, fed } = await kind.make();
    await post(path([ids[0]], "trash"), { token: admin.token });
    expect(await fed()).toEqual(each(await fed(), 1));
    const res = await del(path([ids[0]]), { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ code: 0, data: null });
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    expect(await deleteTime(ids[0])).toBeUndefined();
    expect(await fed()).toEqual(each(await fed(), 1));

    const live = await del(path([ids[1]]), { token: admin.token });
    expect(live.body).toEqual({ code: 0, data: null });
    expect(await fed()).toEqual(each(await fed(), 0));
  });
});

/**
 * Delete rules of docs/permissions.md#author-edit-and-delete-rules for authors, each switch set through the site
 * settings.
 */
const authorCases = [
  {
    type: "question",
    resource: "questions",
    notFound: 202001,
    codes: { off: 202007, notAuthor: 202008, timeout: 202009, hasComment: 202011, hasAnswer: 202010 },
  },
  {
    type: "answer",
    resource: "answers",
    notFound: 203001,
    codes: { off: 203006, notAuthor: 203007, timeout: 203008, hasComment: 203009 },
  },
  {
    type: "article",
    resource: "articles",
    notFound: 206001,
    codes: { off: 206006, notAuthor: 206007, timeout: 206008, hasComment: 206009 },
  },
  {
    type: "comment",
    resource: "comments",
    notFound: 204001,
    codes: { off: 204005, notAuthor: 204006, timeout: 204007 },
  },
] as const;

describe.each(authorCases)("DELETE /api/$resource/{id} by its author", (kind) => {
  const key = `${kind.type}_can_delete`;
  /** Every rule off except the switch: the author may delete. */
  const allowing = {
    [key]: true,
    [`${key}_before`]: 0,
    ...(kind.type !== "comment" && { [`${key}_only_no_comment`]: false }),
    ...(kind.type === "question" && { [`${key}_only_no_answer`]: false }),
  };

  async function item(author: TestUser, fields: { create_time?: number } = {}): Promise<number> {
    const other = await createUser();
    switch (kind.type) {
      case "question":
        return createQuestion(author.user_id, fields);
      case "article":
        return createArticle(author.user_id, fields);
      case "answer":
        return createAnswer(author.user_id, await createQuestion(other.user_id), fields);
      case "comment":
        return createComment(author.user_id, "question", await createQuestion(other.user_id), fields);
    }
  }

  const path = (id: number) => `/api/${kind.resource}/${id}`;
  const exists = async (id: number) => Boolean(await row(`${kind.type}s`, `${kind.type}_id`, id));

  async function expectRefused(id: number, token: string, status: number, code: number) {
    const res = await del(path(id), { token });
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
    expect(await exists(id)).toBe(true);
  }

  it("lets the author delete when every rule allows it, within the write budget", async () => {
    await setOptions(allowing);
    const author = await createUser();
    const id = await item(author);
    const res = await del(path(id), { token: author.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ code: 0, data: null });
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    expect(await exists(id)).toBe(false);
  });

  it("answers the not-found code for a missing or trashed item, before any rule", async () => {
    await setOptions({ [key]: false });
    const admin = await createAdmin();
    const author = await createUser();
    const id = await item(author);
    const missing = await del(path(id + 1000), { token: author.token });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe(kind.notFound);
    await post(`/api/${kind.resource}/${id}/trash`, { token: admin.token });
    await expectRefused(id, author.token, 404, kind.notFound);
    await expectRefused(id, (await createUser()).token, 404, kind.notFound);
  });

  it("refuses anyone but the author first, whatever the settings", async () => {
    await setOptions(allowing);
    const id = await item(await createUser());
    await expectRefused(id, (await createUser()).token, 403, kind.codes.notAuthor);
    await setOptions({ [key]: false });
    await expectRefused(id, (await createUser()).token, 403, kind.codes.notAuthor);
  });

  it("refuses when authors may not delete", async () => {
    await setOptions({ ...allowing, [key]: false });
    const author = await createUser();
    await expectRefused(await item(author), author.token, 403, kind.codes.off);
  });

  it("refuses after the time limit", async () => {
    await setOptions({ ...allowing, [`${key}_before`]: 60 });
    const author = await createUser();
    await expectRefused(await item(author, { create_time: now() - 120 }), author.token, 403, kind.codes.timeout);
    const recent = await item(author, { create_time: now() - 10 });
    const res = await del(path(recent), { token: author.token });
    expect(res.body.code).toBe(0);
  });

  if ("hasComment" in kind.codes) {
    const hasComment = kind.codes.hasComment;
    it("refuses an item with comments when only_no_comment is on", async () => {
      await setOptions({ ...allowing, [`${key}_only_no_comment`]: true });
      const author = await createUser();
      const id = await item(author);
      await createComment((await createUser()).user_id, kind.type as "question" | "answer" | "article", id);
      await expectRefused(id, author.token, 403, hasComment);
    });
  }

  if ("hasAnswer" in kind.codes) {
    const hasAnswer = kind.codes.hasAnswer;
    it("refuses a question with answers when only_no_answer is on", async () => {
      await setOptions({ ...allowing, [`${key}_only_no_answer`]: true });
      const author = await createUser();
      const id = await item(author);
      await createAnswer((await createUser()).user_id, id);
      await expectRefused(id, author.token, 403, hasAnswer);
    });
  }

  it("lets an administrator delete whatever the settings say", async () => {
    await setOptions({ [key]: false });
    const admin = await createAdmin();
    const id = await item(await createUser({ create_time: now() - 100_000 }));
    const res = await del(path(id), { token: admin.token });
    expect(res.body).toEqual({ code: 0, data: null });
    expect(await exists(id)).toBe(false);
  });
});

describe("DELETE /api/topics/{topic_id}", () => {
  it("is for administrators only, and a missing topic is a silent success", async () => {
    const admin = await createAdmin();
    const user = await createUser();
    const topic = await createTopic();
    const refused = await del(`/api/topics/${topic}`, { token: user.token });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(201002);
    expect(await row("topics", "topic_id", topic)).toBeTruthy();

    const missing = await del(`/api/topics/${topic + 1000}`, { token: admin.token });
    expect(missing.status).toBe(200);
    expect(missing.body).toEqual({ code: 0, data: null });
  });
});

describe("POST /api/topics/{topic_ids}/untrash", () => {
  it("keeps a topic in the trash while a live topic has its name (case-insensitively)", async () => {
    const admin = await createAdmin();
    const trashed = await createTopic({ name: "Rust" });
    await post(`/api/topics/${trashed}/trash`, { token: admin.token });
    const live = await createTopic({ name: "rust" });

    const single = await post(`/api/topics/${trashed}/untrash`, { token: admin.token });
    expect(single.status).toBe(409);
    expect(single.body.code).toBe(200001);
    expect(Object.keys(single.body.errors)).toEqual(["name"]);
    const batch = await post(`/api/topics/${trashed},${live}/untrash`, { token: admin.token });
    expect(batch.body.data).toEqual([]);
    expect((await row<{ delete_time: number }>("topics", "topic_id", trashed)).delete_time).toBeGreaterThan(0);
  });

  it("untrashes only the first of listed trashed topics that share a name", async () => {
    const admin = await createAdmin();
    const first = await createTopic({ name: "Go" });
    await post(`/api/topics/${first}/trash`, { token: admin.token });
    const second = await createTopic({ name: "GO" });
    await post(`/api/topics/${second}/trash`, { token: admin.token });

    const res = await post(`/api/topics/${second},${first}/untrash`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.data.map((t: { topic_id: number }) => t.topic_id)).toEqual([first]);
    expect((await row<{ delete_time: number }>("topics", "topic_id", second)).delete_time).toBeGreaterThan(0);
  });
});

describe("comments and replies in the trash", () => {
  it("moves the parent's reply_count when a reply is trashed, untrashed and deleted", async () => {
    const admin = await createAdmin();
    const user = await createUser();
    const question = await createQuestion(user.user_id);
    const parent = await createComment(user.user_id, "question", question);
    const [first, second] = [
      await createComment(user.user_id, "comment", parent),
      await createComment(user.user_id, "comment", parent),
    ];
    const replies = () => counter("comments", "comment_id", parent, "reply_count");
    expect(await replies()).toBe(2);

    await post(`/api/comments/${first}/trash`, { token: admin.token });
    expect(await replies()).toBe(1);
    await post(`/api/comments/${first}/untrash`, { token: admin.token });
    expect(await replies()).toBe(2);
    await post(`/api/comments/${first},${second}/trash`, { token: admin.token });
    expect(await replies()).toBe(0);
    await del(`/api/comments/${first}`, { token: admin.token });
    expect(await replies()).toBe(0);
    await post(`/api/comments/${second}/untrash`, { token: admin.token });
    expect(await replies()).toBe(1);
    // The question's comment_count counts its own comments, not replies.
    expect(await counter("questions", "question_id", question, "comment_count")).toBe(1);
  });

  it.each(["answer", "article"] as const)("moves the comment_count of the %s a comment is on", async (target) => {
    const admin = await createAdmin();
    const user = await createUser();
    const id =
      target === "answer"
        ? await createAnswer(user.user_id, await createQuestion(user.user_id))
        : await createArticle(user.user_id);
    const comment = await createComment(user.user_id, target, id);
    await post(`/api/comments/${comment}/trash`, { token: admin.token });
    expect(await counter(`${target}s`, `${target}_id`, id, "comment_count")).toBe(0);
    await post(`/api/comments/${comment}/untrash`, { token: admin.token });
    expect(await counter(`${target}s`, `${target}_id`, id, "comment_count")).toBe(1);
  });
});

describe("trashing a question", () => {
  it("leaves its answers counted for their authors: they stay live rows", async () => {
    const admin = await createAdmin();
    const asker = await createUser();
    const answerer = await createUser();
    const question = await createQuestion(asker.user_id);
    await createAnswer(answerer.user_id, question);
    await post(`/api/questions/${question}/trash`, { token: admin.token });
    expect(await counter("users", "user_id", answerer.user_id, "answer_count")).toBe(1);
    expect(await counter("questions", "question_id", question, "answer_count")).toBe(1);
    expect(await counter("users", "user_id", asker.user_id, "question_count")).toBe(0);
  });
});

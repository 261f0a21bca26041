/**
 * Edit history (docs/revisions.md), tested once for every revisable kind through HTTP: what an edit keeps and what
 * it does not, the list newest first with each change before and after, who may read it, restoring a revision (an
 * edit under the edit rules, itself a new revision) with each error code, the storage bound, and the cascade.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { KEPT_BYTES, KEPT_REVISIONS } from "../src/behaviours/revisable";
import { now } from "../src/lib/time";
import { type ApiResponse, del, get, patch, post } from "./helpers/api";
import { createAnswer, createArticle, createQuestion, createTopic, row } from "./helpers/content";
import { createAdmin, createUser, setOptions, type TestUser } from "./helpers/factories";

interface Kind {
  type: "question" | "answer" | "article";
  resource: string;
  idColumn: string;
  notFound: number;
  /** The author-rule codes of an edit: not the author, editing off. */
  notAuthor: number;
  cantEdit: number;
  titled: boolean;
  create(authorId: number, topicIds: number[]): Promise<number>;
}

const PAST = now() - 5000;

const kinds: Kind[] = [
  {
    type: "question",
    resource: "questions",
    idColumn: "question_id",
    notFound: 202001,
    notAuthor: 202003,
    cantEdit: 202002,
    titled: true,
    create: (authorId, topic_ids) =>
      createQuestion(authorId, { title: "First title", content_markdown: "first", topic_ids, create_time: PAST }),
  },
  {
    type: "answer",
    resource: "answers",
    idColumn: "answer_id",
    notFound: 203001,
    notAuthor: 203003,
    cantEdit: 203002,
    titled: false,
    create: async (authorId) =>
      createAnswer(authorId, await createQuestion(authorId), { content_markdown: "first", create_time: PAST }),
  },
  {
    type: "article",
    resource: "articles",
    idColumn: "article_id",
    notFound: 206001,
    notAuthor: 206003,
    cantEdit: 206002,
    titled: true,
    create: (authorId, topic_ids) =>
      createArticle(authorId, { title: "First title", content_markdown: "first", topic_ids, create_time: PAST }),
  },
];

const MISSING_ID = 987654;

function expectError(res: ApiResponse, status: number, code: number) {
  expect(res.status).toBe(status);
  expect(res.body.code).toBe(code);
}

async function disabledMember(): Promise<TestUser> {
  const user = await createUser();
  await env.DB.prepare("UPDATE users SET disable_time = ? WHERE user_id = ?").bind(now(), user.user_id).run();
  return user;
}

describe.each(kinds)("/api/$resource/{id}/revisions", (kind) => {
  const item = (id: number) => `/api/${kind.resource}/${id}`;
  const list = (id: number, token?: string, query: Record<string, string | number> = {}) =>
    get(`${item(id)}/revisions`, { token, query });
  const restore = (id: number, revision: number | string, token?: string, include?: string) =>
    post(`${item(id)}/revisions/${revision}/restore`, { token, query: { include } });
  const edit = (id: number, body: Record<string, unknown>, token?: string) => patch(item(id), { token, body });
  const revisionRows = async (id: number) =>
    (
      await env.DB.prepare(
        "SELECT revision, user_id, title, content_markdown, topic_ids FROM revisions WHERE revisable_type = ? AND revisable_id = ? ORDER BY revision",
      )
        .bind(kind.type, id)
        .all()
    ).results;
  const allowEdits = () =>
    setOptions({ [`${kind.type}_can_edit`]: true, [`${kind.type}_can_edit_only_no_comment`]: false });

  /** An item by a fresh author, edits allowed, filed under one topic when its kind has topics. */
  async function authored() {
    await allowEdits();
    const author = await createUser();
    const topics = [await createTopic(), await createTopic()];
    const id = await kind.create(author.user_id, kind.titled ? [topics[0] as number] : []);
    return { author, id, topics };
  }

  it("keeps what each edit replaced and lists the edits newest first, before and after, in one round trip", async () => {
    const { author, id } = await authored();
    expect((await list(id)).body.data).toEqual([]);

    expect((await edit(id, { content_markdown: "second" }, author.token)).status).toBe(200);
    expect((await edit(id, { content_markdown: "third" }, author.token)).status).toBe(200);

    const res = await list(id, undefined, { include: "user" });
    expect(res.status).toBe(200);
    expect(res.roundTrips).toBe(1);
    expect(res.body.pagination).toMatchObject({ total: 2, page: 1 });
    expect(res.body.data.map((r: { revision: number }) => r.revision)).toEqual([3, 2]);
    expect(res.body.data[0]).toEqual({
      revision: 3,
      user_id: author.user_id,
      create_time: expect.any(Number),
      changes: { content_markdown: { before: "second", after: "third" } },
      relationships: { user: expect.objectContaining({ user_id: author.user_id, username: author.username }) },
    });
    expect(res.body.data[1].changes).toEqual({ content_markdown: { before: "first", after: "second" } });
    // Only what an edit replaced is stored: no copy of the item's current text.
    expect(await revisionRows(id)).toEqual([
      { revision: 2, user_id: author.user_id, title: null, content_markdown: "first", topic_ids: null },
      { revision: 3, user_id: author.user_id, title: null, content_markdown: "second", topic_ids: null },
    ]);
  });

  it("keeps nothing for an edit that changes nothing, and names an administrator who edits", async () => {
    const { author, id } = await authored();
    const admin = await createAdmin();

    await edit(id, { content_markdown: "first" }, author.token);
    await edit(id, {}, author.token);
    expect(await revisionRows(id)).toEqual([]);

    await edit(id, { content_markdown: "by the administrator" }, admin.token);
    const [revision] = (await list(id)).body.data;
    expect(revision).toMatchObject({ revision: 2, user_id: admin.user_id });
  });

  it.runIf(kind.titled)("keeps titles and topics, each only when changed, the topics as live ids", async () => {
    const { author, id, topics } = await authored();
    const [first, second] = topics as [number, number];
    const before = await row(kind.resource, kind.idColumn, id);

    await edit(id, { topic_ids: [second, first] }, author.token);
    expect((await row(kind.resource, kind.idColumn, id)).update_time).toBe(before.update_time);
    await edit(id, { title: "Second title", topic_ids: [second, first] }, author.token);

    const res = await list(id);
    expect(res.body.data.map((r: { changes: unknown }) => r.changes)).toEqual([
      { title: { before: "First title", after: "Second title" } },
      { topic_ids: { before: [first], after: [first, second] } },
    ]);
  });

  it("is read by anyone while the item is live; a trashed item's by administrators only", async () => {
    const { author, id } = await authored();
    const [admin, other] = [await createAdmin(), await createUser()];
    await edit(id, { content_markdown: "second" }, author.token);

    expect((await list(id)).body.data).toHaveLength(1);
    expect((await list(id, other.token)).body.data).toHaveLength(1);
    await post(`${item(id)}/trash`, { token: admin.token });

    expectError(await list(id), 404, kind.notFound);
    expectError(await list(id, author.token), 404, kind.notFound);
    const trashed = await list(id, admin.token);
    expect(trashed.status).toBe(200);
    expect(trashed.body.data).toHaveLength(1);
    expectError(await list(MISSING_ID, admin.token), 404, kind.notFound);
  });

  it("restores an earlier revision by its author: an edit, and itself a new revision", async () => {
    const { author, id } = await authored();
    await edit(id, { content_markdown: "second" }, author.token);
    await edit(id, { content_markdown: "*third*" }, author.token);

    const res = await restore(id, 1, author.token);

    expect(res.status).toBe(200);
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    expect(res.body.data).toMatchObject({
      [kind.idColumn]: id,
      content_markdown: "first",
      content_rendered: "<p>first</p>",
    });
    expect(res.body.data.update_time).toBeGreaterThan(PAST);
    const [newest] = (await list(id)).body.data;
    expect(newest).toMatchObject({
      revision: 4,
      user_id: author.user_id,
      changes: { content_markdown: { before: "*third*", after: "first" } },
    });
    // Revision 2 (the first edit) comes back as it was, and is a new revision again.
    const again = await restore(id, 2, author.token);
    expect(again.body.data.content_markdown).toBe("second");
    expect((await list(id)).body.pagination.total).toBe(4);
  });

  it.runIf(kind.titled)("restores the title and the topics still live, with the kind's includes", async () => {
    const { author, id, topics } = await authored();
    const [first, second] = topics as [number, number];
    const admin = await createAdmin();
    await edit(id, { title: "Second title", topic_ids: [second] }, author.token);
    await post(`/api/topics/${first}/trash`, { token: admin.token });

    const gone = await restore(id, 1, author.token, "topics");
    expect(gone.body.data.title).toBe("First title");
    // The first topic is in the trash: the topics stay as they are.
    expect(gone.body.data.relationships.topics.map((t: { topic_id: number }) => t.topic_id)).toEqual([second]);

    await post(`/api/topics/${first}/untrash`, { token: admin.token });
    const back = await restore(id, 2, author.token);
    expect(back.body.data.title).toBe("Second title");
    const res = await restore(id, 1, author.token, "topics");
    expect(res.body.data.relationships.topics.map((t: { topic_id: number }) => t.topic_id)).toEqual([first]);
  });

  it("is held to the edit rules: administrators always, the author as the settings allow", async () => {
    const { author, id } = await authored();
    const admin = await createAdmin();
    await edit(id, { content_markdown: "second" }, author.token);
    await setOptions({ [`${kind.type}_can_edit`]: false });

    expectError(await restore(id, 1, author.token), 403, kind.cantEdit);
    expect((await get(item(id))).body.data.content_markdown).toBe("second");
    const res = await restore(id, 1, admin.token);
    expect(res.status).toBe(200);
    expect(res.body.data.content_markdown).toBe("first");
    expect((await list(id)).body.data[0].user_id).toBe(admin.user_id);
  });

  it("refuses another member, anonymous callers and disabled members, writing nothing", async () => {
    const { author, id } = await authored();
    await edit(id, { content_markdown: "second" }, author.token);
    const disabled = await disabledMember();

    // The author rule comes before the revision is looked at.
    expectError(await restore(id, 1, (await createUser()).token), 403, kind.notAuthor);
    expectError(await restore(id, 99, (await createUser()).token), 403, kind.notAuthor);
    expectError(await restore(id, 1), 401, 201001);
    expectError(await restore(id, 1, disabled.token), 401, 201001);
    expect(await revisionRows(id)).toHaveLength(1);
    expect((await get(item(id))).body.data.content_markdown).toBe("second");
  });

  it("answers the item's not-found code for a missing or trashed item, administrators too", async () => {
    const { author, id } = await authored();
    const admin = await createAdmin();
    await edit(id, { content_markdown: "second" }, author.token);
    await post(`${item(id)}/trash`, { token: admin.token });

    expectError(await restore(id, 1, admin.token), 404, kind.notFound);
    expectError(await restore(MISSING_ID, 1, admin.token), 404, kind.notFound);
  });

  it("answers 210003 for a revision that is not an earlier one, and 200001 for one that is not a number", async () => {
    const { author, id } = await authored();
    expectError(await restore(id, 1, author.token), 404, 210003);
    await edit(id, { content_markdown: "second" }, author.token);

    expectError(await restore(id, 2, author.token), 404, 210003);
    expectError(await restore(id, 3, author.token), 404, 210003);
    const bad = await restore(id, "x", author.token);
    expectError(bad, 400, 200001);
    expect(Object.keys(bad.body.errors)).toEqual(["revision"]);
    expect(await revisionRows(id)).toHaveLength(1);
  });

  it(`keeps at most ${KEPT_REVISIONS} revisions of an item, the newest`, async () => {
    const { author, id } = await authored();
    // An item with a long history, written straight into D1: revisions 2 to 51.
    const insert = env.DB.prepare(
      `INSERT INTO revisions (revisable_type, revisable_id, revision, user_id, content_markdown, create_time)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    await env.DB.batch(
      Array.from({ length: KEPT_REVISIONS }, (_, i) =>
        insert.bind(kind.type, id, i + 2, author.user_id, `text ${i + 1}`, PAST),
      ),
    );

    await edit(id, { content_markdown: "newest" }, author.token);

    const numbers = (await revisionRows(id)).map((r) => r.revision);
    expect(numbers).toHaveLength(KEPT_REVISIONS);
    expect(numbers[0]).toBe(3);
    expect(numbers.at(-1)).toBe(KEPT_REVISIONS + 2);
    // The oldest kept revision's edit still knows what revision 2 held; revision 1 is gone.
    expectError(await restore(id, 1, author.token), 404, 210003);
    expect((await restore(id, 2, author.token)).body.data.content_markdown).toBe("text 2");
  });

  it(`keeps the newest revisions while their texts fit in ${KEPT_BYTES} bytes, and always the newest`, async () => {
    const { author, id } = await authored();
    const setContent = (text: string) =>
      env.DB.prepare(`UPDATE ${kind.resource} SET content_markdown = ? WHERE ${kind.idColumn} = ?`)
        .bind(text, id)
        .run();
    const insert = env.DB.prepare(
      `INSERT INTO revisions (revisable_type, revisable_id, revision, user_id, content_markdown, create_time)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    await env.DB.batch(
      ["a", "b"].map((letter, i) => insert.bind(kind.type, id, i + 2, author.user_id, letter.repeat(600_000), PAST)),
    );
    await setContent("d");

    await edit(id, { content_markdown: "small" }, author.token);

    // Revision 4 holds the one byte it replaced; with revision 3, 600 001 bytes; with 2 as well, over the bound.
    expect((await revisionRows(id)).map((r) => r.revision)).toEqual([3, 4]);

    // Text larger than the bound alone (written straight into D1: no edit takes that much): only the newest stays.
    await setContent("x".repeat(KEPT_BYTES + 1));
    await edit(id, { content_markdown: "small again" }, author.token);
    const rows = await revisionRows(id);
    expect(rows.map((r) => r.revision)).toEqual([5]);
    expect(String(rows[0]?.content_markdown).length).toBe(KEPT_BYTES + 1);
  });

  it("goes with the item when it is deleted", async () => {
    const { author, id } = await authored();
    const admin = await createAdmin();
    const other = await kind.create(author.user_id, []);
    await edit(id, { content_markdown: "second" }, author.token);
    await edit(other, { content_markdown: "second" }, author.token);

    expect((await del(item(id), { token: admin.token })).status).toBe(200);

    expect(await revisionRows(id)).toEqual([]);
    expect(await revisionRows(other)).toHaveLength(1);
  });
});

describe("deleting a question", () => {
  it("removes its answers' revisions with them", async () => {
    await setOptions({ answer_can_edit: true });
    const [author, admin] = [await createUser(), await createAdmin()];
    const question = await createQuestion(author.user_id);
    const answer = await createAnswer(author.user_id, question);
    await patch(`/api/answers/${answer}`, { token: author.token, body: { content_markdown: "edited" } });
    expect((await get(`/api/answers/${answer}/revisions`)).body.data).toHaveLength(1);

    await del(`/api/questions/${question}`, { token: admin.token });

    const left = await env.DB.prepare("SELECT count(*) AS n FROM revisions").first<number>("n");
    expect(left).toBe(0);
  });
});

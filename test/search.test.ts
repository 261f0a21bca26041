/**
 * GET /api/search (docs/search.md): what readers find in English, Chinese, Japanese and French, in the shape of each
 * kind's own lists, ranked and highlighted; that every write (create, edit, trash, untrash, delete, profile edits,
 * disabling) changes what is found in its own batch; that no query, however hostile, is a 500 or reaches FTS5 as
 * syntax; the round-trip budget, the rate limit, and that a rebuild of the index finds what the writes indexed.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { rebuildSearchIndex, type SqlRunner } from "../src/behaviours/search-rebuild";
import { type ApiResponse, del, get, patch, post } from "./helpers/api";
import { createTopic } from "./helpers/content";
import { createAdmin, createUser, type TestUser, uniqueName } from "./helpers/factories";
import { codeFromMail } from "./helpers/mailbox";

interface Author {
  token: string;
  topic: number;
}

/** An administrator writes the content: their writes are not rate limited. */
async function author(): Promise<Author & TestUser> {
  const admin = await createAdmin();
  return { ...admin, topic: await createTopic() };
}

/** A create through the API: the new record's id. */
async function created(path: string, token: string, body: Record<string, unknown>, id: string): Promise<number> {
  const res = await post(path, { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data[id];
}

const ask = (by: Author, title: string, content_markdown: string) =>
  created("/api/questions", by.token, { title, content_markdown, topic_ids: [by.topic] }, "question_id");

const write = (by: Author, title: string, content_markdown: string) =>
  created("/api/articles", by.token, { title, content_markdown, topic_ids: [by.topic] }, "article_id");

const answer = (by: Author, questionId: number, content_markdown: string) =>
  created(`/api/questions/${questionId}/answers`, by.token, { content_markdown }, "answer_id");

const search = (q: string, query: Record<string, string | number> = {}, token?: string) =>
  get("/api/search", { query: { q, ...query }, token });

const ID = { question: "question_id", answer: "answer_id", article: "article_id", topic: "topic_id", user: "user_id" };

/** The ids a search found, in its order; asserts it succeeded in one round trip. */
async function found(q: string, type: keyof typeof ID = "question", token?: string): Promise<number[]> {
  const res = await search(q, { type }, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.code).toBe(0);
  expect(res.roundTrips).toBe(1);
  return res.body.data.map((record: Record<string, number>) => record[ID[type]]);
}

const highlights = (res: ApiResponse): string[] =>
  res.body.data.map((record: { relationships: { highlight: string } }) => record.relationships.highlight);

/** HTML holding no element but `<mark>`: every other `<` is escaped. */
const onlyMarks = (html: string) => html.replace(/<\/?mark>/g, "").includes("<") === false;

describe("GET /api/search: finding and showing", () => {
  it("finds questions by a word of their title or content, case-insensitively, with the match highlighted", async () => {
    const by = await author();
    const q1 = await ask(by, "How fast is SQLite?", "I measured **inserts** on a laptop.");
    const q2 = await ask(by, "Tuning Postgres", "Compared with SQLite, vacuum differs.");
    await ask(by, "Unrelated title", "Nothing to see.");
    expect((await found("sqlite")).sort()).toEqual([q1, q2].sort());
    expect(await found("INSERTS")).toEqual([q1]);
    const res = await search("vacuum");
    expect(highlights(res)).toEqual(["Compared with SQLite, <mark>vacuum</mark> differs."]);
  });

  it("answers each record as the kind's own list does, with its includes and relationships.highlight", async () => {
    const by = await author();
    const id = await ask(by, "Caching at the edge", "Workers cache answers.");
    const include = "user,topics,is_following,voting";
    const listed = await get("/api/questions", { query: { include }, token: by.token });
    const res = await search("edge", { include }, by.token);
    expect(res.status).toBe(200);
    const [hit] = res.body.data;
    const [record] = listed.body.data;
    expect(record.question_id).toBe(id);
    const { highlight, ...relationships } = hit.relationships;
    expect({ ...hit, relationships }).toEqual(record);
    expect(highlight).toBe("Caching at the <mark>edge</mark>");
    // Without include, relationships holds only the highlight.
    const bare = await search("edge");
    expect(Object.keys(bare.body.data[0].relationships)).toEqual(["highlight"]);
    expect(bare.body.data[0]).not.toHaveProperty("delete_time");
  });

  it("pages like every list", async () => {
    const by = await author();
    for (const n of [1, 2, 3]) await ask(by, `Paging question ${n}`, "paging body");
    const first = await search("paging", { per_page: 2 });
    expect(first.body.pagination).toEqual({ page: 1, per_page: 2, previous: null, next: 2, total: 3, pages: 2 });
    const second = await search("paging", { per_page: 2, page: 2 });
    expect(second.body.data).toHaveLength(1);
    expect(second.body.pagination).toMatchObject({ page: 2, previous: 1, next: null, total: 3 });
    const ids = [...first.body.data, ...second.body.data].map((record: { question_id: number }) => record.question_id);
    expect(new Set(ids).size).toBe(3);
  });

  it("ranks by relevance, a title's match first, then votes, then the newest", async () => {
    const by = await author();
    const inBody = await ask(by, "First post", "A question about kubernetes and nothing else here.");
    const inTitle = await ask(by, "Kubernetes networking", "How do pods talk?");
    expect(await found("kubernetes")).toEqual([inTitle, inBody]);

    const older = await ask(by, "Same words here", "identical text");
    const newer = await ask(by, "Same words here", "identical text");
    expect(await found("identical")).toEqual([newer, older]);
    const voter = await createUser();
    await post(`/api/questions/${older}/voters`, { token: voter.token, body: { type: "up" } });
    expect(await found("identical")).toEqual([older, newer]);
  });

  it("finds answers, articles, topics and users by type, each in its kind's shape", async () => {
    const by = await author();
    const question = await ask(by, "A question on borrow checking", "rust question");
    const answerId = await answer(by, question, "Use **lifetimes** wisely.");
    const article = await write(by, "Lifetimes explained", "An article body.");
    const topic = await post("/api/topics", {
      token: by.token,
      body: { name: "Lifetimes", description: "All about ownership" },
    });
    expect(topic.status).toBe(200);
    const profile = await patch("/api/user", { token: by.token, body: { bio: "I teach lifetimes" } });
    expect(profile.status).toBe(200);

    expect(await found("lifetimes", "answer")).toEqual([answerId]);
    expect(await found("lifetimes", "article")).toEqual([article]);
    expect(await found("lifetimes", "topic")).toEqual([topic.body.data.topic_id]);
    expect(await found("lifetimes", "user")).toEqual([by.user_id]);
    expect(await found("lifetimes")).toEqual([]);
    const answers = await search("lifetimes", { type: "answer", include: "question,user" });
    expect(answers.body.data[0].relationships).toMatchObject({
      question: { question_id: question },
      user: { user_id: by.user_id },
      highlight: "Use <mark>lifetimes</mark> wisely.",
    });
    const users = await search("lifetimes", { type: "user", include: "is_me" }, by.token);
    expect(users.body.data[0].relationships).toEqual({ is_me: true, highlight: "I teach <mark>lifetimes</mark>" });
  });

  it("finds a user who has just registered by their username", async () => {
    const email = `${uniqueName("r")}@example.test`;
    await post("/api/user/register/email", { body: { email } });
    const username = uniqueName("searchable");
    const res = await post("/api/users", {
      body: { email, email_code: await codeFromMail(email), username, password: "a long enough pw" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await found(username, "user")).toEqual([res.body.data.user_id]);
  });
});

describe("GET /api/search: Chinese, Japanese and accented text", () => {
  it("finds one- and two-character Chinese terms inside longer runs, phrases, and mixed queries", async () => {
    const by = await author();
    const fts = await ask(by, "SQLite 全文检索入门", "全文检索让数据库更好用。");
    const db = await ask(by, "如何选择数据库", "关系型数据库与文档数据库的比较。");
    expect(await found("全文")).toEqual([fts]);
    expect((await found("库")).sort()).toEqual([fts, db].sort());
    expect(await found("检索 数据库")).toEqual([fts]);
    expect(await found("SQLite 检索")).toEqual([fts]);
    expect(await found('"全文检索"')).toEqual([fts]);
    // A phrase keeps its order: these characters occur, but never in this order.
    expect(await found('"索检"')).toEqual([]);
    const res = await search("全文");
    expect(highlights(res)[0]).toBe("SQLite <mark>全文</mark>检索入门");
  });

  it("finds Japanese kana and kanji terms, and Korean syllables inside words", async () => {
    const by = await author();
    const id = await ask(by, "データベースの設計", "正規化について質問です。");
    expect(await found("データ")).toEqual([id]);
    expect(await found("設計")).toEqual([id]);
    expect(await found("正規化")).toEqual([id]);
    const korean = await ask(by, "데이터베이스에서 검색하기", "전문 검색은 빠릅니다");
    expect(await found("데이터")).toEqual([korean]);
    expect(await found("검색")).toEqual([korean]);
  });

  it("folds case and accents in French, both ways, and finds prefixes", async () => {
    const by = await author();
    const id = await ask(by, "Où boire un café crème à Paris ?", "Près de l'Élysée, un garçon m'a servi.");
    expect(await found("cafe")).toEqual([id]);
    expect(await found("CAFÉ")).toEqual([id]);
    expect(await found("elysee")).toEqual([id]);
    expect(await found("garcon")).toEqual([id]);
    expect(await found("crè*")).toEqual([id]);
    expect(await found('"cafe creme"')).toEqual([id]);
    expect(await found('"creme cafe"')).toEqual([]);
    expect(highlights(await search("cafe"))[0]).toBe("Où boire un <mark>café</mark> crème à Paris ?");
  });

  it("escapes the text of a highlight: the only markup is <mark>", async () => {
    const by = await author();
    await ask(by, "Why <img src=x onerror=alert(1)> breaks", "See `<script>alert(1)</script>` & more.");
    for (const q of ["breaks", "script", "alert"]) {
      const [html] = highlights(await search(q));
      expect(html).toBeDefined();
      expect(onlyMarks(html!)).toBe(true);
    }
    expect(highlights(await search("breaks"))[0]).toBe("Why &lt;img src=x onerror=alert(1)&gt; <mark>breaks</mark>");
  });
});

describe("GET /api/search: the index follows every write in its batch", () => {
  it("finds an edit's new title and content and no longer the old ones", async () => {
    const by = await author();
    const id = await ask(by, "Original wording", "first version of the text");
    const edited = await patch(`/api/questions/${id}`, {
      token: by.token,
      body: { title: "Replacement wording", content_markdown: "second version 第二版" },
    });
    expect(edited.status).toBe(200);
    expect(edited.roundTrips).toBeLessThanOrEqual(2);
    expect(await found("original")).toEqual([]);
    expect(await found("first")).toEqual([]);
    expect(await found("replacement")).toEqual([id]);
    expect(await found("第二")).toEqual([id]);
    // A title alone keeps the content found.
    await patch(`/api/questions/${id}`, { token: by.token, body: { title: "Third wording" } });
    expect(await found("second")).toEqual([id]);
    expect(await found("replacement")).toEqual([]);
  });

  it("follows answer, article and topic edits, and profile edits", async () => {
    const by = await author();
    const question = await ask(by, "Host question", "host");
    const answerId = await answer(by, question, "old answer text");
    await patch(`/api/answers/${answerId}`, { token: by.token, body: { content_markdown: "nouvelle réponse" } });
    expect(await found("reponse", "answer")).toEqual([answerId]);
    expect(await found("old", "answer")).toEqual([]);

    const article = await write(by, "Draft article", "draft");
    await patch(`/api/articles/${article}`, { token: by.token, body: { content_markdown: "published prose" } });
    expect(await found("prose", "article")).toEqual([article]);
    expect(await found("draft", "article")).toEqual([article]);

    const topic = (await post("/api/topics", { token: by.token, body: { name: "Gardening", description: "Plants" } }))
      .body.data.topic_id;
    await patch(`/api/topics/${topic}`, { token: by.token, body: { description: "Trees and shrubs" } });
    expect(await found("shrubs", "topic")).toEqual([topic]);
    expect(await found("plants", "topic")).toEqual([]);
    expect(await found("gardening", "topic")).toEqual([topic]);
    // A rename refused (a live topic has the name) changes nothing, in the index either.
    await post("/api/topics", { token: by.token, body: { name: "Orchards", description: "Fruit" } });
    const refused = await patch(`/api/topics/${topic}`, { token: by.token, body: { name: "Orchards" } });
    expect(refused.status).toBe(409);
    expect(await found("gardening", "topic")).toEqual([topic]);

    const user = await createUser();
    const edit = await patch("/api/user", { token: user.token, body: { company: "Zürich Widgets" } });
    expect(edit.roundTrips).toBeLessThanOrEqual(2);
    await patch("/api/user", { token: user.token, body: { headline: "gardener" } });
    expect(await found("zurich", "user")).toEqual([user.user_id]);
    expect(await found("gardener", "user")).toEqual([user.user_id]);
  });

  it("never finds trashed items, for anyone, and finds them again once untrashed", async () => {
    const by = await author();
    const id = await ask(by, "Trash me", "ephemeral content");
    const answerId = await answer(by, id, "ephemeral answer");
    expect((await post(`/api/questions/${id}/trash`, { token: by.token })).status).toBe(200);
    expect((await post(`/api/answers/${answerId}/trash`, { token: by.token })).status).toBe(200);
    expect(await found("ephemeral")).toEqual([]);
    expect(await found("ephemeral", "question", by.token)).toEqual([]);
    expect(await found("ephemeral", "answer", by.token)).toEqual([]);
    await post(`/api/questions/${id}/untrash`, { token: by.token });
    await post(`/api/answers/${answerId}/untrash`, { token: by.token });
    expect(await found("ephemeral")).toEqual([id]);
    expect(await found("ephemeral", "answer")).toEqual([answerId]);
  });

  it("forgets deleted items and what their delete cascades to", async () => {
    const by = await author();
    const id = await ask(by, "Doomed question", "doomed");
    const answerId = await answer(by, id, "doomed answer");
    const article = await write(by, "Doomed article", "doomed");
    expect(await found("doomed", "answer")).toEqual([answerId]);
    expect((await del(`/api/questions/${id}`, { token: by.token })).status).toBe(200);
    expect((await del(`/api/articles/${article}`, { token: by.token })).status).toBe(200);
    expect(await found("doomed")).toEqual([]);
    expect(await found("doomed", "answer")).toEqual([]);
    expect(await found("doomed", "article")).toEqual([]);
    const left = await env.DB.prepare(
      "SELECT count(*) AS n FROM search_index WHERE search_index MATCH 'doomed'",
    ).first();
    expect(left).toEqual({ n: 0 });
  });

  it("never finds disabled users, and finds them again once enabled", async () => {
    const admin = await createAdmin();
    const user = await createUser();
    await patch("/api/user", { token: user.token, body: { bio: "hidden gem" } });
    expect(await found("gem", "user")).toEqual([user.user_id]);
    expect((await post(`/api/users/${user.user_id}/disable`, { token: admin.token })).status).toBe(200);
    expect(await found("gem", "user")).toEqual([]);
    expect(await found("gem", "user", admin.token)).toEqual([]);
    await post(`/api/users/${user.user_id}/enable`, { token: admin.token });
    expect(await found("gem", "user")).toEqual([user.user_id]);
  });
});

describe("GET /api/search: hostile queries", () => {
  const searched = [
    '""unbalanced',
    '"unclosed phrase',
    "NEAR",
    "NEAR(a b)",
    "a OR b",
    "a AND",
    "NOT a",
    "title:secret",
    "{title body}: x",
    "a)",
    "-a",
    "^a",
    "a +b",
    "'; DROP TABLE questions; --",
    "a*b",
    "**a",
    '"a" * "b"',
    "a\\b",
    "%a_",
  ];

  it.each(searched)("searches %j as text: 200, never FTS5 syntax", async (q) => {
    const res = await search(q);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.code).toBe(0);
  });

  it("treats FTS5 operators and quotes as words", async () => {
    const by = await author();
    const id = await ask(by, "NEAR and OR are words", 'Say "hello" (politely)');
    expect(await found("NEAR")).toEqual([id]);
    expect(await found("or")).toEqual([id]);
    expect(await found('"hello"')).toEqual([id]);
    expect(await found("(politely)")).toEqual([id]);
    expect(await found("title:hello")).toEqual([]);
  });

  const refused: [string, string | undefined][] = [
    ["empty", ""],
    ["blank", "   "],
    ["a star alone", "*"],
    ["punctuation only", '" ( ) * - \\ %_'],
    ["a quote alone", '"'],
    ["10,000 characters", "a".repeat(10_000)],
    ["201 characters", "b".repeat(201)],
    ["eleven terms", "a b c d e f g h i j k"],
    ["a NUL", "abc\u0000def"],
    ["another control", "abc\u0007"],
    ["missing", undefined],
  ];

  it.each(refused)("refuses %s with 200001 naming q", async (_name, q) => {
    const res = await get("/api/search", { query: { q } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(200001);
    expect(Object.keys(res.body.errors)).toEqual(["q"]);
    expect(res.roundTrips).toBe(0);
  });

  it("refuses an unknown type with 200001 naming type", async () => {
    const res = await search("x", { type: "comment" });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(["type"]);
  });

  it("rate limits searches per user (100002 with Retry-After)", async () => {
    const user = await createUser();
    const results = await Promise.all(Array.from({ length: 90 }, () => search("anything", {}, user.token)));
    const refusedResults = results.filter((res) => res.status === 429);
    for (const res of refusedResults) {
      expect(res.body.code).toBe(100002);
      expect(res.headers.get("retry-after")).toBe("60");
    }
    const accepted = results.length - refusedResults.length;
    expect(results.filter((res) => res.status !== 429).every((res) => res.status === 200)).toBe(true);
    expect(accepted).toBeGreaterThanOrEqual(30);
    expect(accepted).toBeLessThanOrEqual(60);
  });
});

describe("GET /api/search: the document", () => {
  it("describes the route with its tag, operation id and parameters", async () => {
    const doc = (await get("/api/openapi.json")).body;
    const operation = doc.paths["/api/search"].get;
    expect(operation.operationId).toBe("search");
    expect(operation.tags).toEqual(["search"]);
    expect(operation.summary).toBe("Search");
    const parameters = Object.fromEntries(
      operation.parameters.map((p: { name: string; required?: boolean }) => [p.name, p.required ?? false]),
    );
    expect(parameters).toMatchObject({ q: true, type: false, page: false, per_page: false, include: false });
  });
});

describe("GET /api/search: cost", () => {
  it("reads in one round trip for every kind, with every include, anonymous or logged in", async () => {
    const by = await author();
    await ask(by, "Budget question", "budget");
    const include = "user,topics,is_following,voting,question,is_me,is_followed";
    for (const type of Object.keys(ID)) {
      for (const token of [undefined, by.token]) {
        const res = await search("budget", { type, include, per_page: 100 }, token);
        expect(res.status).toBe(200);
        expect(res.roundTrips).toBe(1);
      }
    }
  });
});

/** The rebuild's statements run on the test's D1, as `npm run search:rebuild` runs them through wrangler. */
const poolRunner: SqlRunner = {
  async all({ sql, params }) {
    return (
      await env.DB.prepare(sql)
        .bind(...params)
        .all<Record<string, unknown>>()
    ).results;
  },
  async run(statements) {
    if (statements.length) await env.DB.batch(statements.map(({ sql, params }) => env.DB.prepare(sql).bind(...params)));
  },
};

describe("the index rebuilt from the content tables", () => {
  it("finds exactly what the writes indexed, and what writes made straight into the tables", async () => {
    const by = await author();
    const q1 = await ask(by, "Rebuild 全文 café", "contenu **riche** 数据库");
    await answer(by, q1, "rebuild answer");
    await write(by, "Rebuild article", "article 检索");
    await post("/api/topics", { token: by.token, body: { name: "Rebuild topic", description: "Éléments" } });
    await patch("/api/user", { token: by.token, body: { bio: "rebuild bio" } });
    const trashed = await ask(by, "Rebuild trashed", "x");
    await post(`/api/questions/${trashed}/trash`, { token: by.token });
    const queries: [string, keyof typeof ID][] = [
      ["rebuild", "question"],
      ["全文", "question"],
      ["cafe", "question"],
      ["库", "question"],
      ["rebuild", "answer"],
      ["检索", "article"],
      ["elements", "topic"],
      ["rebuild", "user"],
    ];
    const search = async () =>
      Promise.all(queries.map(async ([q, type]) => (await get("/api/search", { query: { q, type } })).body.data));
    const before = await search();
    const documents = await env.DB.prepare("SELECT rowid, title, body FROM search_index ORDER BY rowid").all();

    await rebuildSearchIndex(poolRunner, 2);
    expect(await search()).toEqual(before);
    // The same documents, and one more: the topic the test's factory inserted straight into D1.
    const rebuilt = await env.DB.prepare("SELECT rowid, title, body FROM search_index ORDER BY rowid").all();
    const topicKey = 4 * 2 ** 40 + by.topic;
    expect(rebuilt.results.filter((doc) => doc.rowid !== topicKey)).toEqual(documents.results);
    expect(documents.results.some((doc) => doc.rowid === topicKey)).toBe(false);
    // Rows written behind the API's back (an import) are found once rebuilt.
    await env.DB.prepare("INSERT INTO questions (user_id, title, content_rendered) VALUES (?, ?, ?)")
      .bind(by.user_id, "Imported 导入", "<p>imported</p>")
      .run();
    expect(await found("导入")).toEqual([]);
    await rebuildSearchIndex(poolRunner);
    expect(await found("导入")).toHaveLength(1);
  });
});

/**
 * The MDClub importer (issue 12, docs/migrating-from-mdclub.md): dumps of an MDClub database in the forms mysqldump
 * and phpMyAdmin write, with tricky rows (every escape, Chinese, emoji, NULLs, trashed and disabled rows, counters
 * the dump gets wrong, an unknown table and column, an older table without some columns), are read in small
 * chunks, imported into this test's D1, and then checked through the API as users would see them: the same ids,
 * content, counters and relations; bcrypt logins with the plain password and the SDK's SHA-1, upgraded on first
 * login; an MDClub token that still works.
 */
import { env } from "cloudflare:workers";
import { hashSync } from "bcryptjs";
import { describe, expect, it } from "vitest";
import { d1Target } from "../src/import/mdclub/d1-target";
import {
  DatabaseNotEmpty,
  DUPLICATE,
  forgetMissingFiles,
  type ImportReport,
  type ImportTarget,
  importDump,
} from "../src/import/mdclub/importer";
import { readDump } from "../src/import/mdclub/sql-dump";
import { sha1Hex } from "../src/lib/crypto";
import { inlineParams } from "../src/lib/sql-text";
import { get, post, put } from "./helpers/api";
import { type DumpFormat, type DumpTable, MDCLUB_COLUMNS, rechunk, writeDump } from "./helpers/mdclub-dump";

const NOW = Math.floor(Date.now() / 1000);
const T = NOW - 86_400 * 30;
/** Every escape MySQL writes, with Chinese, emoji, a quote of each kind and a backslash. */
const TRICKY = 'It\'s "q" \\ back\nline\rret\ttab\0nul\x1aZ 中文 😀';
const TITLE = "标题 'single' \"double\" \\ what? 😀🎉";
const MARKDOWN = "Hello **world**\n\n中文段落 😀 and a 'quote' and a \"double\"";
const TOKEN = "0123456789abcdef0123456789abcdef";
const EXPIRED_TOKEN = "fedcba9876543210fedcba9876543210";
const IMAGE_KEY = "0123456789abcdef0123456789abcdef.png";
/** An article far over D1's 100 KB statement limit once rendered, with emoji across every cut and quotes doubled. */
const LONG_MARKDOWN = `长文 'quoted' 😀${"中文😀'".repeat(12_000)}`;

/** PHP's serialize() of a row, as MDClub kept a deleted item in content_deleted (numbers as PDO gives them: text). */
function phpSerialize(row: Record<string, string>): string {
  const s = (text: string) => `s:${new TextEncoder().encode(text).length}:"${text}";`;
  const entries = Object.entries(row).map(([key, value]) => s(key) + s(value));
  return `a:${entries.length}:{${entries.join("")}}`;
}
const DELETED_QUESTION = {
  question_id: "12",
  user_id: "2",
  title: '被删除的问题 😀 "q"',
  content_markdown: "x",
  // MDClub's stored HTML, which this API never serves: the copy is rendered again from the markdown.
  content_rendered: '<p onclick="steal()">x</p><script>alert(1)</script>',
  // A column of MDClub's row that this API's question has not.
  mdclub_only: "kept by MDClub",
  comment_count: "0",
  answer_count: "0",
  follower_count: "0",
  vote_count: "0",
  vote_up_count: "0",
  vote_down_count: "0",
  last_answer_time: "0",
  create_time: String(T),
  update_time: String(T),
  delete_time: "0",
};

/** MDClub's hash: PHP's password_hash of the SHA-1 hex, `$2y$` (cost 4 keeps the test fast). */
async function mdclubHash(password: string): Promise<string> {
  return hashSync(await sha1Hex(password), 4).replace(/^\$2b\$/, "$2y$");
}

function user(
  id: number,
  name: string,
  password: string,
  fields: Partial<Record<string, string | number | null>> = {},
) {
  const row: Record<string, string | number | null> = {
    user_id: id,
    username: name,
    email: `${name}@example.test`,
    avatar: null,
    cover: null,
    password,
    create_ip: "127.0.0.1",
    create_location: null,
    last_login_time: T,
    last_login_ip: null,
    last_login_location: null,
    // Counters the dump gets wrong on purpose: the import recounts them.
    follower_count: 42,
    followee_count: 42,
    following_article_count: 42,
    following_question_count: 42,
    following_topic_count: 42,
    article_count: 42,
    question_count: 42,
    answer_count: 42,
    notification_unread: 42,
    inbox_unread: 3,
    headline: null,
    bio: null,
    blog: null,
    company: null,
    location: null,
    create_time: T,
    update_time: T,
    disable_time: 0,
    nickname: "an unknown column",
    ...fields,
  };
  return [...MDCLUB_COLUMNS.user!, "nickname"].map((column) => row[column] ?? null);
}

async function community(): Promise<Record<string, DumpTable>> {
  return {
    user: {
      columns: [...MDCLUB_COLUMNS.user!, "nickname"],
      rows: [
        user(1, "管理员", await mdclubHash("admin-password")),
        user(2, "alice", await mdclubHash("alice-password"), { headline: TRICKY, avatar: "a1b2.png", bio: "" }),
        user(3, "bob", await mdclubHash("bob-password"), { disable_time: T + 5 }),
        user(5, "carol", await mdclubHash("carol-password"), { cover: "c0ver.jpg", location: "上海" }),
      ],
    },
    question: {
      rows: [
        // id, user, title, markdown, rendered, comment, answer, follower, vote, up, down, last_answer, create, update, delete
        [10, 2, TITLE, MARKDOWN, "<p>old html</p>", 9, 99, 9, 7, 7, 0, T + 10, T, T + 1, 0],
        [11, 3, "trashed question", "gone", "<p>gone</p>", 0, 0, 0, 0, 0, 0, 0, T, T, T + 100],
      ],
    },
    answer: {
      rows: [
        [20, 10, 3, "an answer with `code` and -1 and 中文", "", 0, 0, 0, 0, T + 10, T + 10, 0],
        [21, 10, 5, "a trashed answer", "", 0, 0, 0, 0, T + 11, T + 11, T + 12],
      ],
    },
    // An article written in HTML only (its markdown NULL), as MDClub's editor could store it.
    article: {
      rows: [
        [30, 5, "文章 😀", null, "<p>html <strong>only</strong></p>", 0, 0, -3, 0, 3, T, T, 0],
        [31, 5, "long", LONG_MARKDOWN, "", 0, 0, 0, 0, 0, T, T, 0],
      ],
    },
    comment: {
      rows: [
        [40, 10, "question", 5, "a comment 💬", 0, 0, 0, 0, T, T, 0],
        [41, 20, "answer", 2, TRICKY, 0, 0, 0, 0, T, T, 0],
        [42, 40, "comment", 2, "a reply", 0, 0, 0, 0, T, T, 0],
        [43, 10, "question", 3, "a trashed comment", 0, 0, 0, 0, T, T, T + 1],
      ],
    },
    vote: {
      rows: [
        [2, 10, "question", "up", T],
        [5, 10, "question", "down", T],
        [3, 20, "answer", "up", T],
      ],
    },
    follow: {
      rows: [
        [2, 3, "user", T],
        [5, 2, "user", T],
        [2, 10, "question", T],
        [5, 50, "topic", T],
        // MDClub's follow table has no unique key: a repeated row is skipped as a duplicate.
        [2, 3, "user", T + 1],
      ],
    },
    topic: {
      // An older table without delete_time: the column keeps its default.
      columns: ["topic_id", "name", "cover", "description", "article_count", "question_count", "follower_count"],
      rows: [
        [50, "话题 😀", "t0pic.jpg", TRICKY, 9, 9, 9],
        [51, "second", null, "", 0, 0, 0],
      ],
    },
    topicable: {
      rows: [
        [50, 10, "question", T],
        [50, 11, "question", T],
        [50, 30, "article", T],
      ],
    },
    notification: {
      rows: [
        [60, 2, 5, "question_answered", 0, 10, 20, 0, 0, "", T, 0],
        [61, 2, 5, "question_commented", 0, 10, 0, 40, 0, "", T, T + 1],
        [62, 3, 2, "comment_replied", 0, 10, 0, 40, 42, "", T, 0],
        [63, 2, 1, "question_deleted", 0, 12, 0, 0, 0, phpSerialize(DELETED_QUESTION), T, T + 2],
      ],
    },
    report: { rows: [[70, 10, "question", 5, "spam ' \" \\ 举报", T]] },
    image: {
      columns: ["key", "filename", "create_time", "item_type", "item_id", "user_id"],
      rows: [[IMAGE_KEY, "图片.png", T, "question", 10, 2]],
    },
    token: {
      rows: [
        [TOKEN, 2, "Mozilla/5.0 😀", T, T, NOW + 86_400 * 10],
        [EXPIRED_TOKEN, 2, "", T, T, NOW - 10],
      ],
    },
    option: {
      rows: [
        ["cache_type", "redis"],
        ["cache_redis_port", "6380"],
        ["cache_memcached_port", ""],
        ["storage_type", "aliyun"],
        ["storage_aliyun_bucket", "forum-files"],
        ["storage_ftp_passive", "1"],
        ["search_third", "google"],
        ["site_name", "我的社区 'MD'"],
        ["question_can_edit", "true"],
        ["question_can_edit_before", "3600"],
        ["smtp_port", "not a port"],
        ["mystery_option", "x"],
      ],
    },
    inbox: {
      rows: [
        // id, receiver, sender, markdown, rendered, create, read
        [1, 2, 3, "hi", "<p>hi</p>", T, 0],
        [2, 3, 2, "hello back", "", T + 1, T + 2],
        [3, 2, 5, null, "<p>from <b>carol</b></p>", T + 3, 0],
        [4, 2, 3, "again", "", T + 4, 0],
        [5, 5, 5, "a note to myself", "", T, 0],
      ],
    },
    extra: { columns: ["id", "note"], rows: [[1, "a table MDClub does not have"]] },
  };
}

/** The rows of the facts MDClub never had: revisions, bookmarks, and notifications of the kinds beyond the spec. */
const newFacts = () =>
  env.DB.prepare(
    `SELECT (SELECT count(*) FROM revisions) AS revisions, (SELECT count(*) FROM bookmarks) AS bookmarks,
     (SELECT count(*) FROM notifications WHERE type IN ('answer_accepted', 'user_mentioned')) AS notices`,
  ).first();

async function importCommunity(format: DumpFormat, target: ImportTarget = d1Target(env.DB), force = false) {
  const dump = writeDump(await community(), format, { rowsPerInsert: 2 });
  // Chunks of 7 characters cut through escapes, quotes, comments and emoji.
  return importDump(rechunk(dump, 7), target, { force });
}

const asAdmin = async () => {
  const login = await post("/api/tokens", { body: { name: "管理员", password: "admin-password" } });
  expect(login.status).toBe(200);
  return login.body.data.token as string;
};

const storedPassword = async (id: number) =>
  (await env.DB.prepare("SELECT password FROM users WHERE user_id = ?").bind(id).first<{ password: string }>())!
    .password;

describe("the dump reader", () => {
  it("reads every escape, NULL, negative and decimal numbers, hex, _binary and doubled quotes, in any chunking", async () => {
    const dump =
      "/*!40101 SET NAMES utf8mb4 */;\n-- comment with 'quote\n# another\nCREATE TABLE `t` (\n  `a` int, `b` text COMMENT 'x;y'\n);\n" +
      "INSERT INTO `t` VALUES (1,'It\\'s \\\"q\\\" \\\\ \\n\\r\\t\\0\\Z \\b end'),(-2,NULL),(3.5,'a''b'),(0x4869,_binary'bin'),(-0,'中文😀');\n";
    const expected = [
      [1, 'It\'s "q" \\ \n\r\t\0\x1a \b end'],
      [-2, null],
      [3.5, "a'b"],
      ["Hi", "bin"],
      [-0, "中文😀"],
    ];
    for (const size of [1, 2, 3, 5, 8, 1000]) {
      const rows = [];
      for await (const event of readDump(rechunk([dump], size))) if (event.kind === "row") rows.push(event.values);
      expect(rows, `chunks of ${size}`).toEqual(expected);
    }
  });
});

describe.each(["mysqldump", "phpmyadmin"] as const)("importing a %s dump", (format) => {
  it("keeps ids, content, trash and disabled accounts, and recounts every counter", async () => {
    const report = await importCommunity(format);
    const admin = await asAdmin();

    const question = await get("/api/questions/10");
    expect(question.status).toBe(200);
    expect(question.body.data).toMatchObject({
      question_id: 10,
      user_id: 2,
      title: TITLE,
      content_markdown: MARKDOWN,
      answer_count: 1,
      comment_count: 1,
      follower_count: 1,
      vote_count: 0,
      vote_up_count: 1,
      vote_down_count: 1,
    });
    expect(question.body.data.content_rendered).toContain("<strong>world</strong>");
    expect((await get("/api/questions/11")).status).toBe(404);
    expect((await get("/api/questions/11", { token: admin })).body.data.delete_time).toBe(T + 100);

    const alice = (await get("/api/users/2", { token: admin })).body.data;
    expect(alice).toMatchObject({
      username: "alice",
      headline: TRICKY,
      bio: "",
      follower_count: 1,
      followee_count: 1,
      following_question_count: 1,
      following_topic_count: 0,
      question_count: 1,
      answer_count: 0,
      notification_unread: 1,
    });
    expect(alice.avatar.original).toMatch(/\/upload\/user-avatar\/[0-9a-f]{2}\/[0-9a-f]{2}\/a1b2\.png$/);
    const bob = (await get("/api/users/3", { token: admin })).body.data;
    expect(bob).toMatchObject({ disable_time: T + 5, answer_count: 1, question_count: 0 });

    const answers = await get("/api/questions/10/answers", { token: admin });
    expect(answers.body.data.map((a: { answer_id: number }) => a.answer_id)).toEqual([20]);
    expect((await get("/api/answers/21", { token: admin })).body.data.delete_time).toBe(T + 12);
    expect((await get("/api/answers/20")).body.data).toMatchObject({ comment_count: 1, vote_up_count: 1 });
    expect((await get("/api/comments/41")).body.data.content).toBe(TRICKY);
    expect((await get("/api/comments/40")).body.data.reply_count).toBe(1);

    const article = (await get("/api/articles/30")).body.data;
    expect(article).toMatchObject({ title: "文章 😀", vote_count: 0, vote_down_count: 0 });
    expect(article.content_rendered).toContain("<strong>only</strong>");
    const long = (await get("/api/articles/31")).body.data;
    expect(long.content_markdown).toBe(LONG_MARKDOWN);
    expect(long.content_rendered).toBe(`<p>${LONG_MARKDOWN}</p>`);

    const topic = (await get("/api/topics/50")).body.data;
    expect(topic).toMatchObject({ name: "话题 😀", description: TRICKY, question_count: 1, article_count: 1 });
    expect(topic.follower_count).toBe(1);
    expect(topic.cover.original).toMatch(/\/upload\/topic-cover\/[0-9a-f]{2}\/[0-9a-f]{2}\/t0pic\.jpg$/);
    const filed = await get("/api/topics/50/questions");
    expect(filed.body.data.map((q: { question_id: number }) => q.question_id)).toEqual([10]);

    // The importer wrote the search index: imported posts are found by their text, a trashed one is not.
    const searched = async (q: string, type: string) =>
      (await get("/api/search", { query: { q, type } })).body.data.map(
        (item: { [id: string]: number }) => item[`${type}_id`],
      );
    expect(await searched("标题", "question")).toEqual([10]);
    expect(await searched("trashed", "question")).toEqual([]);
    expect(await searched("文章", "article")).toEqual([30]);
    expect(await searched("alice", "user")).toEqual([2]);
    expect(report.indexed).toMatchObject({ question: 2, article: 2 });

    // Site totals: the unfiltered list counts live rows only.
    expect((await get("/api/questions")).body.pagination.total).toBe(1);
    expect((await get("/api/users")).body.pagination.total).toBe(3);

    const reports = await get("/api/reports", { token: admin });
    expect(reports.body.data[0]).toMatchObject({ reportable_id: 10, reportable_type: "question" });
    const image = await get(`/api/images/${IMAGE_KEY.replace(".", "_")}`);
    expect(image.body.data).toMatchObject({ filename: "图片.png", item_type: "question", item_id: 10, user_id: 2 });

    expectReport(report);
  });

  it("makes conversations of the inbox rows, with inbox_unread recounted from them", async () => {
    await importCommunity(format);
    const login = async (name: string, password: string) =>
      (await post("/api/tokens", { body: { name, password } })).body.data.token as string;
    const alice = await login("alice", "alice-password");
    expect((await get("/api/user", { token: alice })).body.data.inbox_unread).toBe(3);

    const inbox = await get("/api/inbox", { token: alice });
    expect(inbox.body.data).toEqual([
      {
        conversation_id: 1,
        user_id: 3,
        unread_count: 2,
        update_time: T + 4,
        last_message: {
          message_id: 4,
          sender_id: 3,
          receiver_id: 2,
          content_markdown: "again",
          content_rendered: "<p>again</p>",
          create_time: T + 4,
          read_time: 0,
        },
      },
      expect.objectContaining({ conversation_id: 3, user_id: 5, unread_count: 1, update_time: T + 3 }),
    ]);
    const withBob = await get("/api/inbox/3", { token: alice });
    expect(
      withBob.body.data.map((m: { message_id: number; read_time: number }) => [m.message_id, m.read_time]),
    ).toEqual([
      [4, 0],
      [2, T + 2],
      [1, 0],
    ]);
    // Content is rendered again by this API's pipeline, as for answers.
    const withCarol = await get("/api/inbox/5", { token: alice });
    expect(withCarol.body.data[0]).toMatchObject({
      content_markdown: "from **carol**",
      content_rendered: "<p>from <strong>carol</strong></p>",
    });
    const carol = await login("carol", "carol-password");
    expect((await get("/api/inbox", { token: carol })).body.data.map((c: { user_id: number }) => c.user_id)).toEqual([
      2,
    ]);

    // New messages after the import: to an imported conversation, and a first one, whose id follows the imported.
    expect((await post("/api/inbox/2", { token: carol, body: { content_markdown: "still there?" } })).status).toBe(200);
    expect((await post("/api/inbox/1", { token: carol, body: { content_markdown: "hello admin" } })).status).toBe(200);
    const after = await get("/api/inbox", { token: carol });
    expect(after.body.data.map((c: { conversation_id: number }) => c.conversation_id)).toEqual([4, 3]);
    expect((await get("/api/user", { token: alice })).body.data.inbox_unread).toBe(4);
  });

  it("leaves what MDClub never had empty: no accepted answer, history, bookmarks, mention links or notices", async () => {
    const tables = await community();
    // An answer mentioning a member: imported content is rendered without mentions, and nobody is told.
    (tables.answer?.rows[0] as unknown[])[3] = "thanks @alice";
    await importDump(rechunk(writeDump(tables, format, { rowsPerInsert: 2 }), 7), d1Target(env.DB), { force: false });

    expect((await get("/api/questions/10")).body.data.accepted_answer_id).toBe(0);
    expect((await get("/api/questions/10/revisions")).body.data).toEqual([]);
    expect((await get("/api/answers/20/revisions")).body.data).toEqual([]);
    const answer = (await get("/api/answers/20")).body.data;
    expect(answer.content_rendered).toBe("<p>thanks @alice</p>");
    expect((await get("/api/user/bookmarks", { token: TOKEN })).body.data).toEqual([]);
    expect(await newFacts()).toEqual({ revisions: 0, bookmarks: 0, notices: 0 });
  });

  it("logs a bcrypt user in with the plain password or the SDK's SHA-1, and upgrades the hash on the first", async () => {
    await importCommunity(format);
    expect(await storedPassword(2)).toMatch(/^\$2y\$04\$/);
    const wrong = await post("/api/tokens", { body: { name: "alice", password: "not-her-password" } });
    expect(wrong).toMatchObject({ status: 400, body: { code: 200001 } });
    expect(await storedPassword(2)).toMatch(/^\$2y\$/);

    const plain = await post("/api/tokens", { body: { name: "alice", password: "alice-password" } });
    expect(plain.status).toBe(200);
    const upgraded = await storedPassword(2);
    expect(upgraded).toMatch(/^pbkdf2_sha256_hmac\$/);
    const digest = await post("/api/tokens", { body: { name: "alice", password: await sha1Hex("alice-password") } });
    expect(digest.status).toBe(200);
    expect(await storedPassword(2)).toBe(upgraded);

    const sdkFirst = await post("/api/tokens", { body: { name: "carol", password: await sha1Hex("carol-password") } });
    expect(sdkFirst.status).toBe(200);
    expect(await storedPassword(5)).toMatch(/^pbkdf2_sha256_hmac\$/);
    expect((await post("/api/tokens", { body: { name: "carol", password: "carol-password" } })).status).toBe(200);
    const me = await get("/api/user", { token: sdkFirst.body.data.token });
    expect(me.body.data.user_id).toBe(5);
  });

  it("keeps members logged in with their MDClub tokens until they expire", async () => {
    await importCommunity(format);
    const me = await get("/api/user", { token: TOKEN });
    expect(me).toMatchObject({ status: 200, body: { data: { user_id: 2, username: "alice" } } });
    const notifications = await get("/api/notifications", { token: TOKEN });
    const ids = notifications.body.data.map((n: { notification_id: number }) => n.notification_id);
    expect(ids.sort()).toEqual([60, 61, 63]);
    const deleted = notifications.body.data.find((n: { notification_id: number }) => n.notification_id === 63);
    expect(deleted.content_deleted).toMatchObject({ question_id: 12, title: DELETED_QUESTION.title });
    // Finding: the copy kept MDClub's stored HTML and every column of its row. It is now the Question record as
    // this API renders it, and as its own trash notifications keep it.
    expect(deleted.content_deleted.content_rendered).toBe("<p>x</p>");
    const question = await get("/api/questions/10");
    expect(Object.keys(deleted.content_deleted).sort()).toEqual(
      Object.keys(question.body.data)
        .filter((key) => key !== "relationships")
        .sort(),
    );
    expect((await get("/api/user", { token: EXPIRED_TOKEN })).status).toBe(401);
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM tokens WHERE token = ?")
      .bind(TOKEN)
      .first<{ n: number }>();
    expect(stored?.n).toBe(0);
  });

  it("maps the settings to the renamed fields, and leaves invalid values as they were", async () => {
    const report = await importCommunity(format);
    const admin = await asAdmin();
    const options = (await get("/api/options", { token: admin })).body.data;
    expect(options).toMatchObject({
      cache_type: "cacheA",
      cache_cacheA_port: 6380,
      cache_cacheB_port: 11211,
      storage_type: "vendorA",
      storage_vendorA_bucket: "forum-files",
      storage_ftp_passive: true,
      search_third: "engineA",
      site_name: "我的社区 'MD'",
      question_can_edit: true,
      question_can_edit_before: 3600,
      // The dump's value is refused: the field keeps the value it had (this test's mail server).
      smtp_port: Number(env.TEST_SMTP_PORT),
    });
    expect(report.options.refused).toMatchObject({ smtp_port: expect.stringContaining("not a port") });
    expect(report.options.refused.cache_memcached_port).toContain("empty");
    expect(report.options.unknown).toEqual(["mystery_option"]);
  });

  it("shows MDClub's admin panel the settings as MDClub stored them, under MDCLUB_COMPAT", async () => {
    await importCommunity(format);
    const admin = await asAdmin();
    const options = (await get("/api/options", { token: admin, env: { ...env, MDCLUB_COMPAT: "true" } })).body.data;
    expect(options).toMatchObject({
      cache_type: "redis",
      cache_redis_port: 6380,
      storage_type: "aliyun",
      storage_aliyun_bucket: "forum-files",
      search_third: "google",
    });
  });
});

describe("a production import's SQL text", () => {
  it("holds the same rows: parameters written in as literals, question marks in the text left alone", async () => {
    // What `--remote` sends through `wrangler d1 execute --file`: each statement as text, nothing bound.
    const text: ImportTarget = {
      async execute(statements) {
        for (const statement of statements) await env.DB.prepare(inlineParams(statement)).run();
      },
      async query<T>(statement: Parameters<ImportTarget["query"]>[0]) {
        return (await env.DB.prepare(inlineParams(statement)).all<T>()).results;
      },
    };
    const report = await importCommunity("phpmyadmin", text);
    expect(report.tables.questions).toMatchObject({ read: 2, imported: 2 });
    expect((await get("/api/questions/10")).body.data).toMatchObject({ title: TITLE, answer_count: 1 });
    expect((await get("/api/articles/31")).body.data.content_markdown).toBe(LONG_MARKDOWN);
    expect((await get("/api/comments/41")).body.data.content).toBe(TRICKY);
  });
});

describe("files that did not come across", () => {
  it("show the default avatar and cover; content image rows keep their keys and links", async () => {
    const report = await importCommunity("mysqldump");
    await forgetMissingFiles(d1Target(env.DB), report.files);
    const alice = (await get("/api/users/2")).body.data;
    expect(alice.avatar.original).toMatch(/\/static\/default\/avatar\.png$/);
    expect((await get("/api/users/5")).body.data.cover.original).toMatch(/\/static\/default\/user_cover\.jpg$/);
    expect((await get("/api/topics/50")).body.data.cover.original).toMatch(/\/static\/default\/topic_cover\.jpg$/);
    const image = await get(`/api/images/${IMAGE_KEY.replace(".", "_")}`);
    expect(image.body.data).toMatchObject({ key: IMAGE_KEY.replace(".", "_"), item_type: "question", item_id: 10 });
  });
});

function expectReport(report: ImportReport) {
  expect(report.tables.users).toMatchObject({ read: 4, imported: 4, unknownColumns: ["nickname"] });
  expect(report.tables.follows).toMatchObject({
    read: 5,
    imported: 4,
    skipped: { [DUPLICATE]: 1 },
  });
  expect(report.tables.messages).toMatchObject({ read: 5, imported: 4, skipped: { "a message to oneself": 1 } });
  expect(report.unknownTables).toEqual({ mc_extra: 1 });
  const counters = Object.fromEntries(report.counters.map((c) => [c.counter, c.rows]));
  // Every dumped user says 3 unread messages: alice has 3, the other three none.
  expect(counters).toMatchObject({
    "questions.answer_count": 1,
    "users.notification_unread": 4,
    "users.inbox_unread": 3,
  });
  expect(counters["topics.question_count"]).toBe(1);
  expect(report.files.map((f) => f.key)).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^user-avatar\/.*\/a1b2\.png$/),
      expect.stringMatching(/^image\/.*png$/),
    ]),
  );
}

describe("running the import again", () => {
  it("refuses a database that has content, unless forced", async () => {
    await importCommunity("mysqldump");
    await expect(importCommunity("phpmyadmin")).rejects.toBeInstanceOf(DatabaseNotEmpty);
    const forced = await importCommunity("phpmyadmin", d1Target(env.DB), true);
    expect(forced.tables.questions?.imported).toBe(2);
  });

  it("empties the bookmarks and edit history a forced run would otherwise attach to the ids it imports", async () => {
    await importCommunity("mysqldump");
    expect((await put("/api/questions/10/bookmark", { token: TOKEN })).status).toBe(200);
    expect((await put("/api/questions/10/accepted_answer", { token: TOKEN, body: { answer_id: 20 } })).status).toBe(
      200,
    );
    // A revision as an edit of the community being replaced left it (the imported options may forbid edits).
    await env.DB.prepare(
      `INSERT INTO revisions (revisable_type, revisable_id, revision, user_id, title, create_time)
       VALUES ('question', 10, 2, 2, 'an earlier title', 1)`,
    ).run();

    await importCommunity("phpmyadmin", d1Target(env.DB), true);

    expect((await get("/api/questions/10")).body.data.accepted_answer_id).toBe(0);
    expect((await get("/api/questions/10/revisions")).body.data).toEqual([]);
    expect((await get("/api/user/bookmarks", { token: TOKEN })).body.data).toEqual([]);
    expect(await newFacts()).toEqual({ revisions: 0, bookmarks: 0, notices: 0 });
  });

  it("after a failure, starts clean and duplicates nothing", async () => {
    const real = d1Target(env.DB);
    let writes = 0;
    const failing: ImportTarget = {
      query: (statement) => real.query(statement),
      async execute(statements) {
        writes++;
        if (writes === 4) throw new Error("network gone");
        await real.execute(statements);
      },
    };
    await expect(importCommunity("mysqldump", failing)).rejects.toThrow("network gone");
    const again = await importCommunity("mysqldump");
    expect(again.tables.comments).toMatchObject({ read: 4, imported: 4 });
    const counts = await env.DB.prepare(
      "SELECT (SELECT count(*) FROM questions) AS q, (SELECT count(*) FROM follows) AS f, (SELECT count(*) FROM users) AS u",
    ).first();
    expect(counts).toEqual({ q: 2, f: 4, u: 4 });
  });
});

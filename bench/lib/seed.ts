/**
 * The benchmark's community, written through the API (topics, articles with topics, comments, votes, follows) by
 * users inserted with SQL: registration needs an e-mail code, and the API has no other way to create users. Every
 * id and choice follows from the item's index, so two seedings give the same community.
 */
import { createHash, createHmac, pbkdf2Sync, randomBytes } from "node:crypto";
import { api, type Fetch, login, pool } from "./api";

export const PLAN = {
  /** bench01 writes `authorArticles` articles (the user list read); bench02 is the reader, who votes and follows. */
  users: 40,
  topics: 20,
  articles: 1200,
  authorArticles: 150,
  comments: 3000,
  /** Each user votes on one article in this many, and on one comment in `commentVoteEvery`. */
  articleVoteEvery: 10,
  commentVoteEvery: 30,
};

export const USER_PASSWORD = "bench-user-password";
export const username = (index: number) => `bench${String(index + 1).padStart(2, "0")}`;
const AUTHOR = 0;
const READER = 1;

/**
 * The stored form of a password as src/lib/password.ts writes it: HMAC-SHA-256 of the SHA-1 hex digest with the
 * pepper, then salted PBKDF2-SHA-256, 100 000 iterations. One hash serves every bench user.
 */
export function passwordHash(password: string, pepper: string): string {
  const digest = createHash("sha1").update(password).digest("hex");
  const secret = createHmac("sha256", pepper).update(digest).digest();
  const salt = randomBytes(16);
  const hash = pbkdf2Sync(secret, salt, 100_000, 32, "sha256").toString("hex");
  return `pbkdf2_sha256_hmac$100000$${salt.toString("hex")}$${hash}`;
}

/** The administrator (role admin, as the first one is created) and the bench users, as SQL. */
export function usersSql(pepper: string, admin: { username: string; email: string; password: string }): string {
  const time = Math.floor(Date.now() / 1000);
  const row = (name: string, email: string, hash: string, role: string) =>
    `INSERT INTO users (username, email, password, role, create_time, update_time) ` +
    `VALUES ('${name}', '${email}', '${hash}', '${role}', ${time}, ${time});`;
  const hash = passwordHash(USER_PASSWORD, pepper);
  const lines = [row(admin.username, admin.email, passwordHash(admin.password, pepper), "admin")];
  for (let i = 0; i < PLAN.users; i++) lines.push(row(username(i), `${username(i)}@bench.example`, hash, "user"));
  return `${lines.join("\n")}\n`;
}

/** What the load benchmark needs to know of the community. */
export interface Seeded {
  userIds: number[];
  authorId: number;
  readerId: number;
  topicIds: number[];
  articleIds: number[];
  commentIds: number[];
  /** Seconds the seeding took. */
  seconds: number;
}

const LOREM =
  "Edge runtimes answer close to the reader, but every round trip to the database still crosses the network. " +
  "A page that needs its rows, their authors, their topics and the reader's own votes can ask for them together, " +
  "and a list that keeps its order in an index never sorts. ";

/** About 1.5 KB of markdown with the constructs articles use: heading, emphasis, code, a list, a link, a table. */
export function articleMarkdown(i: number): string {
  return [
    `Article ${i} looks at **caching** on the edge, and why the *first byte* matters.`,
    "",
    `## Part ${(i % 7) + 1}`,
    "",
    LOREM,
    "",
    `- a measured \`p50\` of ${i % 90} ms`,
    `- a [reference](https://example.com/articles/${i}) to read`,
    "- a ~~retired~~ idea",
    "",
    "```js",
    `const answer = ${i} * 2;`,
    "```",
    "",
    "| route | req/s |",
    "|---|---|",
    `| /api/articles | ${100 + (i % 50)} |`,
    "",
    LOREM.repeat(1 + (i % 3)),
  ].join("\n");
}

/** 1 to 3 distinct topics of an article. */
function topicsOf(i: number, topicIds: number[]): number[] {
  const n = topicIds.length;
  const picks = [i % n, (i * 7 + 3) % n, (i * 13 + 5) % n].slice(0, 1 + (i % 3));
  return [...new Set(picks)].map((k) => topicIds[k] as number);
}

/**
 * Logs users in one at a time: the login throttle counts every attempt from an address as a failure until its
 * password is checked (docs/auth.md#login-throttling-and-captchas), so more than 5 at once from one address would be
 * asked for a captcha.
 */
export function loginAll(origin: string, names: string[], fetcher?: Fetch) {
  return pool(names, 1, (name) => login(origin, name, USER_PASSWORD, fetcher));
}

/**
 * Seeds through the API of the server at `origin`, whose users table holds {@link usersSql}'s rows, over
 * `concurrency` connections; prints each phase's time.
 */
export async function seed(
  origin: string,
  admin: { username: string; password: string },
  concurrency: number,
): Promise<Seeded> {
  const started = performance.now();
  let phase = started;
  const done = (what: string) => {
    const now = performance.now();
    console.log(`  ${what.padEnd(48)} ${((now - phase) / 1000).toFixed(1).padStart(6)} s`);
    phase = now;
  };
  const adminToken = (await login(origin, admin.username, admin.password)).token;
  const names = Array.from({ length: PLAN.users }, (_, i) => username(i));
  const users = await loginAll(origin, names);
  const userIds = users.map((user) => user.userId);
  const tokens = users.map((user) => user.token);
  done(`${users.length + 1} logins`);

  const topicIds = await pool(Array.from({ length: PLAN.topics }), concurrency, async (_, i) => {
    const body = { name: `Topic ${i + 1}`, description: `Everything about subject ${i + 1}.` };
    return (await api<{ topic_id: number }>(origin, "POST", "/api/topics", adminToken, body)).topic_id;
  });
  done(`${topicIds.length} topics`);

  const writerOf = (i: number) => (i < PLAN.authorArticles ? AUTHOR : 2 + (i % (PLAN.users - 2)));
  const articleIds = await pool(Array.from({ length: PLAN.articles }), concurrency, async (_, i) => {
    const body = { title: `Article ${i + 1}: notes on the edge`, content_markdown: articleMarkdown(i) };
    const article = await api<{ article_id: number }>(origin, "POST", "/api/articles", tokens[writerOf(i)], {
      ...body,
      topic_ids: topicsOf(i, topicIds),
    });
    return article.article_id;
  });
  done(`${articleIds.length} articles`);

  const commentIds = await pool(Array.from({ length: PLAN.comments }), concurrency, async (_, j) => {
    const articleId = articleIds[(j * 37) % articleIds.length];
    const body = { content: `Comment ${j + 1}: a thought on this article, with a number ${j * 7}.` };
    const token = tokens[(j * 11) % tokens.length];
    return (await api<{ comment_id: number }>(origin, "POST", `/api/articles/${articleId}/comments`, token, body))
      .comment_id;
  });
  done(`${commentIds.length} comments`);

  // Votes and follows: each user on a share of the articles and comments; the reader on half of the author's
  // articles, and follows a third of them, so that the reader's list has both kinds of rows.
  const writes: { path: string; user: number; body?: { type: string } }[] = [];
  const typeOf = (index: number, user: number) => ((index + user) % 5 === 0 ? "down" : "up");
  for (let u = 0; u < PLAN.users; u++) {
    articleIds.forEach((id, i) => {
      const mine = u === READER && i < PLAN.authorArticles && i % 2 === 0;
      if (mine || (i * 7 + u * 13) % PLAN.articleVoteEvery === 0) {
        writes.push({ path: `/api/articles/${id}/voters`, user: u, body: { type: typeOf(i, u) } });
      }
      if (u === READER && i < PLAN.authorArticles && i % 3 === 0)
        writes.push({ path: `/api/articles/${id}/followers`, user: u });
    });
    commentIds.forEach((id, j) => {
      if ((j * 7 + u * 11) % PLAN.commentVoteEvery === 0) {
        writes.push({ path: `/api/comments/${id}/voters`, user: u, body: { type: typeOf(j, u) } });
      }
    });
  }
  await pool(writes, concurrency, (write) => api(origin, "POST", write.path, tokens[write.user], write.body ?? {}));
  done(`${writes.length} votes and follows`);

  const seconds = (performance.now() - started) / 1000;
  return {
    userIds,
    authorId: userIds[AUTHOR] as number,
    readerId: userIds[READER] as number,
    topicIds,
    articleIds,
    commentIds,
    seconds,
  };
}

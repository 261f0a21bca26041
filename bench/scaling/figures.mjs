// `npx node bench/scaling/figures.mjs [questions …]` (default 1000 10000 100000): the measured figures of
// docs/scaling.md. For each size it seeds a community of that many questions (the shape below) straight into a
// local D1 database under .wrangler/scaling/, records its size, runs bench/scaling/worker.ts (the app, with D1's
// rows read and written added up per request) under `wrangler dev` on that database, and records what the main
// reads and writes cost. Figures go to .wrangler/scaling/figures.json and to standard output as a table; with
// `--trace`, every statement of every measured request with its rows goes to .wrangler/scaling/trace-q<size>.txt.
// Needs Node 22 (node:sqlite, wrangler): `npx node` runs the project's own.
import { spawn } from "node:child_process";
import { createHash, createHmac } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { random } from "../lib/random.mjs";

const TRACE = process.argv.includes("--trace");
// `--analyze` runs ANALYZE after seeding, as `PRAGMA optimize` would in D1: the query planner then knows how many
// rows each index holds per value. Without it the planner guesses, as it does on a database migrated and filled
// by the app alone (the migrations run no ANALYZE).
const ANALYZE = process.argv.includes("--analyze");
const SIZES = process.argv.slice(2).map(Number).filter(Boolean);
const sizes = SIZES.length ? SIZES : [1000, 10000, 100000];
const ROOT = join(".wrangler", "scaling", process.argv.includes("--analyze") ? "analyzed" : "as-migrated");
const WRANGLER = join("node_modules", ".bin", "wrangler");
const PORT = 8797;

// The shape of the community, per question. Numbers of a question-and-answer site with articles; authors, targets
// and followed users are drawn with a skew (a few users and questions get much of the activity), so the figures
// include the heavy rows a real community has. Text lengths are characters of ASCII text (a CJK character is 3
// bytes in UTF-8: a Chinese community's text takes up to 3 times the bytes).
const SHAPE = {
  usersPerQuestion: 1,
  answersPerQuestion: 1.5,
  articlesPerQuestion: 0.2,
  commentsPerQuestion: 3, // 40% on questions, 40% on answers, 10% on articles, 10% replies
  votesPerQuestion: 5, // 30% questions, 50% answers, 10% articles, 10% comments
  followsPerUser: { user: 3, question: 2, topic: 1, article: 0.3 },
  topicsPerPost: 2,
  tokensPerUser: 0.2,
  questionsPerTopic: 100, // at least 20 topics
  unreadShare: 0.2, // notifications left unread
  text: { title: 40, question: 700, answer: 600, article: 3000, comment: 120 },
  skew: 2, // index = floor(n * random^skew): the first rows are the popular ones
};
const DAY = 86400;
const NOW = Math.floor(Date.now() / 1000);
const START = NOW - 365 * DAY;

const WORDS =
  "the a of to and in is it that for on with as this are be by or not from edge worker database query index row " +
  "table page answer question article comment user vote follow topic cache replica primary write read count list"
    .split(" ")
    .filter(Boolean);

function seed(file, questionCount) {
  const rand = random(questionCount);
  const skewed = (n) => Math.floor(n * rand() ** SHAPE.skew) + 1;
  const uniform = (n) => Math.floor(n * rand()) + 1;
  const text = (length) => {
    let out = "";
    while (out.length < length) out += `${WORDS[Math.floor(rand() * WORDS.length)]} `;
    return out.slice(0, length);
  };
  const markdown = (length) => {
    const body = text(length - 40);
    return { md: `${body.slice(0, length / 2)}\n\n\`\`\`\ncode\n\`\`\`\n\n${body.slice(length / 2)}` };
  };
  const rendered = (md) =>
    `<p>${md.replace(/\n\n```\ncode\n```\n\n/, "</p>\n<pre><code>code\n</code></pre>\n<p>")}</p>`;

  const n = {
    users: Math.round(questionCount * SHAPE.usersPerQuestion),
    questions: questionCount,
    answers: Math.round(questionCount * SHAPE.answersPerQuestion),
    articles: Math.round(questionCount * SHAPE.articlesPerQuestion),
    comments: Math.round(questionCount * SHAPE.commentsPerQuestion),
    votes: Math.round(questionCount * SHAPE.votesPerQuestion),
    topics: Math.max(20, Math.round(questionCount / SHAPE.questionsPerTopic)),
  };
  const timeOf = (i, count) => START + Math.floor(((i - 1) / count) * 360 * DAY);
  const db = new DatabaseSync(file);
  db.exec("PRAGMA journal_mode = DELETE; PRAGMA synchronous = OFF; BEGIN");
  const insert = (sql) => db.prepare(sql);

  const user = insert(
    `INSERT INTO users (username, email, password, avatar, create_ip, create_location, last_login_time, last_login_ip,
       headline, bio, create_time, update_time)
     VALUES (?, ?, ?, ?, '203.0.113.7', 'CN Beijing', ?, '203.0.113.7', ?, ?, ?, ?)`,
  );
  const password = `pbkdf2-sha256$100000$${"s".repeat(22)}$${"h".repeat(43)}`;
  for (let i = 1; i <= n.users; i++) {
    const t = timeOf(i, n.users);
    const profile = rand() < 0.3;
    user.run(
      `user${i}`,
      `user${i}@example.com`,
      password,
      `user-avatar/${i}/${"a".repeat(32)}.png`,
      NOW - uniform(30) * DAY,
      profile ? text(20) : "",
      profile ? text(60) : "",
      t,
      t,
    );
  }
  const topic = insert("INSERT INTO topics (name, description) VALUES (?, ?)");
  for (let i = 1; i <= n.topics; i++) topic.run(`topic ${i}`, text(80));

  const question = insert(
    `INSERT INTO questions (user_id, title, content_markdown, content_rendered, create_time, update_time)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const authors = { question: [0], answer: [0], article: [0], comment: [0] };
  for (let i = 1; i <= n.questions; i++) {
    const { md } = markdown(SHAPE.text.question);
    const author = skewed(n.users);
    authors.question.push(author);
    const t = timeOf(i, n.questions);
    question.run(author, text(SHAPE.text.title), md, rendered(md), t, t);
  }
  const link = insert(
    "INSERT OR IGNORE INTO topicables (topic_id, topicable_id, topicable_type, create_time) VALUES (?, ?, ?, ?)",
  );
  for (let i = 1; i <= n.questions; i++) {
    for (let k = 0; k < SHAPE.topicsPerPost; k++) link.run(skewed(n.topics), i, "question", timeOf(i, n.questions));
  }
  const answer = insert(
    `INSERT INTO answers (question_id, user_id, content_markdown, content_rendered, create_time, update_time)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const answerQuestion = [0];
  const answerRows = [];
  for (let i = 1; i <= n.answers; i++) {
    const q = skewed(n.questions);
    const qTime = timeOf(q, n.questions);
    answerRows.push([q, skewed(n.users), qTime + Math.floor(rand() * (NOW - qTime))]);
  }
  // Answers are inserted in time order, as they would have been posted.
  answerRows.sort((x, y) => x[2] - y[2]);
  for (const [q, author, t] of answerRows) {
    const { md } = markdown(SHAPE.text.answer);
    answer.run(q, author, md, rendered(md), t, t);
    answerQuestion.push(q);
    authors.answer.push(author);
  }
  db.exec(`UPDATE questions SET last_answer_time = a.t, update_time = max(update_time, a.t)
           FROM (SELECT question_id, max(create_time) AS t FROM answers GROUP BY question_id) AS a
           WHERE questions.question_id = a.question_id`);
  const article = insert(
    `INSERT INTO articles (user_id, title, content_markdown, content_rendered, create_time, update_time)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  for (let i = 1; i <= n.articles; i++) {
    const { md } = markdown(SHAPE.text.article);
    const author = skewed(n.users);
    authors.article.push(author);
    const t = timeOf(i, n.articles);
    article.run(author, text(SHAPE.text.title), md, rendered(md), t, t);
    for (let k = 0; k < SHAPE.topicsPerPost; k++) link.run(skewed(n.topics), i, "article", t);
  }

  const comment = insert(
    `INSERT INTO comments (commentable_id, commentable_type, user_id, content, create_time, update_time)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const notify = insert(
    `INSERT INTO notifications (receiver_id, sender_id, type, article_id, question_id, answer_id, comment_id, reply_id,
       create_time, read_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const note = (receiver, sender, type, ids, t) => {
    if (receiver === sender) return;
    const read = rand() < SHAPE.unreadShare ? 0 : t + DAY;
    notify.run(
      receiver,
      sender,
      type,
      ids.article ?? 0,
      ids.question ?? 0,
      ids.answer ?? 0,
      ids.comment ?? 0,
      ids.reply ?? 0,
      t,
      read,
    );
  };
  for (const [a, q] of answerQuestion.entries()) {
    if (a > 0)
      note(
        authors.question[q],
        authors.answer[a],
        "question_answered",
        { question: q, answer: a },
        NOW - uniform(360) * DAY,
      );
  }
  for (let i = 1; i <= n.comments; i++) {
    const roll = rand();
    const author = skewed(n.users);
    const t = START + Math.floor(((i - 1) / n.comments) * 364 * DAY);
    let target;
    if (roll < 0.4) target = ["question", skewed(n.questions)];
    else if (roll < 0.8) target = ["answer", skewed(n.answers)];
    else if (roll < 0.9 || i === 1) target = ["article", skewed(n.articles)];
    else target = ["comment", uniform(i - 1)];
    comment.run(target[1], target[0], author, text(SHAPE.text.comment), t, t);
    authors.comment.push(author);
    const [type, id] = target;
    if (type === "question") note(authors.question[id], author, "question_commented", { question: id, comment: i }, t);
    if (type === "answer") {
      note(authors.answer[id], author, "answer_commented", { question: answerQuestion[id], answer: id, comment: i }, t);
    }
    if (type === "article") note(authors.article[id], author, "article_commented", { article: id, comment: i }, t);
    if (type === "comment") note(authors.comment[id], author, "comment_replied", { comment: id, reply: i }, t);
  }

  const vote = insert(
    "INSERT OR IGNORE INTO votes (user_id, votable_id, votable_type, type, create_time) VALUES (?, ?, ?, ?, ?)",
  );
  for (let i = 0; i < n.votes; i++) {
    const roll = rand();
    const [type, count] =
      roll < 0.3
        ? ["question", n.questions]
        : roll < 0.8
          ? ["answer", n.answers]
          : roll < 0.9
            ? ["article", n.articles]
            : ["comment", n.comments];
    vote.run(skewed(n.users), skewed(count), type, rand() < 0.9 ? "up" : "down", NOW - uniform(360) * DAY);
  }
  const follow = insert(
    "INSERT OR IGNORE INTO follows (user_id, followable_id, followable_type, create_time) VALUES (?, ?, ?, ?)",
  );
  const followable = { user: n.users, question: n.questions, topic: n.topics, article: n.articles };
  for (let u = 1; u <= n.users; u++) {
    for (const [type, perUser] of Object.entries(SHAPE.followsPerUser)) {
      const times = Math.floor(perUser) + (rand() < perUser % 1 ? 1 : 0);
      for (let k = 0; k < times; k++) {
        const target = skewed(followable[type]);
        if (type !== "user" || target !== u) follow.run(u, target, type, NOW - uniform(360) * DAY);
      }
    }
  }
  const token = insert(
    "INSERT INTO tokens (token, user_id, device, create_time, update_time, expire_time) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const tokenCount = Math.round(n.users * SHAPE.tokensPerUser);
  for (let i = 1; i <= tokenCount; i++) {
    token.run(
      sha256(`seed-token-${i}`),
      uniform(n.users),
      "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0",
      NOW,
      NOW,
      NOW + 15 * DAY,
    );
  }
  recountAll(db);
  db.exec("COMMIT");
  if (ANALYZE) db.exec("ANALYZE");
  const tables = "users topics questions answers articles comments votes follows topicables notifications tokens";
  const counts = Object.fromEntries(
    tables.split(" ").map((table) => [table, db.prepare(`SELECT count(*) AS n FROM ${table}`).get().n]),
  );
  db.close();
  return counts;
}

/**
 * Every stored counter (docs/counters.md): the owner's table, key and column, and the rows counted as `from`
 * (table and condition) grouped by the column `by` that names the owner.
 */
const COUNTERS = [
  ["users", "user_id", "question_count", "questions WHERE delete_time = 0", "user_id"],
  ["users", "user_id", "answer_count", "answers WHERE delete_time = 0", "user_id"],
  ["users", "user_id", "article_count", "articles WHERE delete_time = 0", "user_id"],
  ["users", "user_id", "follower_count", "follows WHERE followable_type = 'user'", "followable_id"],
  ["users", "user_id", "followee_count", "follows WHERE followable_type = 'user'", "user_id"],
  ["users", "user_id", "following_question_count", "follows WHERE followable_type = 'question'", "user_id"],
  ["users", "user_id", "following_article_count", "follows WHERE followable_type = 'article'", "user_id"],
  ["users", "user_id", "following_topic_count", "follows WHERE followable_type = 'topic'", "user_id"],
  ["users", "user_id", "notification_unread", "notifications WHERE read_time = 0", "receiver_id"],
  ["questions", "question_id", "answer_count", "answers WHERE delete_time = 0", "question_id"],
  ["questions", "question_id", "follower_count", "follows WHERE followable_type = 'question'", "followable_id"],
  ["articles", "article_id", "follower_count", "follows WHERE followable_type = 'article'", "followable_id"],
  ["topics", "topic_id", "follower_count", "follows WHERE followable_type = 'topic'", "followable_id"],
  ["topics", "topic_id", "question_count", "topicables WHERE topicable_type = 'question'", "topic_id"],
  ["topics", "topic_id", "article_count", "topicables WHERE topicable_type = 'article'", "topic_id"],
  ...[
    ["questions", "question_id", "question"],
    ["answers", "answer_id", "answer"],
    ["articles", "article_id", "article"],
    ["comments", "comment_id", "comment"],
  ].map(([table, key, kind]) => [
    table,
    key,
    kind === "comment" ? "reply_count" : "comment_count",
    `comments WHERE commentable_type = '${kind}' AND delete_time = 0`,
    "commentable_id",
  ]),
];
const VOTABLE = [
  ["questions", "question_id", "question"],
  ["answers", "answer_id", "answer"],
  ["articles", "article_id", "article"],
  ["comments", "comment_id", "comment"],
];

/** Sets every stored counter to the COUNT(*) the app would have left there. */
function recountAll(db) {
  for (const [table, key, column, from, by] of COUNTERS) {
    db.exec(`UPDATE ${table} SET ${column} = c.n FROM (SELECT ${by} AS id, count(*) AS n FROM ${from} GROUP BY 1) AS c
             WHERE ${table}.${key} = c.id`);
  }
  for (const [table, key, kind] of VOTABLE) {
    db.exec(`UPDATE ${table} SET vote_up_count = c.up, vote_down_count = c.down, vote_count = c.up - c.down FROM
      (SELECT votable_id AS id, count(*) FILTER (WHERE type = 'up') AS up, count(*) FILTER (WHERE type = 'down') AS down
       FROM votes WHERE votable_type = '${kind}' GROUP BY 1) AS c WHERE ${table}.${key} = c.id`);
  }
}

const sha256 = (text) => createHash("sha256").update(text).digest("hex");

/** The file of the local D1 database under `dir` (Miniflare keeps one SQLite file per database). */
function databaseFile(dir) {
  const folder = join(dir, "v3", "d1", "miniflare-D1DatabaseObject");
  const file = readdirSync(folder).find((name) => name.endsWith(".sqlite"));
  if (!file) throw new Error(`no database under ${folder}`);
  return join(folder, file);
}

/** Bytes of the file, and of each table with its indexes (dbstat, when this SQLite has it). */
function measureSize(file, counts) {
  const db = new DatabaseSync(file, { readOnly: true });
  const { page_size: pageSize } = db.prepare("PRAGMA page_size").get();
  const { page_count: pages } = db.prepare("PRAGMA page_count").get();
  const tables = {};
  try {
    for (const row of db
      .prepare(
        `SELECT coalesce(m.tbl_name, s.name) AS tbl, sum(s.pgsize) AS bytes
       FROM dbstat AS s LEFT JOIN sqlite_master AS m ON m.name = s.name GROUP BY 1 ORDER BY 2 DESC`,
      )
      .all()) {
      tables[row.tbl] = { bytes: row.bytes, rows: counts[row.tbl] ?? null };
    }
  } catch {
    // No dbstat in this build: the file size alone.
  }
  db.close();
  return { bytes: pageSize * pages, fileBytes: statSync(file).size, pageSize, tables };
}

/** Ids of typical and heavy rows to aim the requests at. */
function pickTargets(file) {
  const db = new DatabaseSync(file, { readOnly: true });
  const id = (sql) => db.prepare(sql).get().id;
  // The caller: an ordinary member with a few unread notifications and no questions of their own. The targets of
  // their writes are not theirs and not yet followed or voted by them, so that every write writes.
  const me = id(`SELECT user_id AS id FROM users WHERE notification_unread BETWEEN 1 AND 5 AND question_count = 0
                 ORDER BY user_id DESC LIMIT 1`);
  const notFollowed = (type) =>
    `NOT EXISTS (SELECT 1 FROM follows WHERE user_id = ${me} AND followable_type = '${type}'`;
  const typicalQuestion =
    id(`SELECT question_id AS id FROM questions WHERE answer_count = 3 AND comment_count BETWEEN 1 AND 5
    AND ${notFollowed("question")} AND followable_id = question_id) ORDER BY question_id DESC LIMIT 1`);
  const targets = {
    typicalUser: me,
    heavyUser: id("SELECT user_id AS id FROM users ORDER BY notification_unread DESC LIMIT 1"),
    followedUser: id(`SELECT user_id AS id FROM users WHERE user_id <> ${me} AND ${notFollowed("user")}
      AND followable_id = users.user_id) ORDER BY follower_count DESC LIMIT 1`),
    quietUser:
      id(`SELECT user_id AS id FROM users WHERE follower_count = 1 AND user_id <> ${me} AND ${notFollowed("user")}
      AND followable_id = users.user_id) ORDER BY user_id DESC LIMIT 1`),
    writer: id("SELECT user_id AS id FROM users ORDER BY article_count DESC LIMIT 1"),
    typicalQuestion,
    hotQuestion: id("SELECT question_id AS id FROM questions ORDER BY answer_count DESC LIMIT 1"),
    topic: id("SELECT topic_id AS id FROM topics ORDER BY question_count DESC LIMIT 1"),
    quietTopic: id("SELECT topic_id AS id FROM topics ORDER BY question_count ASC LIMIT 1"),
    comment: id("SELECT comment_id AS id FROM comments ORDER BY comment_id DESC LIMIT 1 OFFSET 100"),
    answer: id(`SELECT answer_id AS id FROM answers WHERE question_id = ${typicalQuestion} AND user_id <> ${me}
      AND NOT EXISTS (SELECT 1 FROM votes WHERE user_id = ${me} AND votable_type = 'answer' AND votable_id = answer_id)
      LIMIT 1`),
  };
  const shape = db
    .prepare(
      `SELECT (SELECT follower_count FROM users WHERE user_id = ${targets.followedUser}) AS most_followers,
         (SELECT answer_count FROM questions WHERE question_id = ${targets.hotQuestion}) AS most_answers,
         (SELECT question_count FROM topics WHERE topic_id = ${targets.topic}) AS largest_topic_questions,
         (SELECT question_count FROM topics WHERE topic_id = ${targets.quietTopic}) AS smallest_topic_questions,
         (SELECT notification_unread FROM users WHERE user_id = ${targets.heavyUser}) AS most_unread,
         (SELECT article_count FROM users WHERE user_id = ${targets.writer}) AS most_articles`,
    )
    .get();
  db.close();
  return { ...targets, shape: { ...shape } };
}

/**
 * The server's pepper, and a token as a login issues it, naming its holder (src/lib/token-claims.ts: the MAC's key is
 * the pepper's HMAC of a fixed label), so that reads cost what they cost a client that logged in.
 */
const PEPPER = "scaling-figures-pepper";
function claimedToken(userId, random) {
  const key = createHmac("sha256", PEPPER).update("mdclub-edge token claims v1").digest();
  const body = `${userId}.u.${random}`;
  return `${body}.${createHmac("sha256", key).update(body).digest("hex").slice(0, 32)}`;
}

/** Gives two seeded users a token this script knows: the database keeps only its SHA-256. */
function addCallers(file, targets) {
  const db = new DatabaseSync(file);
  const add = db.prepare(
    `INSERT OR REPLACE INTO tokens (token, user_id, device, create_time, update_time, expire_time)
     VALUES (?, ?, 'figures', ?, ?, ?)`,
  );
  const callers = {};
  for (const who of ["typicalUser", "heavyUser"]) {
    const token = claimedToken(targets[who], sha256(`figures-${who}`));
    add.run(sha256(token), targets[who], NOW, NOW, NOW + 15 * DAY);
    callers[who] = token;
  }
  db.close();
  return callers;
}

function startServer(dir) {
  const child = spawn(
    WRANGLER,
    [
      "dev",
      "bench/scaling/worker.ts",
      "--config",
      "wrangler.toml",
      "--persist-to",
      dir,
      "--port",
      String(PORT),
      "--ip",
      "127.0.0.1",
      // Rows are what is measured: the edge cache would answer the repeated anonymous reads with none.
      "--var",
      "EDGE_CACHE_SECONDS:0",
      "--var",
      `PASSWORD_PEPPER:${PEPPER}`,
    ],
    {
      env: { ...process.env, X_LOCAL_OBSERVABILITY: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", CI: "true" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  let log = "";
  child.stdout.on("data", (chunk) => {
    log += chunk;
  });
  child.stderr.on("data", (chunk) => {
    log += chunk;
  });
  return { child, log: () => log };
}

/** Stops the server this script started: its own process group, by id. */
function stopServer(server) {
  try {
    process.kill(-server.child.pid, "SIGTERM");
  } catch {
    // Already gone.
  }
}

async function waitForServer(server) {
  for (let i = 0; i < 120; i++) {
    try {
      const res = await fetch(`http://127.0.0.1:${PORT}/api/options`);
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`wrangler dev did not start:\n${server.log()}`);
}

async function call(method, path, token, body, trace = false) {
  const headers = { "content-type": "application/json" };
  if (token) headers.token = token;
  if (trace) headers["x-scaling-trace"] = "1";
  const res = await fetch(`http://127.0.0.1:${PORT}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json().catch(() => null);
  const timing = res.headers.get("server-timing") ?? "";
  return {
    status: res.status,
    code: json?.code,
    total: json?.pagination?.total,
    roundTrips: Number(/desc="(\d+) round trips"/.exec(timing)?.[1]),
    d1Ms: Number(/d1;dur=([\d.]+)/.exec(timing)?.[1]),
    rowsReadHeader: Number(/desc="(\d+) rows read"/.exec(timing)?.[1]),
    rowsRead: Number(res.headers.get("x-scaling-rows-read")),
    rowsWritten: Number(res.headers.get("x-scaling-rows-written")),
    sqlMs: Number(res.headers.get("x-scaling-sql-ms")),
    statements: Number(res.headers.get("x-scaling-statements")),
    rerun: Number(res.headers.get("x-scaling-rerun")),
    unmetered: Number(res.headers.get("x-scaling-unmetered")),
  };
}

function requests(t, callers) {
  const me = callers.typicalUser;
  const heavy = callers.heavyUser;
  const reads = [
    ["home: questions, latest activity", "/api/questions?per_page=20&include=user,topics,voting", null],
    ["home, logged in", "/api/questions?per_page=20&include=user,topics,is_following,voting", me],
    ["home, page 50", "/api/questions?page=50&per_page=20&include=user,topics,voting", null],
    ["a question", `/api/questions/${t.typicalQuestion}?include=user,topics,is_following,voting`, me],
    ["its answers", `/api/questions/${t.typicalQuestion}/answers?per_page=20&include=user,voting`, me],
    [
      "answers of the most answered question",
      `/api/questions/${t.hotQuestion}/answers?per_page=20&include=user,voting`,
      me,
    ],
    ["a question's comments", `/api/questions/${t.typicalQuestion}/comments?per_page=20&include=user,voting`, me],
    ["a user's articles (the most prolific)", `/api/users/${t.writer}/articles?per_page=20&include=user,topics`, me],
    ["a comment", `/api/comments/${t.comment}?include=user,voting`, me],
    ["notification count", "/api/notifications/count", me],
    ["notification count (most unread)", "/api/notifications/count", heavy],
    ["notifications page (most unread)", "/api/notifications?per_page=20&include=sender", heavy],
    ["home: articles", "/api/articles?per_page=20&include=user,topics", null],
    ["a topic's questions (largest topic)", `/api/topics/${t.topic}/questions?per_page=20&include=user`, null],
    ["a topic's questions (smallest topic)", `/api/topics/${t.quietTopic}/questions?per_page=20&include=user`, null],
    ["the caller (authentication alone)", "/api/user", me],
  ];
  const writes = [
    [
      "ask, in the largest topic",
      "POST",
      "/api/questions",
      { title: "How do read replicas change a bill?", content_markdown: "Some **text** here.", topic_ids: [t.topic] },
      me,
    ],
    [
      "ask, in the smallest topic",
      "POST",
      "/api/questions",
      { title: "Which index holds this order?", content_markdown: "Some **text** here.", topic_ids: [t.quietTopic] },
      me,
    ],
    ["answer", "POST", `/api/questions/${t.typicalQuestion}/answers`, { content_markdown: "An *answer*." }, me],
    [
      "answer the most answered question",
      "POST",
      `/api/questions/${t.hotQuestion}/answers`,
      { content_markdown: "Another." },
      me,
    ],
    ["comment on a question", "POST", `/api/questions/${t.typicalQuestion}/comments`, { content: "A comment." }, me],
    ["vote up an answer", "POST", `/api/answers/${t.answer}/voters`, { type: "up" }, me],
    ["follow a user", "POST", `/api/users/${t.quietUser}/followers`, undefined, me],
    ["follow the most followed user", "POST", `/api/users/${t.followedUser}/followers`, undefined, me],
    ["follow a question", "POST", `/api/questions/${t.typicalQuestion}/followers`, undefined, me],
    ["mark all notifications read (most unread)", "POST", "/api/notifications/read", undefined, heavy],
  ];
  return { reads, writes };
}

async function measureRequests(targets, callers) {
  const { reads, writes } = requests(targets, callers);
  const out = { reads: [], writes: [] };
  // The first request loads the site settings into KV; every read is measured on its second call.
  await call("GET", "/api/options");
  for (const [label, path, token] of reads) {
    await call("GET", path, token);
    out.reads.push({
      label,
      path,
      caller: token ? "logged in" : "anonymous",
      ...(await call("GET", path, token, undefined, TRACE)),
    });
  }
  for (const [label, method, path, body, token] of writes) {
    out.writes.push({ label, method, path, ...(await call(method, path, token, body, TRACE)) });
  }
  return out;
}

/** Each measured request's statements, in the order the server logged them, with the rows D1 reported. */
function writeTrace(file, measured, log) {
  const traces = [...log.matchAll(/x-scaling-trace (\[.*\])/g)].map((match) => JSON.parse(match[1]));
  const labels = [...measured.reads, ...measured.writes].map((x) => `${x.method ?? "GET"} ${x.path} (${x.label})`);
  const lines = labels.flatMap((label, i) => [
    `\n## ${label}`,
    ...(traces[i] ?? []).map((s) => `read ${s.read}, written ${s.written}: ${s.sql}`),
  ]);
  writeFileSync(file, `${lines.join("\n")}\n`);
}

/** One row of a markdown table. */
const row = (cells) => `| ${cells.join(" | ")} |`;
const count = (n) => Math.round(n).toLocaleString("en");

function printTable(results) {
  const header = (first) =>
    [row([first, ...results.map((r) => `${count(r.questions)} q.`)]), row(["---", ...results.map(() => "---")])].join(
      "\n",
    );
  const failed = (x) => (x.status === 200 ? "" : ` HTTP ${x.status} code ${x.code}`);
  // The app's Server-Timing, when it says less than D1 (statements outside a batch), in brackets.
  const undercount = (x) => (x.rowsRead === x.rowsReadHeader ? "" : ` (header ${x.rowsReadHeader})`);
  console.log("\nRows read per request (D1 meta; round trips in brackets)\n");
  console.log(header("read"));
  for (const [i, read] of results[0].requests.reads.entries()) {
    const cells = results
      .map((r) => r.requests.reads[i])
      .map((x) => `${x.rowsRead}${undercount(x)} [${x.roundTrips}]${failed(x)}`);
    console.log(row([read.label, ...cells]));
  }
  console.log("\nWrites: rows written / rows read [round trips]\n");
  console.log(header("write"));
  for (const [i, write] of results[0].requests.writes.entries()) {
    const cells = results
      .map((r) => r.requests.writes[i])
      .map((x) => `${x.rowsWritten} / ${x.rowsRead} [${x.roundTrips}]${failed(x)}`);
    console.log(row([write.label, ...cells]));
  }
  console.log("\nSize\n");
  console.log(header("database"));
  console.log(row(["bytes", ...results.map((r) => count(r.size.bytes))]));
  const perThousand = (r) => count((r.size.bytes / (r.counts.questions + r.counts.answers)) * 1000);
  console.log(row(["bytes per 1,000 questions + answers", ...results.map(perThousand)]));
}

// What one active (logged-in) member does in a day, by the labels of the requests above: the assumption behind the
// monthly figures of docs/scaling.md. Anonymous readers are left out: the edge cache answers most of them.
const DAY_OF_A_MEMBER = {
  reads: {
    "home, logged in": 6,
    "a question": 10,
    "its answers": 9,
    "answers of the most answered question": 1,
    "a question's comments": 3,
    "a user's articles (the most prolific)": 1,
    "a comment": 0.5,
    "notification count": 5,
    "notifications page (most unread)": 1,
    "home: articles": 2,
    "a topic's questions (largest topic)": 1,
    "a topic's questions (smallest topic)": 1,
    "the caller (authentication alone)": 3,
  },
  writes: {
    "ask, in the largest topic": 0.025,
    "ask, in the smallest topic": 0.025,
    answer: 0.14,
    "answer the most answered question": 0.01,
    "comment on a question": 0.3,
    "vote up an answer": 1,
    "follow a user": 0.09,
    "follow the most followed user": 0.01,
    "follow a question": 0.1,
  },
};
// Published prices (docs/scaling.md cites the pages): D1 rows, Workers requests, KV writes, per month.
const PRICE = {
  d1Read: { included: 25e9, perMillion: 0.001 },
  d1Written: { included: 50e6, perMillion: 1.0 },
  workersRequests: { included: 10e6, perMillion: 0.3 },
  kvReads: { included: 10e6, perMillion: 0.5 },
  kvWrites: { included: 1e6, perMillion: 5.0 },
};
const overage = (used, price) => (Math.max(0, used - price.included) / 1e6) * price.perMillion;

/** One member's day in rows, at each measured size: the sums of the measured requests times the day's counts. */
function memberDay(result) {
  const sum = (list, counts, field) =>
    Object.entries(counts).reduce((total, [label, times]) => {
      const x = list.find((request) => request.label === label);
      if (!x) throw new Error(`no measured request "${label}"`);
      return total + times * x[field];
    }, 0);
  const { reads, writes } = result.requests;
  return {
    reads: Object.values(DAY_OF_A_MEMBER.reads).reduce((a, b) => a + b, 0),
    writes: Object.values(DAY_OF_A_MEMBER.writes).reduce((a, b) => a + b, 0),
    rowsRead: sum(reads, DAY_OF_A_MEMBER.reads, "rowsRead") + sum(writes, DAY_OF_A_MEMBER.writes, "rowsRead"),
    rowsWritten: sum(writes, DAY_OF_A_MEMBER.writes, "rowsWritten"),
  };
}

/** A month of `members` daily active members, priced, with the write rate at a peak of `peak` times the mean. */
function month(day, members, peak = 10) {
  const rowsRead = day.rowsRead * members * 30;
  const rowsWritten = day.rowsWritten * members * 30;
  const requests = (day.reads + day.writes) * members * 30;
  // KV: each isolate holds the site settings for OPTIONS_CACHE_SECONDS (no read a request), and with read
  // replication on a token's "last write" bookmark is read for every logged-in read (so one read a request at most;
  // none without replication), and written on every write.
  const kvReads = requests;
  const kvWrites = day.writes * members * 30;
  return {
    members,
    rowsRead,
    rowsWritten,
    d1Dollars: overage(rowsRead, PRICE.d1Read) + overage(rowsWritten, PRICE.d1Written),
    workersDollars: 5 + overage(requests, PRICE.workersRequests),
    kvDollars: overage(kvReads, PRICE.kvReads) + overage(kvWrites, PRICE.kvWrites),
    peakWritesPerSecond: ((day.writes * members) / 86400) * peak,
  };
}

function printModel(results) {
  console.log("\nA member's day (the mix in DAY_OF_A_MEMBER)\n");
  console.log(row(["questions", "requests", "rows read", "rows written", "bytes per question (whole database)"]));
  console.log(row(["---", "---", "---", "---", "---"]));
  for (const r of results) {
    const day = memberDay(r);
    const requests = (day.reads + day.writes).toFixed(1);
    console.log(
      row([
        count(r.questions),
        requests,
        count(day.rowsRead),
        day.rowsWritten.toFixed(1),
        count(r.size.bytes / r.questions),
      ]),
    );
  }
  const last = results.at(-1);
  const day = memberDay(last);
  console.log(
    `\nA month at ${count(last.questions)} questions (USD; D1 rows, Workers requests with the $5 plan, KV)\n`,
  );
  console.log(
    row(["daily active members", "rows read", "rows written", "D1", "Workers", "KV", "writes/s at 10x the mean"]),
  );
  console.log(row(["---", "---", "---", "---", "---", "---", "---"]));
  for (const members of [1000, 10000, 100000, 1000000]) {
    const m = month(day, members);
    const dollars = [m.d1Dollars, m.workersDollars, m.kvDollars].map((d) => d.toFixed(2));
    const rows = [`${(m.rowsRead / 1e9).toFixed(2)} billion`, `${(m.rowsWritten / 1e6).toFixed(1)} million`];
    console.log(row([count(members), ...rows, ...dollars, m.peakWritesPerSecond.toFixed(1)]));
  }
}

const results = [];
for (const questions of sizes) {
  const dir = join(ROOT, `q${questions}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  console.error(`\n== ${questions} questions: migrations`);
  await new Promise((resolve, reject) => {
    const child = spawn(WRANGLER, ["d1", "migrations", "apply", "DB", "--local", "--persist-to", dir], {
      env: { ...process.env, CI: "true" },
      stdio: ["ignore", "ignore", "inherit"],
    });
    child.on("exit", (status) => (status === 0 ? resolve() : reject(new Error(`migrations: exit ${status}`))));
  });
  const file = databaseFile(dir);
  const started = Date.now();
  const counts = seed(file, questions);
  console.error(`   seeded in ${((Date.now() - started) / 1000).toFixed(1)} s: ${JSON.stringify(counts)}`);
  const size = measureSize(file, counts);
  const targets = pickTargets(file);
  const callers = addCallers(file, targets);
  const server = startServer(dir);
  try {
    await waitForServer(server);
    const measured = await measureRequests(targets, callers);
    results.push({ questions, counts, size, targets, requests: measured });
    if (TRACE) writeTrace(join(ROOT, `trace-q${questions}.txt`), measured, server.log());
  } finally {
    stopServer(server);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
if (!existsSync(ROOT)) mkdirSync(ROOT, { recursive: true });
writeFileSync(
  join(ROOT, "figures.json"),
  `${JSON.stringify({ shape: SHAPE, day: DAY_OF_A_MEMBER, results }, null, 2)}\n`,
);
printTable(results);
printModel(results);

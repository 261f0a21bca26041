/**
 * The load benchmark's reference: the benchmarked routes written by hand over raw D1, with no framework, no query
 * builder and no validation library, each answering with ONE `env.DB.batch()` (authentication included) the same
 * JSON the project answers. It reads the project's own database (same migrations, a copy of the seeded state),
 * so the project/reference ratio is what the project's structure costs. Only what the benchmark sends is
 * handled: a `token` header, `page`, `per_page` and `include`; the default order. By default (SHAPE = "required",
 * wrangler.toml) it also does what issue 10 asks of every answer besides its SQL, so that both Workers give the same
 * answer, headers included; SHAPE = "bare" leaves that work out, to measure what it costs; SHAPE = "project" makes
 * the project's round trips of before one-batch reads (Env.SHAPE), to measure what they cost.
 *
 * Routes: GET /api/comments/{id}, GET /api/users/{id}/articles, GET /api/articles, POST /api/articles/{id}/voters.
 */

interface Env {
  DB: D1Database;
  /** The project's settings cache (src/domain/site-options-store.ts), read in the project's shape only. */
  KV?: KVNamespace;
  /**
   * "required" (wrangler.toml): the required work besides the SQL (REQUIRED_HEADERS). "bare": one batch and the body,
   * nothing else. "project": the project's round trips instead of one batch, to measure what they cost: the settings
   * from KV, the caller in a batch of its own (with the settings when KV has lost them), then the route's batch.
   */
  SHAPE?: string;
}

/**
 * SHAPE = "required": the work every answer of the project does besides its SQL (docs/performance.md#reference-shapes),
 * done as plainly as this Worker does the rest: a D1 session and its bookmark in `x-d1-bookmark`, the ETag (SHA-1 of
 * the body) and `If-None-Match`, the CORS headers, a request id and Server-Timing; and a write's purge of the edge
 * cache (purgeEdgeCache). Anonymous reads are not cached here: that route shows what the project's cache saves.
 */
const REQUIRED_HEADERS: Record<string, string> = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "OPTIONS, GET, POST, PATCH, PUT, DELETE",
  "access-control-allow-headers":
    "Token, Authorization, Origin, X-Requested-With, X-Http-Method-Override, Accept, Content-Type, Connection, " +
    "User-Agent, X-D1-Bookmark, X-Request-Id",
  "access-control-expose-headers": "X-D1-Bookmark, X-Request-Id",
  "access-control-max-age": "86400",
  "timing-allow-origin": "*",
};

/** What the page's records need of the request: who asks, the includes and the URL bases of images. */
interface Ask {
  url: URL;
  /** The database, or with SHAPE = "required" the request's session on it. */
  db: D1Database | D1DatabaseSession;
  /** SHAPE = "required" (see REQUIRED_HEADERS), with what its answer needs of the request. */
  required: boolean;
  method: string;
  ifNoneMatch: string | null;
  /** The SHA-256 hex of the token, as `tokens.token` holds it; null for an anonymous request. */
  tokenHash: string | null;
  include: Set<string>;
}

/**
 * The caller, as a CTE each statement of the batch can name: the token's live, enabled user
 * (src/http/middleware/context.ts). Bound as ?1 (token hash) and ?2 (now).
 */
const CALLER = `WITH caller AS (SELECT u.user_id, u.role FROM tokens t JOIN users u ON u.user_id = t.user_id
  WHERE t.token = ?1 AND t.expire_time > ?2 AND u.disable_time = 0)`;
const CALLER_ID = "(SELECT user_id FROM caller)";
const CALLER_IS_ADMIN = "EXISTS (SELECT 1 FROM caller WHERE role = 'admin')";

const COMMENT_INCLUDES = ["user", "voting"];
const ARTICLE_INCLUDES = ["user", "topics", "is_following", "voting"];

const now = () => Math.floor(Date.now() / 1000);

const encoder = new TextEncoder();

async function digestHex(algorithm: string, bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest(algorithm, bytes));
  let hex = "";
  for (const byte of digest) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/** A statement with the caller CTE in front when there is a token (its parameters first). */
function withCaller(ask: Ask, sql: string, params: unknown[]): D1PreparedStatement {
  if (!ask.tokenHash) return ask.db.prepare(sql.replaceAll("$first", "?1")).bind(...params);
  const shifted = sql.replaceAll("$first", "?3");
  return ask.db.prepare(`${CALLER} ${shifted}`).bind(ask.tokenHash, now(), ...params);
}

// --- images (src/lib/image-urls.ts) ---

interface Bases {
  static: string;
  storage: string;
}

const trimSlash = (url: string) => url.replace(/\/+$/, "");

/** The image URL bases, from the settings (`option` gives a setting's value, '' when unset). */
function basesOf(option: (name: string) => string, origin: string): Bases {
  return {
    static: trimSlash(option("site_static_url") || `${origin}/static`),
    storage: trimSlash(option("storage_url") || `${origin}/upload`),
  };
}

function imageUrls(stored: string, fallback: string, bases: Bases) {
  const [base, path] = stored ? [bases.storage, stored] : [`${bases.static}/default`, fallback];
  const dot = path.lastIndexOf(".");
  const [stem, ext] = dot > 0 ? [path.slice(0, dot), path.slice(dot)] : [path, ""];
  return {
    original: `${base}/${path}`,
    small: `${base}/${stem}_small${ext}`,
    middle: `${base}/${stem}_middle${ext}`,
    large: `${base}/${stem}_large${ext}`,
  };
}

// --- the batch ---

const OPTIONS = "SELECT name, value FROM options WHERE name IN ('site_static_url', 'storage_url')";
const OPTIONS_KEY = "options:v1";

/** A setting from the `options` rows, where values are stored as JSON. */
const fromRows = (rows: { name: string; value: string }[]) => (name: string) => {
  const row = rows.find((r) => r.name === name);
  return row ? (JSON.parse(row.value) as string) : "";
};

/** What an answer carries besides its body: Server-Timing, whether a caller is logged in, and the request. */
interface Answering {
  timing: string;
  loggedIn: boolean;
  ask?: Ask;
}

interface Ran<T> extends Answering {
  rows: T;
  bases: Bases;
  isAdmin: boolean;
}

/**
 * Runs the statements in one batch behind the options and the caller (in the project's shape, see Env.SHAPE:
 * the settings from KV and the caller in a batch of its own), and reports it as the project does
 * (`Server-Timing`: round trips and rows read).
 */
async function run<T extends unknown[]>(env: Env, ask: Ask, statements: D1PreparedStatement[]): Promise<Ran<T>> {
  const shaped = env.SHAPE === "project";
  const cached = shaped ? await env.KV?.get<Record<string, string>>(OPTIONS_KEY, "json") : null;
  const options = cached ? [] : [ask.db.prepare(OPTIONS)];
  const caller = ask.tokenHash ? [withCaller(ask, "SELECT user_id, role FROM caller", [])] : [];
  const batches = shaped ? [[...options, ...caller], statements] : [[...options, ...caller, ...statements]];
  const started = performance.now();
  const results: D1Result[] = [];
  let trips = 0;
  for (const batch of batches.filter((statements) => statements.length > 0)) {
    results.push(...(await ask.db.batch(batch)));
    trips++;
  }
  const duration = performance.now() - started;
  const rowsRead = results.reduce((sum, result) => sum + (result.meta?.rows_read ?? 0), 0);
  const found = caller.length ? (results[options.length]?.results[0] as { role: string } | undefined) : undefined;
  const option = cached
    ? (name: string) => cached[name] ?? ""
    : fromRows(results[0]?.results as { name: string; value: string }[]);
  return {
    rows: results.slice(options.length + caller.length).map((result) => result.results) as T,
    bases: basesOf(option, ask.url.origin),
    isAdmin: found?.role === "admin",
    loggedIn: found !== undefined,
    timing: `d1;dur=${duration.toFixed(1)};desc="${trips} round trips", d1-rows;desc="${rowsRead} rows read"`,
    ask,
  };
}

async function json(body: unknown, status: number, ran: Answering): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json", "server-timing": ran.timing };
  if (ran.loggedIn) headers["cache-control"] = "private, no-store";
  const text = JSON.stringify(body);
  const ask = ran.ask;
  if (!ask?.required) return new Response(text, { status, headers });
  Object.assign(headers, REQUIRED_HEADERS, { "x-request-id": crypto.randomUUID() });
  const bookmark = "getBookmark" in ask.db ? ask.db.getBookmark() : null;
  if (bookmark) headers["x-d1-bookmark"] = bookmark;
  if (ask.method !== "GET" || status !== 200) return new Response(text, { status, headers });
  const bytes = encoder.encode(text);
  headers.etag = `"${await digestHex("SHA-1", bytes)}"`;
  if (ask.ifNoneMatch === headers.etag) return new Response(null, { status: 304, headers });
  return new Response(bytes, { status, headers });
}

const error = (code: number, message: string, status: number, ran: Answering = { timing: "", loggedIn: false }) =>
  json({ code, message }, status, ran);

// --- records ---

/** The author's summary selected beside an item's row (`a_*` columns), as the `user` relation presents it. */
const AUTHOR_COLUMNS = "u.user_id AS a_id, u.username AS a_username, u.headline AS a_headline, u.avatar AS a_avatar";

interface AuthorColumns {
  a_id: number | null;
  a_username: string;
  a_headline: string;
  a_avatar: string;
}

const author = (row: AuthorColumns, bases: Bases) =>
  row.a_id === null
    ? null
    : {
        user_id: row.a_id,
        username: row.a_username,
        headline: row.a_headline,
        avatar: imageUrls(row.a_avatar, "avatar.png", bases),
      };

/** `voting`: the caller's vote, '' when none or anonymous (as `v_type`). */
const votingColumn = (ask: Ask, type: string, id: string) =>
  ask.tokenHash
    ? `, (SELECT type FROM votes WHERE votable_type = '${type}' AND votable_id = ${id}
        AND user_id = ${CALLER_ID}) AS v_type`
    : "";

/** `is_following` (as `f_following`). */
const followingColumn = (ask: Ask, type: string, id: string) =>
  ask.tokenHash
    ? `, EXISTS (SELECT 1 FROM follows WHERE followable_type = '${type}' AND followable_id = ${id}
        AND user_id = ${CALLER_ID}) AS f_following`
    : "";

/** Trashed rows are visible to administrators only. */
const visible = (ask: Ask, alias: string) =>
  ask.tokenHash ? `(${alias}.delete_time = 0 OR ${CALLER_IS_ADMIN})` : `${alias}.delete_time = 0`;

interface CommentRow extends AuthorColumns {
  comment_id: number;
  commentable_id: number;
  commentable_type: string;
  user_id: number;
  content: string;
  reply_count: number;
  vote_count: number;
  vote_up_count: number;
  vote_down_count: number;
  create_time: number;
  update_time: number;
  delete_time: number;
  v_type?: string | null;
}

async function getComment(env: Env, ask: Ask, id: number): Promise<Response> {
  const sql = `SELECT c.*, ${AUTHOR_COLUMNS}${votingColumn(ask, "comment", "c.comment_id")}
    FROM comments c LEFT JOIN users u ON u.user_id = c.user_id WHERE c.comment_id = $first AND ${visible(ask, "c")}`;
  const ran = await run<[CommentRow[]]>(env, ask, [withCaller(ask, sql, [id])]);
  const row = ran.rows[0][0];
  if (!row) return error(204001, "Comment not found", 404, ran);
  const data: Record<string, unknown> = {
    comment_id: row.comment_id,
    commentable_id: row.commentable_id,
    commentable_type: row.commentable_type,
    user_id: row.user_id,
    content: row.content,
    reply_count: row.reply_count,
    vote_count: row.vote_count,
    vote_up_count: row.vote_up_count,
    vote_down_count: row.vote_down_count,
    create_time: row.create_time,
    update_time: row.update_time,
  };
  if (ran.isAdmin) data.delete_time = row.delete_time;
  if (ask.include.size) {
    const relationships: Record<string, unknown> = {};
    if (ask.include.has("user")) relationships.user = author(row, ran.bases);
    if (ask.include.has("voting")) relationships.voting = row.v_type ?? "";
    data.relationships = relationships;
  }
  return json({ code: 0, data }, 200, ran);
}

interface ArticleRow extends AuthorColumns {
  article_id: number;
  user_id: number;
  title: string;
  content_markdown: string;
  content_rendered: string;
  comment_count: number;
  follower_count: number;
  vote_count: number;
  vote_up_count: number;
  vote_down_count: number;
  create_time: number;
  update_time: number;
  delete_time: number;
  v_type?: string | null;
  f_following?: number;
}

interface TopicRow {
  id: number;
  topic_id: number;
  name: string;
  cover: string;
}

function pageOf(url: URL) {
  const int = (name: string, fallback: number) => {
    const value = url.searchParams.get(name);
    if (value === null || value === "") return fallback;
    const n = Number.parseInt(value, 10);
    return Number.isFinite(n) ? n : 0;
  };
  const page = Math.min(2_147_483_647, Math.max(1, int("page", 1)));
  const perPage = Math.min(100, Math.max(1, int("per_page", 15)));
  return { page, perPage, offset: (page - 1) * perPage };
}

/**
 * A page of live articles, newest first, of one author or of everyone: the total (the author's `article_count`,
 * which is also the author's existence check, or a count), the rows with their author, the caller's vote and
 * follow, and their live topics in the order attached.
 */
async function listArticles(env: Env, ask: Ask, authorId: number | null): Promise<Response> {
  const { page, perPage, offset } = pageOf(ask.url);
  const mine = authorId === null ? "" : "AND user_id = $first";
  const keys = authorId === null ? [] : [authorId];
  const pageIds = `SELECT article_id FROM articles WHERE delete_time = 0 ${mine}
    ORDER BY create_time DESC, article_id DESC LIMIT ${perPage} OFFSET ${offset}`;
  const total =
    authorId === null
      ? ask.db.prepare("SELECT count(*) AS total FROM articles WHERE delete_time = 0")
      : ask.db.prepare("SELECT article_count AS total FROM users WHERE user_id = ?1").bind(authorId);
  const rows = withCaller(
    ask,
    `SELECT a.*, ${AUTHOR_COLUMNS}${votingColumn(ask, "article", "a.article_id")}
      ${followingColumn(ask, "article", "a.article_id")}
    FROM articles a LEFT JOIN users u ON u.user_id = a.user_id
    WHERE a.delete_time = 0 ${mine.replace("user_id", "a.user_id")}
    ORDER BY a.create_time DESC, a.article_id DESC LIMIT ${perPage} OFFSET ${offset}`,
    keys,
  );
  const statements = [total, rows];
  if (ask.include.has("topics")) {
    const sql = `SELECT tl.topicable_id AS id, t.topic_id, t.name, t.cover
      FROM topicables tl JOIN topics t ON t.topic_id = tl.topic_id
      WHERE tl.topicable_type = 'article' AND tl.topicable_id IN (${pageIds}) AND t.delete_time = 0
      ORDER BY tl.create_time, tl.rowid`;
    statements.push(ask.db.prepare(sql.replaceAll("$first", "?1")).bind(...keys));
  }
  const ran = await run<[{ total: number }[], ArticleRow[], TopicRow[]?]>(env, ask, statements);
  const [totals, found, topicRows] = ran.rows;
  if (!totals[0]) return error(201003, "User not found", 404, ran);
  const topics = new Map<number, unknown[]>();
  for (const row of topicRows ?? []) {
    const summary = {
      topic_id: row.topic_id,
      name: row.name,
      cover: imageUrls(row.cover, "topic_cover.jpg", ran.bases),
    };
    const list = topics.get(row.id);
    if (list) list.push(summary);
    else topics.set(row.id, [summary]);
  }
  const data = found.map((row) => {
    const record: Record<string, unknown> = {
      article_id: row.article_id,
      user_id: row.user_id,
      title: row.title,
      content_markdown: row.content_markdown,
      content_rendered: row.content_rendered,
      comment_count: row.comment_count,
      follower_count: row.follower_count,
      vote_count: row.vote_count,
      vote_up_count: row.vote_up_count,
      vote_down_count: row.vote_down_count,
      create_time: row.create_time,
      update_time: row.update_time,
    };
    if (ran.isAdmin) record.delete_time = row.delete_time;
    if (ask.include.size) {
      const relationships: Record<string, unknown> = {};
      if (ask.include.has("user")) relationships.user = author(row, ran.bases);
      if (ask.include.has("topics")) relationships.topics = topics.get(row.article_id) ?? [];
      if (ask.include.has("is_following")) relationships.is_following = row.f_following === 1;
      if (ask.include.has("voting")) relationships.voting = row.v_type ?? "";
      record.relationships = relationships;
    }
    return record;
  });
  const count = totals[0].total;
  const pages = Math.ceil(count / perPage);
  const pagination = {
    page,
    per_page: perPage,
    previous: page > 1 ? page - 1 : null,
    next: pages > page ? page + 1 : null,
    total: count,
    pages,
  };
  return json({ code: 0, data, pagination }, 200, ran);
}

/**
 * What a write owes the project's anonymous edge cache (src/http/middleware/edge-cache.ts): a new generation stored
 * in this data centre's Cache API, which orphans every cached answer. The reference caches nothing itself.
 */
async function purgeEdgeCache(url: URL): Promise<void> {
  const generation = new Response(crypto.randomUUID(), { headers: { "cache-control": "max-age=86400" } });
  await (await caches.open("edge-cache")).put(new URL("/api/edge-cache/generation", url).href, generation);
}

/**
 * A vote on a live article, as src/behaviours/votable.ts writes it: the other type's row is dropped, this one
 * inserted unless present, the three counters recounted from the vote rows, and the counts read back; all
 * conditioned on the caller, so an anonymous request writes nothing.
 */
async function voteArticle(env: Env, ask: Ask, id: number, type: unknown): Promise<Response> {
  if (!ask.tokenHash) return error(201001, "Login required", 401);
  const valid = type === "up" || type === "down";
  const live = "EXISTS (SELECT 1 FROM articles WHERE article_id = ?3 AND delete_time = 0)";
  const statements = valid
    ? [
        withCaller(
          ask,
          `DELETE FROM votes WHERE votable_type = 'article' AND votable_id = $first AND user_id = ${CALLER_ID}
            AND type <> ?4 AND ${live}`,
          [id, type],
        ),
        withCaller(
          ask,
          `INSERT INTO votes (user_id, votable_id, votable_type, type, create_time)
            SELECT caller.user_id, ?3, 'article', ?4, ?2 FROM articles, caller
            WHERE article_id = ?3 AND delete_time = 0 ON CONFLICT DO NOTHING`,
          [id, type],
        ),
        ask.db
          .prepare(
            `UPDATE articles SET
            vote_count = (SELECT count(*) FILTER (WHERE type = 'up') - count(*) FILTER (WHERE type = 'down') FROM votes
              WHERE votable_id = articles.article_id AND votable_type = 'article'),
            vote_up_count = (SELECT count(*) FROM votes
              WHERE votable_id = articles.article_id AND votable_type = 'article' AND type = 'up'),
            vote_down_count = (SELECT count(*) FROM votes
              WHERE votable_id = articles.article_id AND votable_type = 'article' AND type = 'down')
          WHERE article_id = ?1`,
          )
          .bind(id),
        ask.db
          .prepare(
            "SELECT vote_count, vote_up_count, vote_down_count FROM articles WHERE article_id = ?1 AND delete_time = 0",
          )
          .bind(id),
      ]
    : [];
  const ran = await run<[unknown, unknown, unknown, { vote_count: number }[]]>(env, ask, statements);
  if (!ran.loggedIn) return error(201001, "Login required", 401, ran);
  if (!valid) return error(200006, "Vote type must be up or down", 400, ran);
  const counts = ran.rows[3][0];
  if (!counts) return error(206001, "Article not found", 404, ran);
  if (ask.required) await purgeEdgeCache(ask.url);
  return json({ code: 0, data: counts }, 200, ran);
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const token = request.headers.get("token")?.trim();
    const asked = (url.searchParams.get("include") ?? "").split(",").map((name) => name.trim());
    const tokenHash = token ? await digestHex("SHA-256", encoder.encode(token)) : null;
    const required = env.SHAPE === "required";
    // As the project starts a request's session (src/http/middleware/d1-session.ts): at the bookmark sent, else on
    // the nearest replica.
    const db = required ? env.DB.withSession(request.headers.get("x-d1-bookmark") ?? "first-unconstrained") : env.DB;
    /** The request, with `include` cut to the route's names (unknown ones are ignored, as the project does). */
    const ask = (allowed: string[]): Ask => ({
      url,
      db,
      required,
      method: request.method,
      ifNoneMatch: request.headers.get("if-none-match"),
      tokenHash,
      include: new Set(asked.filter((name) => allowed.includes(name))),
    });
    const path = url.pathname.replace(/\/+$/, "");
    if (request.method === "GET") {
      const comment = /^\/api\/comments\/(\d+)$/.exec(path);
      if (comment) return getComment(env, ask(COMMENT_INCLUDES), Number(comment[1]));
      const byUser = /^\/api\/users\/(\d+)\/articles$/.exec(path);
      if (byUser) return listArticles(env, ask(ARTICLE_INCLUDES), Number(byUser[1]));
      if (path === "/api/articles") return listArticles(env, ask(ARTICLE_INCLUDES), null);
    }
    const voted = request.method === "POST" ? /^\/api\/articles\/(\d+)\/voters$/.exec(path) : null;
    if (voted) {
      const body = (await request.json().catch(() => ({}))) as { type?: unknown };
      return voteArticle(env, ask([]), Number(voted[1]), body?.type);
    }
    return error(100004, "Route not found", 404);
  },
} satisfies ExportedHandler<Env>;

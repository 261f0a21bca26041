/**
 * `npm run bench search`: full-text search at scale (docs/search.md#cost). Seeds a local D1 with SQL, straight into
 * wrangler's local state (kept under .wrangler/bench-search/ while the migrations and this file are unchanged):
 * `--questions=50000` questions and `--answers=50000` answers (100 000 together), with their search documents
 * made by the app's own `documentOf`, in English words of a Zipf-like vocabulary, some French with accents and some
 * Chinese. Then serves the project with `wrangler dev` on `--port=8793` (no rate limits, no edge cache) and sends each
 * query `--requests=40` times, one at a time, after 3 warm-up requests: p50/p99 latency at the client, the D1
 * rows read that `Server-Timing` reports, and the hits. Last, the share of the database file the index takes
 * (SQLite's `dbstat`, on a copy of the stopped server's file). `--reseed` seeds again.
 */
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { documentOf, type SearchDocument, type SearchKind, searchKey } from "../src/behaviours/searchable";
import { escapeText } from "../src/lib/html-allow-list";
import { d1Of, percentile } from "./lib/load";
import { option } from "./lib/options";
import { random } from "./lib/random.mjs";
import { BENCH_VARS, copyState, executeSql, migrate, projectConfig, runDirectory, startServer } from "./lib/wrangler";

const QUESTIONS = option("questions", 50_000);
const ANSWERS = option("answers", 50_000);
const REQUESTS = option("requests", 40);
const PORT = option("port", 8793);
const RESEED = option("reseed", false);
const USERS = 100;
/** Rows per INSERT and per file run with `wrangler d1 execute --file`. */
const ROWS_PER_INSERT = 100;
const ROWS_PER_FILE = 10_000;

const next = random(13);
const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
/** Rank r of n drawn with probability about 1/r (Zipf), as words are used. */
const zipf = (n: number) => Math.min(n - 1, Math.floor(Math.exp(next() * Math.log(n + 1))) - 1);

const SYLLABLES = ["ka", "lo", "mi", "ne", "su", "ta", "ri", "po", "da", "ve", "zu", "xi", "bo", "che", "qua", "sta"];
/** 5 000 English-like words, the most used first. */
const WORDS = Array.from({ length: 5000 }, (_, i) => {
  let word = "";
  for (let n = i + 7; n > 0; n = Math.floor(n / SYLLABLES.length)) word += SYLLABLES[n % SYLLABLES.length];
  return word;
});
const FRENCH = ["café", "crème", "élève", "garçon", "été", "forêt", "hôpital", "théâtre", "noël", "château"];
const HAN = [..."的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可里后"];

function sentence(words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[zipf(WORDS.length)] as string);
  if (next() < 0.25) out.splice(Math.floor(next() * out.length), 0, pick(FRENCH));
  let text = out.join(" ");
  if (next() < 0.33)
    text += ` ${Array.from({ length: 10 + Math.floor(next() * 30) }, () => HAN[zipf(HAN.length)]).join("")}`;
  return text;
}

const quote = (value: string | number) =>
  typeof value === "number" ? String(value) : `'${value.replaceAll("'", "''")}'`;

/** INSERT statements of `rows` into `table`, ROWS_PER_INSERT rows each. */
function inserts(table: string, columns: string[], rows: (string | number)[][]): string {
  let sql = "";
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const values = rows.slice(i, i + ROWS_PER_INSERT).map((row) => `(${row.map(quote).join(",")})`);
    sql += `INSERT INTO ${table} (${columns.join(",")}) VALUES ${values.join(",\n")};\n`;
  }
  return sql;
}

const documentRow = (type: SearchKind, id: number, doc: SearchDocument) => [searchKey(type, id), doc.title, doc.body];

/** The SQL files of the seed: users, questions and answers with their documents. */
function seedFiles(dir: string): string[] {
  const files: string[] = [];
  const write = (sql: string) => {
    const file = join(dir, `seed-${files.length}.sql`);
    writeFileSync(file, sql);
    files.push(file);
  };
  const users = Array.from({ length: USERS }, (_, i) => [
    `searcher${i + 1}`,
    `searcher${i + 1}@bench.example`,
    "x",
    1,
    1,
  ]);
  write(
    inserts("users", ["username", "email", "password", "create_time", "update_time"], users) +
      inserts(
        "search_index",
        ["rowid", "title", "body"],
        users.map((user, i) =>
          documentRow(
            "user",
            i + 1,
            documentOf.user({ username: String(user[0]), headline: "", bio: "", company: "", location: "" }),
          ),
        ),
      ),
  );
  const start = 1_700_000_000;
  for (const [type, total] of [
    ["question", QUESTIONS],
    ["answer", ANSWERS],
  ] as const) {
    for (let first = 1; first <= total; first += ROWS_PER_FILE) {
      const rows: (string | number)[][] = [];
      const docs: (string | number)[][] = [];
      for (let id = first; id < Math.min(first + ROWS_PER_FILE, total + 1); id++) {
        const text = sentence(40 + Math.floor(next() * 60));
        const rendered = `<p>${escapeText(text)}</p>`;
        const user = 1 + (id % USERS);
        const time = start + id * 60;
        const votes = zipf(50);
        if (type === "question") {
          const title = sentence(4 + Math.floor(next() * 6)).slice(0, 80);
          rows.push([user, title, text, rendered, votes, time, time]);
          docs.push(documentRow(type, id, documentOf.question({ title, content_rendered: rendered })));
        } else {
          rows.push([1 + Math.floor(next() * QUESTIONS), user, text, rendered, votes, time, time]);
          docs.push(documentRow(type, id, documentOf.answer({ content_rendered: rendered })));
        }
      }
      const columns =
        type === "question"
          ? ["user_id", "title", "content_markdown", "content_rendered", "vote_count", "create_time", "update_time"]
          : [
              "question_id",
              "user_id",
              "content_markdown",
              "content_rendered",
              "vote_count",
              "create_time",
              "update_time",
            ];
      write(inserts(`${type}s`, columns, rows) + inserts("search_index", ["rowid", "title", "body"], docs));
    }
  }
  return files;
}

/** What the kept state depends on: every migration and this file, with its sizes. */
function seedKey(): string {
  const hash = createHash("sha256");
  for (const file of readdirSync("drizzle").filter((name) => name.endsWith(".sql"))) {
    hash.update(readFileSync(join("drizzle", file)));
  }
  hash.update(readFileSync("bench/search.ts")).update(`${QUESTIONS}/${ANSWERS}`);
  return hash.digest("hex").slice(0, 16);
}

const CACHE = ".wrangler/bench-search";
const run = runDirectory();
const config = projectConfig(run);
const log = join(run, "wrangler.log");
const kept = join(CACHE, `seed-${seedKey()}`);
if (RESEED || !existsSync(join(kept, "done"))) {
  rmSync(CACHE, { recursive: true, force: true });
  const state = join(`${kept}.partial`, "state");
  mkdirSync(state, { recursive: true });
  const started = performance.now();
  migrate(config, state, log);
  const files = seedFiles(run);
  for (const [i, file] of files.entries()) {
    executeSql(config, state, file, log);
    rmSync(file);
    console.log(`seeded ${i + 1}/${files.length} files`);
  }
  writeFileSync(join(`${kept}.partial`, "done"), String((performance.now() - started) / 1000));
  renameSync(`${kept}.partial`, kept);
  console.log(
    `Seeded ${QUESTIONS} questions and ${ANSWERS} answers in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
}
const state = join(run, "state");
copyState(join(kept, "state"), state);

const QUERIES: { name: string; q: string; type: SearchKind }[] = [
  { name: "most common word", q: WORDS[0] as string, type: "question" },
  { name: "word of rank 100", q: WORDS[99] as string, type: "question" },
  { name: "rare word (rank 4000)", q: WORDS[3999] as string, type: "answer" },
  { name: "two words", q: `${WORDS[9]} ${WORDS[199]}`, type: "question" },
  { name: "phrase", q: `"${WORDS[0]} ${WORDS[1]}"`, type: "answer" },
  { name: "prefix", q: `${(WORDS[500] as string).slice(0, 4)}*`, type: "question" },
  { name: "French, accents folded", q: "cafe", type: "question" },
  { name: "Chinese, 1 character", q: HAN[0] as string, type: "question" },
  { name: "Chinese, 2 characters", q: `${HAN[3]}${HAN[4]}`, type: "answer" },
  // docs/search.md#queries: what a prefix costs is set by its last word. Ten one-letter "prefixes" behind
  // punctuation (each once read every word it starts; now a phrase), and the most prefixes a query may hold.
  {
    name: "10 one-letter prefixes behind a dot",
    q: "k. l. m. n. s. t. r. p. d. v.".replaceAll(".", ".*"),
    type: "question",
  },
  { name: "3 two-letter prefixes", q: "ka* lo* mi*", type: "question" },
];

const server = await startServer("project", config, state, log, {
  vars: { ...BENCH_VARS, EDGE_CACHE_SECONDS: "0" },
  port: PORT,
});
const all: number[] = [];
const table: string[] = [];
try {
  for (const query of QUERIES) {
    const url = `${server.origin}/api/search?${new URLSearchParams({ q: query.q, type: query.type, include: "user" })}`;
    const times: number[] = [];
    const rows: number[] = [];
    let total = 0;
    for (let i = 0; i < REQUESTS + 3; i++) {
      const started = performance.now();
      const res = await fetch(url);
      const body = (await res.json()) as { code: number; pagination?: { total: number } };
      const elapsed = performance.now() - started;
      if (body.code !== 0) throw new Error(`${query.name}: ${JSON.stringify(body)}`);
      if (i < 3) continue;
      times.push(elapsed);
      rows.push(d1Of(res.headers)?.rowsRead ?? Number.NaN);
      total = body.pagination?.total ?? 0;
    }
    all.push(...times);
    table.push(
      `| ${query.name} (\`${query.q}\`, ${query.type}) | ${total} | ${percentile(times, 50).toFixed(1)} | ` +
        `${percentile(times, 99).toFixed(1)} | ${percentile(rows, 50)} |`,
    );
  }
} finally {
  await server.stop();
}
console.log(`\n${QUESTIONS} questions, ${ANSWERS} answers; ${REQUESTS} requests per query, one at a time\n`);
console.log("| query | hits | p50 ms | p99 ms | rows read |\n|---|---|---|---|---|");
console.log(table.join("\n"));
console.log(`| all | | ${percentile(all, 50).toFixed(1)} | ${percentile(all, 99).toFixed(1)} | |`);

// The index's share of the database: SQLite's page statistics, on a copy of the stopped server's file.
const d1 = join(state, "v3", "d1", "miniflare-D1DatabaseObject");
const file = readdirSync(d1).find((name) => name.endsWith(".sqlite") && name !== "metadata.sqlite");
if (file) {
  const copy = join(run, "size");
  mkdirSync(copy);
  for (const name of readdirSync(d1).filter((name) => name.startsWith(file))) cpSync(join(d1, name), join(copy, name));
  const db = new DatabaseSync(join(copy, file));
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  const sizes = db.prepare("SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name").all() as {
    name: string;
    bytes: number;
  }[];
  db.close();
  const total = sizes.reduce((sum, row) => sum + row.bytes, 0);
  const index = sizes.filter((row) => row.name.startsWith("search_index")).reduce((sum, row) => sum + row.bytes, 0);
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  console.log(
    `\nDatabase ${mb(total)} MB, of which the search index ${mb(index)} MB (${((100 * index) / total).toFixed(0)}%)`,
  );
}

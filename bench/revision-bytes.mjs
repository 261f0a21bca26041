// `npx node bench/revision-bytes.mjs`: what a revision costs in storage (docs/revisions.md#storage), measured on the
// demo community's posts (seed/demo-community.ts: questions, answers and articles in five languages). A content
// edit keeps the markdown it replaced, a title edit the title: each post's edits are written as revision rows into a
// SQLite database made by the migration of the `revisions` table, many times over so that pages average out, and the
// database's growth per row is reported beside the text it holds. Needs Node 22 (node:sqlite, type stripping):
// `npx node` runs the project's own.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { answers, articles, questions } from "../seed/demo-community.ts";

const COPIES = 200;
const bytes = (text) => Buffer.byteLength(text, "utf8");

const migration = readdirSync("drizzle").find((name) => /^\d{4}_qa_features\.sql$/.test(name));
const create = readFileSync(join("drizzle", migration), "utf8")
  .split("--> statement-breakpoint")
  .find((statement) => statement.includes("CREATE TABLE `revisions`"));

/** Rows of one kind of edit: [type, id, text kept in title, text kept in content_markdown]. */
const posts = [
  ...questions.map((post, i) => ["question", i + 1, post]),
  ...answers.map((post, i) => ["answer", i + 1, post]),
  ...articles.map((post, i) => ["article", i + 1, post]),
];
const edits = {
  "content edit (keeps the markdown)": posts.map(([type, id, post]) => [type, id, null, post.markdown]),
  "title edit (keeps the title)": posts
    .filter(([type]) => type !== "answer")
    .map(([type, id, post]) => [type, id, post.title, null]),
};

function measure(rows) {
  const db = new DatabaseSync(":memory:");
  db.exec(create);
  const size = () => {
    const pages = db.prepare("PRAGMA page_count").get().page_count;
    return pages * db.prepare("PRAGMA page_size").get().page_size;
  };
  const insert = db.prepare(
    `INSERT INTO revisions (revisable_type, revisable_id, revision, user_id, title, content_markdown, topic_ids,
     create_time) VALUES (?, ?, ?, 7, ?, ?, NULL, 1795500000)`,
  );
  const before = size();
  db.exec("BEGIN");
  for (let copy = 0; copy < COPIES; copy++) {
    for (const [type, id, title, markdown] of rows) insert.run(type, id, copy + 2, title, markdown);
  }
  db.exec("COMMIT");
  const count = rows.length * COPIES;
  const text = rows.reduce((sum, [, , title, markdown]) => sum + bytes(title ?? "") + bytes(markdown ?? ""), 0);
  const texts = rows.map(([, , title, markdown]) => bytes(title ?? markdown ?? "")).sort((a, b) => a - b);
  return {
    rows: rows.length,
    "text bytes, mean": Math.round(text / rows.length),
    "text bytes, median": texts[Math.floor(texts.length / 2)],
    "text bytes, largest": texts.at(-1),
    "stored bytes per revision": Math.round((size() - before) / count),
  };
}

const results = Object.fromEntries(Object.entries(edits).map(([name, rows]) => [name, measure(rows)]));
console.table(results);

/**
 * The MDClub importer's timing (docs/performance.md#mdclub-import-time): `npm run bench mdclub-import -- --rows=100000
 * [--format=phpmyadmin] [--keep]`. Writes a synthetic MDClub dump, then runs `npm run import:mdclub` on it into a
 * temporary local state (never `npm run dev`'s), with the first users' avatar files in an upload folder, and prints
 * the time. Rows are spread over the tables as in a forum (a tenth users, answers the largest), with Chinese, emoji
 * and escapes in the text, some trash, and counters left at 0 for the import to recount. `--keep` leaves the dump,
 * the upload folder and the state in the temporary directory it prints.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { type DumpFormat, type DumpTable, writeDump } from "../test/helpers/mdclub-dump";

const { values: args } = parseArgs({
  options: {
    rows: { type: "string", default: "100000" },
    format: { type: "string", default: "mysqldump" },
    keep: { type: "boolean", default: false },
  },
});
const dir = mkdtempSync(join(tmpdir(), "mdclub-import-bench-"));
const dumpPath = join(dir, "mdclub.sql");
const uploads = join(dir, "upload");
const total = Number(args.rows);
const share = (fraction: number) => Math.max(1, Math.floor(total * fraction));
const T = 1_700_000_000;
const text = (i: number) => `第 ${i} 条内容 😀 with 'quotes', "double", a \\ backslash,\na new line and **markdown**`;
const bcrypt = "$2y$10$abcdefghijklmnopqrstuu2kZ2LkwZb0O1n9h0xQe0yYk8xgCq6Tq"; // never matches: load only

const users = share(0.1);
const questions = share(0.15);
const articles = share(0.05);
const topics = Math.min(share(0.001), 500);
const avatars = Math.min(users, 20);
const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
const pick = (i: number, n: number) => ((i * 7919) % n) + 1;

const tables: Record<string, DumpTable> = {
  user: {
    rows: range(users).map((id) => [
      id,
      `user${id}`,
      `user${id}@example.test`,
      id <= avatars ? `avatar${id}.png` : null,
      null,
      bcrypt,
      "127.0.0.1",
      "上海",
      T,
      null,
      null,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      `用户 ${id} 😀`,
      null,
      null,
      null,
      null,
      T + id,
      T + id,
      id % 97 === 0 ? T + id : 0,
    ]),
  },
  topic: { rows: range(topics).map((id) => [id, `话题${id}`, null, text(id), 0, 0, 0, 0]) },
  question: {
    rows: range(questions).map((id) => [
      id,
      pick(id, users),
      `问题 ${id} 'title' 😀`,
      text(id),
      "",
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      T + id,
      T + id,
      id % 50 === 0 ? T + id : 0,
    ]),
  },
  answer: {
    rows: range(share(0.25)).map((id) => [
      id,
      pick(id, questions),
      pick(id + 1, users),
      text(id),
      "",
      0,
      0,
      0,
      0,
      T + id,
      T + id,
      id % 60 === 0 ? T + id : 0,
    ]),
  },
  article: {
    rows: range(articles).map((id) => [
      id,
      pick(id, users),
      `文章 ${id}`,
      text(id),
      "",
      0,
      0,
      0,
      0,
      0,
      T + id,
      T + id,
      0,
    ]),
  },
  comment: {
    rows: range(share(0.2)).map((id) => [
      id,
      pick(id, questions),
      "question",
      pick(id + 2, users),
      text(id),
      0,
      0,
      0,
      0,
      T + id,
      T + id,
      0,
    ]),
  },
  vote: {
    rows: range(share(0.1)).map((i) => [pick(i, users), Math.ceil(i / users), "question", i % 3 ? "up" : "down", T]),
  },
  follow: { rows: range(share(0.08)).map((i) => [pick(i, users), Math.ceil(i / users), "question", T]) },
  topicable: { rows: range(share(0.05)).map((i) => [pick(i, topics), i, "question", T]) },
  notification: {
    rows: range(share(0.02)).map((id) => [
      id,
      pick(id, users),
      1,
      "question_answered",
      0,
      pick(id, questions),
      0,
      0,
      0,
      "",
      T,
      0,
    ]),
  },
};

const stream = createWriteStream(dumpPath);
let written = 0;
for (const piece of writeDump(tables, args.format as DumpFormat, { rowsPerInsert: 500 })) {
  if (!stream.write(piece)) await new Promise<void>((resolve) => stream.once("drain", () => resolve()));
}
await new Promise<void>((resolve) => stream.end(() => resolve()));
for (const table of Object.values(tables)) written += table.rows.length;

{
  // A 1x1 PNG in each size of MDClub's avatar set, where MDClub puts it: user-avatar/<md5[0..2]>/<md5[2..4]>/.
  const png = Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==",
    "base64",
  );
  for (const id of range(avatars)) {
    const md5 = createHash("md5").update(String(id)).digest("hex");
    for (const suffix of ["", "_small", "_middle", "_large"]) {
      const path = join(uploads, "user-avatar", md5.slice(0, 2), md5.slice(2, 4), `avatar${id}${suffix}.png`);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, png);
    }
  }
}
const megabytes = (statSync(dumpPath).size / 1e6).toFixed(1);
console.log(`${written} rows (${megabytes} MB, ${args.format}) written to ${dumpPath}, ${avatars} avatars`);

const started = performance.now();
const cli = ["scripts/run-ts.mjs", "src/import/mdclub/cli.ts", dumpPath, "--uploads", uploads];
execFileSync(process.execPath, [...cli, "--persist-to", join(dir, "state")], { stdio: "inherit" });
console.log(`import:mdclub of ${written} rows: ${((performance.now() - started) / 1000).toFixed(1)} s wall time`);
if (args.keep) console.log(`kept: ${dir}`);
else rmSync(dir, { recursive: true, force: true });

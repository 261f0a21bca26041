// `npm run search:rebuild [-- --remote]`: creates the full-text index if the database lacks it (a database loaded
// from `npm run db:export`'s dump), then writes every document again from the content tables
// (src/behaviours/search-rebuild.ts, which the tests run too; docs/search.md#rebuilding-the-index). Locally by
// default; `--remote` for production. `--page-size=N` rows are read per round trip (default 2000).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { databaseFlags, query, runSql } from "./lib/d1-cli.mjs";
import { bundleForNode } from "./lib/node-bundle.mjs";

const args = process.argv.slice(2);
const flags = databaseFlags(args);
const pageSize = Number(/^--page-size=(\d+)$/.exec(args.find((arg) => arg.startsWith("--page-size=")) ?? "")?.[1]);

// The index's schema is the migration's: its statements create only what is missing.
const schema = readFileSync("drizzle/0009_search.sql", "utf8").replaceAll("--> statement-breakpoint", "");
runSql(flags, schema);

const dir = mkdtempSync(join(tmpdir(), "mdclub-rebuild-"));
try {
  const load = async (entry, name) => {
    const outfile = join(dir, name);
    await bundleForNode(entry, outfile);
    return import(pathToFileURL(outfile).href);
  };
  const { rebuildSearchIndex } = await load("src/behaviours/search-rebuild.ts", "search-rebuild.mjs");
  // wrangler binds no parameters: they are written into the SQL as the importer's --remote path does.
  const { inlineParams: inline } = await load("src/lib/sql-text.ts", "sql-text.mjs");
  const started = performance.now();
  await rebuildSearchIndex(
    {
      all: async (statement) => query(flags, inline(statement)),
      run: async (statements) => {
        if (statements.length) runSql(flags, `${statements.map(inline).join(";\n")};\n`);
      },
    },
    pageSize || 2000,
    (type, done) => console.log(`${type}: ${done} documents`),
  );
  console.log(`Search index rebuilt in ${((performance.now() - started) / 1000).toFixed(1)} s`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

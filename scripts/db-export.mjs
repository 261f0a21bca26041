// `npm run db:export [-- --remote] [--output FILE]`: a SQL dump of the database that `wrangler d1 execute --file`
// (or `wrangler d1 import`) loads, without the full-text index, which `wrangler d1 export` refuses to dump (it
// stops at any virtual table). Every other table, index, trigger and view is named to `--table`, which makes the
// export skip the rest: the index's virtual table and its shadow tables. After loading the dump into a database,
// `npm run search:rebuild` creates the index again from the content tables (docs/search.md#export-and-import).
import { databaseFlags, exportTo, query } from "./lib/d1-cli.mjs";

const args = process.argv.slice(2);
const flags = databaseFlags(args, { persist: false });
const at = args.indexOf("--output");
const output = at >= 0 ? args[at + 1] : `mdclub-export-${new Date().toISOString().replace(/[:.]/g, "-")}.sql`;

const objects = query(
  flags,
  `SELECT name FROM sqlite_master AS o WHERE type IN ('table', 'index', 'trigger', 'view') AND sql NOT NULL
     AND NOT (type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%')
     AND NOT EXISTS (SELECT 1 FROM sqlite_master AS v WHERE v.type = 'table' AND v.sql LIKE 'CREATE VIRTUAL TABLE%'
       AND o.tbl_name LIKE v.name || '!_%' ESCAPE '!')
   ORDER BY name`,
).map((row) => row.name);
exportTo(
  flags,
  output,
  objects.flatMap((name) => ["--table", name]),
);
console.log(`Exported ${objects.length} tables, indexes, triggers and views (not the search index) to ${output}`);

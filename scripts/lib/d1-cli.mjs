// The project's D1 database (binding DB of wrangler.toml) through wrangler's CLI, for the operations scripts
// (db:export, search:rebuild): the local database `npm run dev` uses, or with `--remote` the production one.
// Extra wrangler flags (`--persist-to DIR`, `--config FILE`) pass through.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * The wrangler flags naming the database: `--local` unless the script was given `--remote`. `wrangler d1 export`
 * takes no `--persist-to`: it reads the local state `npm run dev` uses.
 */
export function databaseFlags(args, { persist = true } = {}) {
  const flags = args.includes("--remote") ? ["--remote"] : ["--local"];
  for (const name of persist ? ["--persist-to", "--config"] : ["--config"]) {
    const at = args.indexOf(name);
    if (at >= 0 && args[at + 1]) flags.push(name, args[at + 1]);
  }
  return flags;
}

function wrangler(args, options = {}) {
  return execFileSync("wrangler", args, {
    encoding: "utf8",
    maxBuffer: 1 << 30,
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" },
    ...options,
  });
}

/** A query's rows. */
export function query(flags, sql) {
  const [result] = JSON.parse(wrangler(["d1", "execute", "DB", ...flags, "--json", "--command", sql]));
  return result?.results ?? [];
}

/** Runs a file of SQL statements (one transaction locally; D1's import remotely). */
export function runSql(flags, text) {
  const dir = mkdtempSync(join(tmpdir(), "mdclub-sql-"));
  try {
    const file = join(dir, "statements.sql");
    writeFileSync(file, text);
    wrangler(["d1", "execute", "DB", ...flags, "--yes", "--file", file]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `wrangler d1 export` with its own output on the terminal. */
export function exportTo(flags, output, extra) {
  wrangler(["d1", "export", "DB", ...flags, "--output", output, ...extra], { stdio: ["ignore", "inherit", "inherit"] });
}

/**
 * The seeded community as local wrangler state: seeded through the API once, then kept under .wrangler/bench/
 * (git-ignored) and copied for each run while the migrations, the seed plan and bench/lib/seed.ts are unchanged.
 * The copy is taken from a stopped server, so it is consistent; a run never writes to the kept state.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PLAN, type Seeded, seed, usersSql } from "./seed";
import { BENCH_VARS, copyState, executeSql, migrate, startServer } from "./wrangler";

const CACHE = ".wrangler/bench";

/** What the kept state depends on: every migration, the seeding code and its plan. */
function seedKey(): string {
  const hash = createHash("sha256");
  for (const file of readdirSync("drizzle")
    .filter((name) => name.endsWith(".sql"))
    .sort()) {
    hash.update(file).update(readFileSync(join("drizzle", file)));
  }
  hash.update(readFileSync("bench/lib/seed.ts")).update(JSON.stringify(PLAN)).update(JSON.stringify(BENCH_VARS));
  return hash.digest("hex").slice(0, 16);
}

/**
 * Local state under `state` holding the seeded community, from the kept copy when there is one (unless `reseed`),
 * else seeded now through a project server on `config` (and kept).
 */
export async function seededState(
  config: string,
  state: string,
  log: string,
  options: { reseed: boolean; concurrency: number },
): Promise<Seeded> {
  const kept = join(CACHE, `seed-${seedKey()}`);
  const keptInfo = join(kept, "seeded.json");
  if (!options.reseed && existsSync(keptInfo)) {
    copyState(join(kept, "state"), state);
    const seeded = JSON.parse(readFileSync(keptInfo, "utf8")) as Seeded;
    console.log(`Seeded state: kept copy ${kept} (seeded in ${seeded.seconds.toFixed(0)} s; --reseed to redo)`);
    return seeded;
  }

  console.log(`Seeding through the API (${options.concurrency} connections):`);
  migrate(config, state, log);
  const sql = join(state, "..", "users.sql");
  writeFileSync(
    sql,
    usersSql(BENCH_VARS.PASSWORD_PEPPER, {
      username: BENCH_VARS.ADMIN_USERNAME,
      email: BENCH_VARS.ADMIN_EMAIL,
      password: BENCH_VARS.ADMIN_PASSWORD,
    }),
  );
  executeSql(config, state, sql, log);
  const server = await startServer("project (seeding)", config, state, log, { vars: BENCH_VARS });
  let seeded: Seeded;
  try {
    seeded = await seed(
      server.origin,
      { username: BENCH_VARS.ADMIN_USERNAME, password: BENCH_VARS.ADMIN_PASSWORD },
      options.concurrency,
    );
  } finally {
    await server.stop();
  }
  console.log(`Seeded in ${seeded.seconds.toFixed(1)} s`);

  // Kept whole or not at all: written beside, then renamed into place; older seeds are dropped.
  mkdirSync(CACHE, { recursive: true });
  for (const old of readdirSync(CACHE).filter((name) => name.startsWith("seed-"))) {
    rmSync(join(CACHE, old), { recursive: true, force: true });
  }
  const partial = `${kept}.partial`;
  copyState(state, join(partial, "state"));
  writeFileSync(join(partial, "seeded.json"), JSON.stringify(seeded));
  renameSync(partial, kept);
  return seeded;
}

/**
 * Where a request's CPU goes (`npm run bench profile`): the project's Worker and the reference Worker, bundled
 * into this Node process (same V8 as workerd) over copies of the load benchmark's seeded database (node:sqlite as
 * D1, bench/lib/in-process.ts), serve each benchmarked route's requests one at a time. For each: the process's
 * CPU per request and the part SQLite took, then a sampled profile's self time by area (routing, validation,
 * Drizzle, JSON, the app's own code, the runtime) and the project's top functions. Profiles are kept under
 * .wrangler/bench/profiles/ for Chrome DevTools. Settings (flag or BENCH_* variable):
 *   --requests=300 (per route and Worker)  --warmup=100  --interval=100 (sampling, µs)  --routes=...  --reseed
 *
 * Node's Request, Response, Headers and streams are JavaScript (undici) where workerd's are C++, so the
 * "runtime" rows overstate what workerd spends on them; everything else is the Workers' own JavaScript.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import worker from "../src/index";
import type { Fetch } from "./lib/api";
import { profileOf, type Summary, summarise } from "./lib/cpu-profile";
import { inProcess, MapKv, NodeD1 } from "./lib/in-process";
import { type BenchRoute, send } from "./lib/load";
import { option } from "./lib/options";
import { benchRoutes, logInBenchUsers } from "./lib/routes";
import { seededState } from "./lib/state";
import { BENCH_VARS, projectConfig, runDirectory } from "./lib/wrangler";
import reference from "./reference/worker";

const settings = {
  requests: option("requests", 300),
  warmup: option("warmup", 100),
  interval: option("interval", 100),
  routes: option("routes", "comment,user-articles,articles,vote").split(","),
  reseed: option("reseed", false),
  seedConnections: option("seed-connections", 8),
};
const PROFILES = ".wrangler/bench/profiles";
const ORIGIN = "http://bench.local";

// The seeded database: wrangler's local D1 file (and its WAL) from the kept seed, or from seeding now.
const run = runDirectory();
const state = join(run, "state");
const seeded = await seededState(projectConfig(join(run, "project")), state, join(run, "seed.log"), {
  reseed: settings.reseed,
  concurrency: settings.seedConnections,
});
const d1Dir = join(state, "v3/d1/miniflare-D1DatabaseObject");
const d1File = readdirSync(d1Dir).find((name) => name.endsWith(".sqlite") && name !== "metadata.sqlite");
if (!d1File) throw new Error(`no D1 database under ${d1Dir}`);
for (const suffix of ["", "-wal", "-shm"]) {
  if (existsSync(join(d1Dir, d1File + suffix)))
    copyFileSync(join(d1Dir, d1File + suffix), join(run, `project.sqlite${suffix}`));
}

const projectDb = new NodeD1(join(run, "project.sqlite"));
// No per-request log line: the reference writes none (bench/load.ts, --request-log).
const env = { ...BENCH_VARS, DB: projectDb, KV: new MapKv(), BUCKET: {}, SERVER_TIMING: "true", REQUEST_LOG: "false" };
const project = inProcess(worker, env);
const tokens = await logInBenchUsers(ORIGIN, project);
// The reference's copy, taken after the logins so that it holds the tokens.
projectDb.sqlite.exec(`VACUUM INTO '${join(run, "reference.sqlite")}'`);
const referenceDb = new NodeD1(join(run, "reference.sqlite"));
interface InProcess {
  name: string;
  fetcher: Fetch;
  db: NodeD1;
}
const projectWorker: InProcess = { name: "project", fetcher: project, db: projectDb };
const referenceWorker: InProcess = {
  name: "reference",
  fetcher: inProcess(reference, { DB: referenceDb }),
  db: referenceDb,
};

const routes = benchRoutes(seeded, tokens).filter((route) => settings.routes.includes(route.name));
mkdirSync(PROFILES, { recursive: true });
const bundle = fileURLToPath(import.meta.url);

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** Sends calls [first, first + count) one at a time. */
async function oneAtATime(fetcher: Fetch, route: BenchRoute, first: number, count: number) {
  for (let k = first; k < first + count; k++) {
    const response = await send(ORIGIN, route.call(k), fetcher);
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${route.label}, call ${k}: ${response.status}`);
  }
}

interface Measured {
  /** Per request: the process's CPU (all threads: WebCrypto and GC run beside), wall time, SQLite's part. */
  cpu: number;
  wall: number;
  sqlite: number;
  statements: number;
  summary: Summary;
}

/** Warm-up, a timed pass, then a profiled pass (the profiler slows what it samples). */
async function measure({ name, fetcher, db }: InProcess, route: BenchRoute): Promise<Measured> {
  const n = settings.requests;
  await oneAtATime(fetcher, route, 0, settings.warmup);
  const [cpu, wall, sqlite, statements] = [cpuMs(), performance.now(), db.clock.ms, db.clock.statements];
  await oneAtATime(fetcher, route, settings.warmup, n);
  const measured = {
    cpu: (cpuMs() - cpu) / n,
    wall: (performance.now() - wall) / n,
    sqlite: (db.clock.ms - sqlite) / n,
    statements: (db.clock.statements - statements) / n,
  };
  const profile = await profileOf(() => oneAtATime(fetcher, route, settings.warmup + n, n), settings.interval);
  writeFileSync(join(PROFILES, `${route.name}.${name}.cpuprofile`), JSON.stringify(profile));
  return { ...measured, summary: summarise(profile, bundle) };
}

const row = (name: string, a: string, b: string) =>
  console.log(`${name.padEnd(50)} ${a.padStart(14)} ${b.padStart(14)}`);
for (const route of routes) {
  const [mine, theirs] = [await measure(projectWorker, route), await measure(referenceWorker, route)];
  const n = settings.requests;
  console.log(`\n${route.label}: ${n} requests one at a time, ms per request`);
  row("", "project", "reference");
  row("CPU (process)", mine.cpu.toFixed(2), theirs.cpu.toFixed(2));
  row("  of which SQLite (node:sqlite as D1)", mine.sqlite.toFixed(2), theirs.sqlite.toFixed(2));
  row("  SQL statements per request", mine.statements.toFixed(1), theirs.statements.toFixed(1));
  row("wall time", mine.wall.toFixed(2), theirs.wall.toFixed(2));
  row(
    "profiled: sampled, not idle",
    (mine.summary.busyUs / 1000 / n).toFixed(2),
    (theirs.summary.busyUs / 1000 / n).toFixed(2),
  );
  const share = (s: Summary, area: string) => {
    const us = s.areas.get(area) ?? 0;
    return us ? `${(us / 1000 / n).toFixed(2)} ${String(Math.round((100 * us) / s.busyUs)).padStart(3)}%` : "";
  };
  const visible = (area: string) =>
    Math.max(mine.summary.areas.get(area) ?? 0, theirs.summary.areas.get(area) ?? 0) >= 5 * n;
  const areas = [...new Set([...mine.summary.areas.keys(), ...theirs.summary.areas.keys()])]
    .filter(visible)
    .sort((a, b) => (mine.summary.areas.get(b) ?? 0) - (mine.summary.areas.get(a) ?? 0));
  for (const area of areas) row(`  ${area}`, share(mine.summary, area), share(theirs.summary, area));
  console.log("  project's top functions by self time:");
  const top = [...mine.summary.functions].sort((a, b) => b[1] - a[1]).slice(0, 12);
  for (const [name, us] of top) console.log(`    ${(us / 1000 / n).toFixed(3).padStart(7)}  ${name}`);
}
console.log(`\nProfiles: ${PROFILES}/<route>.<worker>.cpuprofile (Chrome DevTools, Performance, "Load profile")`);

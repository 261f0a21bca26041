/**
 * The load benchmark (`npm run bench load`): the project and a raw-D1 reference Worker (bench/reference/), both
 * under `wrangler dev` on copies of one seeded community, take alternating rounds of the same requests on each
 * route; it prints req/s, p50/p99 latency, the D1 round trips and rows read per request (the servers'
 * `Server-Timing`) and the project/reference ratio. Settings (flag or BENCH_* variable):
 *   --connections=16  --requests=600 (per round and server)  --rounds=5  --warmup=200  --routes=comment,...
 *   --seed-connections=8  --reseed (seed again even if a kept seeded state matches)  --quick (200 × 1, warm-up 50)
 *   --reference-shape=required (the default, set in bench/reference/wrangler.toml: the reference also does what
 *   the issue asks of every answer besides its SQL, a D1 session and its bookmark, the ETag, the CORS headers, a
 *   request id, so that both answer the same headers), --reference-shape=bare (one batch, the body and
 *   Server-Timing), or --reference-shape=project (the round trips the project made before one-batch reads: KV, then
 *   two batches)
 *   --assets (serve the project with its [assets] block, bench/lib/wrangler.ts)
 *   --request-log (the project writes its per-request log line, off by default: the reference writes none, and
 *   under `wrangler dev` each printed line costs its Node process about 1 ms)
 */
import { cpus, loadavg } from "node:os";
import { compareAnswers } from "./lib/compare";
import { pairedRounds, type Totals, total } from "./lib/load";
import { option } from "./lib/options";
import { startPair } from "./lib/pair";

const quick = option("quick", false);
const settings = {
  connections: option("connections", 16),
  requests: option("requests", quick ? 200 : 600),
  rounds: option("rounds", quick ? 1 : 5),
  warmup: option("warmup", quick ? 50 : 200),
  seedConnections: option("seed-connections", 8),
  reseed: option("reseed", false),
  routes: option("routes", "comment,user-articles,articles,vote").split(","),
  // Unset: the reference's own default (SHAPE in bench/reference/wrangler.toml).
  referenceShape: option("reference-shape", ""),
  requestLog: option("request-log", false),
};

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");
console.log(`${cpus().length} CPUs, load average ${load()} (1, 5, 15 min) before starting`);
console.log(
  `${settings.connections} connections; per route and server: ${settings.warmup} warm-up requests, then ` +
    `${settings.rounds} rounds of ${settings.requests}, alternating project and reference\n`,
);

const pair = await startPair({
  reseed: settings.reseed,
  seedConnections: settings.seedConnections,
  referenceShape: settings.referenceShape,
  requestLog: settings.requestLog,
});
console.log(
  `The reference's shape: ${settings.referenceShape || "its default, SHAPE in bench/reference/wrangler.toml"}.`,
);
const { project, reference } = pair;
const servers = [project, reference] as const;
const routes = pair.routes.filter((route) => settings.routes.includes(route.name));

console.log("\nSame request, both answers (call 0 of each route; a vote changes the same row the same way):");
for (const route of routes) {
  const { equal, detail } = await compareAnswers(route, 0, project, reference);
  console.log(`  ${equal ? "same " : "DIFF "} ${route.label}: ${detail}`);
}

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : "-");
const results: { label: string; project: Totals; reference: Totals }[] = [];
for (const route of routes) {
  console.log(`\n${route.label}`);
  const rounds = await pairedRounds(servers, route, settings, (index, result, r) =>
    console.log(
      `  round ${r} ${servers[index].name.padEnd(9)} ${fmt(result.ms.length / result.seconds).padStart(7)} req/s` +
        (result.errors ? `  ${result.errors} errors, e.g. ${result.firstError}` : ""),
    ),
  );
  results.push({ label: route.label, project: total(rounds[0]), reference: total(rounds[1]) });
}

await Promise.all(servers.map((server) => server.stop()));

const rate = (t: Totals) => t.requests / t.seconds;
const columns: [string, (t: Totals) => string][] = [
  ["req/s", (t) => fmt(rate(t))],
  ["req/s per round", (t) => t.perRound.map((n) => fmt(n, 0)).join(", ")],
  ["p50 ms", (t) => fmt(t.p50)],
  ["p99 ms", (t) => fmt(t.p99)],
  ["D1 round trips", (t) => fmt(t.roundTrips)],
  ["rows read", (t) => fmt(t.rowsRead, 0)],
  ["CPU ms/req workerd + wrangler", (t) => `${fmt(t.cpuMs.workerd)} + ${fmt(t.cpuMs.node)}`],
  ["client CPU ms/req", (t) => fmt(t.cpuMs.client)],
];
const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
console.log(`\nLoad average at the end: ${load()}\n`);
console.log(line(["route", "server", ...columns.map(([header]) => header), "project/reference"]));
console.log(line(Array.from({ length: columns.length + 3 }, () => "---")));
for (const { label, project: mine, reference: theirs } of results) {
  const cpu = (t: Totals) => t.cpuMs.workerd + t.cpuMs.node;
  const ratio =
    `**${fmt(rate(mine) / rate(theirs), 2)}x** (CPU ${fmt(cpu(theirs) / cpu(mine), 2)}x, ` +
    `p50 ${fmt(mine.p50 / theirs.p50, 2)}x)`;
  console.log(line([`\`${label}\``, "project", ...columns.map(([, cell]) => cell(mine)), ratio]));
  console.log(line(["", "reference", ...columns.map(([, cell]) => cell(theirs)), ""]));
  for (const [name, t] of [
    ["project", mine],
    ["reference", theirs],
  ] as const) {
    if (t.errors) console.log(`  ${name}: ${t.errors} non-200 answers, e.g. ${t.firstError}`);
  }
}
console.log(
  "\nratio: project req/s over reference req/s; in brackets, reference CPU per request over project CPU per " +
    "request (what req/s would follow if the server's CPU were the only limit), and project p50 over reference " +
    "p50. CPU: what the server's workerd and wrangler (Node) processes used during its rounds, and this load " +
    "generator.",
);

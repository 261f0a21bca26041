/**
 * A change measured against a revision (`npm run bench ab -- --base=HEAD`): the checkout as it is and the project
 * at `base` (a git revision, copied out with `git archive`), both under `wrangler dev` on copies of the load
 * benchmark's seeded community, take alternating rounds of the same requests on each route. It prints req/s and
 * workerd's CPU per request for each, and the change's effect with its spread over the rounds, which is what tells a
 * real gain from this machine's noise (a single server's figures move by about ±10% run to run). Settings (flag or
 * BENCH_* variable):
 *   --base=HEAD  --routes=comment,user-articles  --rounds=8  --requests=600 (per round and server)
 *   --warmup=300  --connections=16
 */
import { execSync } from "node:child_process";
import { mkdirSync, symlinkSync } from "node:fs";
import { join, resolve } from "node:path";
import { pairedRounds } from "./lib/load";
import { option } from "./lib/options";
import { seededWithLogins } from "./lib/pair";
import { benchRoutes } from "./lib/routes";
import { BENCH_VARS, copyState, projectConfig, runDirectory, startServer } from "./lib/wrangler";

const settings = {
  base: option("base", "HEAD"),
  routes: option("routes", "comment,user-articles").split(","),
  rounds: option("rounds", 8),
  requests: option("requests", 600),
  warmup: option("warmup", 300),
  connections: option("connections", 16),
};

const run = runDirectory();
const revision = execSync(`git rev-parse --short ${settings.base}`, { encoding: "utf8" }).trim();
const baseRoot = join(run, "base");
mkdirSync(baseRoot);
execSync(`git archive ${revision} | tar -x -C ${baseRoot}`);
// What the revision's copy lacks, taken from the checkout: the installed packages and the built assets.
for (const name of ["node_modules", "public"]) symlinkSync(resolve(name), join(baseRoot, name));

const config = projectConfig(join(run, "changed"));
const baseConfig = projectConfig(join(run, "base-config"), baseRoot);
const changedState = join(run, "changed-state");
const { seeded, tokens } = await seededWithLogins(config, changedState, run, { reseed: false, seedConnections: 8 });
copyState(changedState, join(run, "base-state"));

const vars = { ...BENCH_VARS, REQUEST_LOG: "false" };
const servers = [
  await startServer(`base ${revision}`, baseConfig, join(run, "base-state"), join(run, "base.log"), { vars }),
  await startServer("changed", config, changedState, join(run, "changed.log"), { vars }),
] as const;

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const spread = (values: number[]) => {
  const m = mean(values);
  return Math.sqrt(values.reduce((sum, value) => sum + (value - m) ** 2, 0) / Math.max(1, values.length - 1));
};

console.log(`base: ${revision}; changed: the checkout. ${settings.connections} connections, ABBA rounds.\n`);
try {
  for (const route of benchRoutes(seeded, tokens).filter((candidate) => settings.routes.includes(candidate.name))) {
    const rounds = await pairedRounds(servers, route, settings, (index, result) => {
      if (result.errors) throw new Error(`${servers[index].name}: ${result.errors} errors, e.g. ${result.firstError}`);
    });
    // Per server and round: requests per second and workerd CPU milliseconds per request.
    const rates = rounds.map((list) => list.map((result) => result.ms.length / result.seconds)) as [number[], number[]];
    const cpu = rounds.map((list) => list.map((result) => (1000 * result.cpu.workerd) / result.ms.length)) as [
      number[],
      number[],
    ];
    console.log(route.label);
    for (const [index, server] of servers.entries()) {
      const [r, c] = [rates[index] as number[], cpu[index] as number[]];
      console.log(
        `  ${server.name.padEnd(14)} ${mean(r).toFixed(1).padStart(7)} req/s ± ${spread(r).toFixed(1)}   ` +
          `workerd ${mean(c).toFixed(3)} ms/req ± ${spread(c).toFixed(3)}`,
      );
    }
    // The change per pair of rounds, so that a drift of the machine's load during the route cancels out.
    const gains = rates[1].map((rate, i) => rate / (rates[0][i] as number));
    const saved = cpu[0].map((ms, i) => ms - (cpu[1][i] as number));
    console.log(
      `  changed/base: ${mean(gains).toFixed(3)}x req/s ± ${spread(gains).toFixed(3)}; ` +
        `workerd CPU saved ${mean(saved).toFixed(3)} ms/req ± ${spread(saved).toFixed(3)}\n`,
    );
  }
} finally {
  await Promise.all(servers.map((server) => server.stop()));
}

/**
 * Where a request's CPU goes inside workerd (`npm run bench workerd-profile`): the project (or with `--reference`
 * the reference Worker) under `wrangler dev` on a copy of the load benchmark's seeded community, sampled through
 * `wrangler dev`'s inspector while it serves one route's requests, 8 at a time. Prints each function's self time
 * per request, top first: the Worker's own code (unminified for the project, so that its names read), workerd's
 * JavaScript (`cloudflare-internal:d1-api` is D1's client) and native calls. `(idle)` is the Worker's thread
 * waiting (for D1, whose local simulator runs in isolates of its own that this profile does not see). The profile is
 * kept in .wrangler/bench/profiles/ for Chrome DevTools. Settings (flag or BENCH_* variable):
 *   --route=comment (or user-articles, articles, vote)  --requests=1000  --warmup=300  --interval=100 (µs)
 *   --reference  --reference-shape=bare (or project; unset: bench/reference/wrangler.toml's)  --top=40
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { CpuProfile } from "./lib/cpu-profile";
import { round } from "./lib/load";
import { option } from "./lib/options";
import { seededWithLogins } from "./lib/pair";
import { benchRoutes } from "./lib/routes";
import {
  BENCH_VARS,
  copyState,
  projectConfig,
  REFERENCE_CONFIG,
  runDirectory,
  type Server,
  startServer,
} from "./lib/wrangler";

const settings = {
  route: option("route", "comment"),
  requests: option("requests", 1000),
  warmup: option("warmup", 300),
  interval: option("interval", 100),
  reference: option("reference", false),
  referenceShape: option("reference-shape", ""),
  top: option("top", 40),
};
const PROFILES = ".wrangler/bench/profiles";

/** What this uses of `ws` (wrangler's WebSocket client; Node 20 has none built in). */
interface Socket {
  once(event: "open" | "error", listener: (error?: Error) => void): Socket;
  on(event: "message", listener: (data: Buffer) => void): Socket;
  send(data: string): void;
  close(): void;
}
// CommonJS, required from the checkout: this bundle runs from a temporary directory with no node_modules.
const WebSocket = createRequire(join(process.cwd(), "package.json"))("ws") as new (url: string) => Socket;

/** Calls the DevTools protocol of the Worker's inspector: one method at a time, answered by id. */
async function inspector(server: Server) {
  const targets = (await (await fetch(`http://127.0.0.1:${server.inspectorPort}/json`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  const url = targets[0]?.webSocketDebuggerUrl;
  if (!url) throw new Error("wrangler dev's inspector lists no Worker");
  const socket = new WebSocket(url);
  await new Promise((opened, failed) => socket.once("open", opened).once("error", failed));
  const waiting = new Map<number, (result: unknown) => void>();
  socket.on("message", (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) waiting.get(message.id)?.(message.result);
  });
  let next = 0;
  return {
    call: <T>(method: string, params: object = {}) =>
      new Promise<T>((answered) => {
        next++;
        waiting.set(next, answered as (result: unknown) => void);
        socket.send(JSON.stringify({ id: next, method, params }));
      }),
    close: () => socket.close(),
  };
}

const run = runDirectory();
const config = projectConfig(join(run, "project"));
// Unminified, so that the profile names the project's functions (the reference is small enough to read as it is).
writeFileSync(config, readFileSync(config, "utf8").replace(/^minify = true$/m, "minify = false"));
const state = join(run, "project-state");
const { seeded, tokens } = await seededWithLogins(config, state, run, { reseed: false, seedConnections: 8 });
if (settings.reference) copyState(state, join(run, "reference-state"));
const server = settings.reference
  ? await startServer("reference", REFERENCE_CONFIG, join(run, "reference-state"), join(run, "ref.log"), {
      vars: settings.referenceShape ? { SHAPE: settings.referenceShape } : {},
    })
  : await startServer("project", config, state, join(run, "project.log"), {
      vars: { ...BENCH_VARS, REQUEST_LOG: "false" },
    });
const route = benchRoutes(seeded, tokens).find((candidate) => candidate.name === settings.route);
if (!route) throw new Error(`no benchmarked route ${settings.route}`);

try {
  await round(server, route, 0, settings.warmup, 8);
  const devtools = await inspector(server);
  await devtools.call("Profiler.enable");
  await devtools.call("Profiler.setSamplingInterval", { interval: settings.interval });
  await devtools.call("Profiler.start");
  const served = await round(server, route, settings.warmup, settings.requests, 8);
  const { profile } = await devtools.call<{ profile: CpuProfile }>("Profiler.stop");
  devtools.close();
  if (served.errors) console.log(`${served.errors} answers were not 200, e.g. ${served.firstError}`);

  mkdirSync(PROFILES, { recursive: true });
  const file = join(PROFILES, `${route.name}.${server.name}.workerd.cpuprofile`);
  writeFileSync(file, JSON.stringify(profile));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const self = new Map<string, number>();
  profile.samples.forEach((sample, index) => {
    const frame = nodes.get(sample);
    if (!frame) return;
    const where = frame.url ? ` ${frame.url.split("/").slice(-1)[0]}:${frame.lineNumber + 1}` : "";
    const name = `${frame.functionName || "(anonymous)"}${where}`;
    self.set(name, (self.get(name) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  const perRequest = (us: number) => (us / 1000 / settings.requests).toFixed(3).padStart(7);
  const total = [...self.values()].reduce((sum, us) => sum + us, 0);
  const idle = self.get("(idle)") ?? 0;
  console.log(`\n${server.name}, ${route.label}: ${settings.requests} requests, 8 at a time`);
  console.log(`ms per request: ${perRequest(total - idle)} busy, ${perRequest(idle)} idle; self time by function:`);
  for (const [name, us] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, settings.top)) {
    if (name !== "(idle)") console.log(`${perRequest(us)}  ${name}`);
  }
  console.log(`\nProfile: ${file} (Chrome DevTools, Performance, "Load profile")`);
} finally {
  await server.stop();
}

/**
 * `wrangler dev` servers for the load benchmark: bench-only configs, free loopback ports, local D1 state in a
 * directory of their own, and clean-up of every process started here, on a normal exit, an error or Ctrl-C.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import {
  closeSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { freePort } from "../../scripts/lib/free-port.mjs";
import { option } from "./options";

// The package's bin script (its `exports` do not list it): found beside its package.json.
const WRANGLER = join(
  dirname(createRequire(join(process.cwd(), "package.json")).resolve("wrangler/package.json")),
  "bin/wrangler.js",
);

/**
 * TOOLCHAIN.md, pitfall 10: wrangler dev's local trace store writes about 10 MB/s under load and costs a read route
 * 40% of its throughput; `npm run dev` turns it off the same way. The cf-object fetch needs the internet.
 */
const ENV = { ...process.env, X_LOCAL_OBSERVABILITY: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", CI: "true" };

/** Secrets the bench servers get (`--var`): the first administrator and the password pepper. */
export const BENCH_VARS = {
  PASSWORD_PEPPER: "bench-pepper",
  ADMIN_USERNAME: "admin",
  ADMIN_EMAIL: "admin@bench.example",
  ADMIN_PASSWORD: "bench-admin-password",
};

/**
 * The project's wrangler.toml for the benchmark, written into `dir`: its paths (`main`, `migrations_dir`, the assets
 * `directory`; a new path setting would need the same) made absolute from `root` (the checkout, or another
 * revision's copy of it), and without
 * - the `[[ratelimits]]` blocks, whose limits would refuse the seeding (a missing binding counts nothing,
 *   src/core/env.ts);
 * - the `[assets]` block, unless `--assets`. With it, `wrangler dev` puts Cloudflare's asset router in front of the
 *   Worker: an isolate of its own in the same workerd, which decides that every benchmarked path (all under /api)
 *   goes to the Worker, and whose CPU the benchmark would count as the project's (0.14–0.9 ms a request,
 *   docs/performance.md#the-asset-router). On Cloudflare that router is the platform's, not the Worker's CPU time; the
 *   reference has none.
 * Everything else, `SERVER_TIMING` and `minify` included, stays as the project ships it.
 */
export function projectConfig(dir: string, root = "."): string {
  const assets = option("assets", false);
  const kept: string[] = [];
  let dropped = false;
  for (const line of readFileSync(join(root, "wrangler.toml"), "utf8").split("\n")) {
    if (/^\s*\[/.test(line)) dropped = /^\s*\[\[ratelimits\]\]/.test(line) || (!assets && /^\s*\[assets\]/.test(line));
    if (!dropped) kept.push(line);
  }
  const absolute = (path: string) => JSON.stringify(resolve(root, path));
  const text = kept
    .join("\n")
    .replace(/^main = "(.*)"$/m, (_, main: string) => `main = ${absolute(main)}`)
    .replace(/^migrations_dir = "(.*)"$/m, (_, migrations: string) => `migrations_dir = ${absolute(migrations)}`)
    .replace(/^directory = "(.*)"$/m, (_, folder: string) => `directory = ${absolute(folder)}`);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "wrangler.toml");
  writeFileSync(path, text);
  return path;
}

/** The reference Worker's config, kept in the repository. */
export const REFERENCE_CONFIG = resolve("bench/reference/wrangler.toml");

/** Runs a wrangler command to its end, its output appended to `log` (printed when it fails). */
function wrangler(args: string[], log: string) {
  const out = openSync(log, "a");
  try {
    execFileSync(process.execPath, [WRANGLER, ...args], { env: ENV, stdio: ["ignore", out, out] });
  } catch (error) {
    console.error(readFileSync(log, "utf8").slice(-3000));
    throw error;
  } finally {
    closeSync(out);
  }
}

/** Applies the migrations to the local D1 under `persist`. */
export function migrate(config: string, persist: string, log: string): void {
  wrangler(["d1", "migrations", "apply", "DB", "--local", "-c", config, "--persist-to", persist], log);
}

/** Runs a file of SQL on the local D1 under `persist` (no server may be running on it). */
export function executeSql(config: string, persist: string, file: string, log: string): void {
  wrangler(["d1", "execute", "DB", "--local", "-c", config, "--persist-to", persist, "--file", file, "--yes"], log);
}

/** Copies a stopped server's local state (D1, KV, R2) so that another server can start from it. */
export function copyState(from: string, to: string): void {
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true });
}

const running = new Set<ChildProcess>();
const directories: string[] = [];

/** Kills a server's whole process group (wrangler and its workerd), whether or not wrangler itself has exited. */
function killGroup(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM") {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

let hooked = false;
/** Whatever ends this process (return, throw, Ctrl-C, kill) ends the servers it started, then removes its files. */
function hookExit() {
  if (hooked) return;
  hooked = true;
  process.on("exit", () => {
    for (const child of running) killGroup(child, "SIGKILL");
    for (const directory of directories) rmSync(directory, { recursive: true, force: true });
  });
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => {
      console.error(`\n${signal}: stopping the servers`);
      process.exit(130);
    });
  }
}

/** A new directory for a run's state and logs, removed when the process ends. */
export function runDirectory(): string {
  hookExit();
  const directory = mkdtempSync(join(tmpdir(), "mdclub-bench-"));
  directories.push(directory);
  return directory;
}

export interface Server {
  name: string;
  origin: string;
  inspectorPort: number;
  log: string;
  /** CPU seconds its processes (wrangler's Node, workerd) have used so far. */
  cpuSeconds(): { workerd: number; node: number };
  stop(): Promise<void>;
}

/** Linux's USER_HZ: /proc reports CPU times in these ticks. */
const TICKS_PER_SECOND = 100;

/** CPU seconds used by the live processes of a process group, by program (from /proc/<pid>/stat). */
function groupCpuSeconds(group: number): { workerd: number; node: number } {
  const used = { workerd: 0, node: 0 };
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    // pid (comm) state ppid pgrp ... utime stime: fields 14 and 15, counted after the parenthesised name.
    const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) !== group) continue;
    const seconds = (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
    if (name.startsWith("workerd")) used.workerd += seconds;
    else used.node += seconds;
  }
  return used;
}

/** Starts `wrangler dev` on loopback (a free port unless `port` is given) and waits until it answers. */
export async function startServer(
  name: string,
  config: string,
  persist: string,
  log: string,
  options: { vars?: Record<string, string>; args?: string[]; port?: number } = {},
): Promise<Server> {
  hookExit();
  const [port, inspectorPort] = [options.port ?? (await freePort()), await freePort()];
  const args = [WRANGLER, "dev", "-c", config, "--ip", "127.0.0.1", "--port", String(port)];
  args.push("--inspector-port", String(inspectorPort), "--persist-to", persist);
  args.push("--show-interactive-dev-session=false", "--log-level", "warn");
  args.push(...(options.args ?? []));
  const pairs = Object.entries(options.vars ?? {}).map(([key, value]) => `${key}:${value}`);
  if (pairs.length) args.push("--var", ...pairs);
  const out = openSync(log, "a");
  // A process group of its own, so that killing it takes workerd along; Ctrl-C reaches it through our handler.
  const child = spawn(process.execPath, args, { env: ENV, stdio: ["ignore", out, out], detached: true });
  closeSync(out);
  running.add(child);
  const origin = `http://127.0.0.1:${port}`;
  const stop = async () => {
    running.delete(child);
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((done) => child.once("exit", done));
      killGroup(child);
      await Promise.race([exited, new Promise((done) => setTimeout(done, 5000))]);
    }
    // Whatever of the group outlived wrangler.
    killGroup(child, "SIGKILL");
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      await (await fetch(`${origin}/api/none`)).arrayBuffer();
      const cpuSeconds = () => groupCpuSeconds(child.pid as number);
      return { name, origin, inspectorPort, log, cpuSeconds, stop };
    } catch {
      await new Promise((done) => setTimeout(done, 250));
    }
  }
  await stop();
  throw new Error(`${name}: wrangler dev did not start; its log:\n${readFileSync(log, "utf8").slice(-3000)}`);
}

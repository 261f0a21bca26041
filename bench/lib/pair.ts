/**
 * The project and the reference Worker under `wrangler dev`, each on its own copy of the seeded community, with
 * the tokens the benchmarked requests send.
 */
import { join } from "node:path";
import type { BenchRoute } from "./load";
import { benchRoutes, logInBenchUsers, type Tokens } from "./routes";
import type { Seeded } from "./seed";
import { seededState } from "./state";
import {
  BENCH_VARS,
  copyState,
  projectConfig,
  REFERENCE_CONFIG,
  runDirectory,
  type Server,
  startServer,
} from "./wrangler";

export interface Pair {
  project: Server;
  reference: Server;
  routes: BenchRoute[];
}

/**
 * The seeded community in `state` (a copy of the kept seed, or seeded now) with the reader and the voters logged in
 * through a project server on `config`, stopped again: tokens come from logging in, and the stopped state, which
 * holds them, can then be copied for other servers (two workerd processes on one SQLite file could clash).
 */
export async function seededWithLogins(
  config: string,
  state: string,
  run: string,
  options: { reseed: boolean; seedConnections: number },
): Promise<{ seeded: Seeded; tokens: Tokens }> {
  const seeded = await seededState(config, state, join(run, "seed.log"), {
    reseed: options.reseed,
    concurrency: options.seedConnections,
  });
  const server = await startServer("project", config, state, join(run, "login.log"), { vars: BENCH_VARS });
  try {
    return { seeded, tokens: await logInBenchUsers(server.origin) };
  } finally {
    await server.stop();
  }
}

/** Seeds and logs in (see {@link seededWithLogins}), copies the state for the reference, and starts both. */
export async function startPair(options: {
  reseed: boolean;
  seedConnections: number;
  /** The reference's SHAPE ("required", "bare" or "project", bench/reference/worker.ts); unset: its wrangler.toml's. */
  referenceShape?: string;
  /** Whether the project writes its per-request log line (REQUEST_LOG), which the reference does not. */
  requestLog?: boolean;
}): Promise<Pair> {
  const run = runDirectory();
  const projectState = join(run, "project-state");
  const referenceState = join(run, "reference-state");
  const log = (name: string) => join(run, `${name}.log`);
  const config = projectConfig(join(run, "project"));
  const { seeded, tokens } = await seededWithLogins(config, projectState, run, options);
  copyState(projectState, referenceState);

  const vars = { ...BENCH_VARS, REQUEST_LOG: options.requestLog ? "true" : "false" };
  const project = await startServer("project", config, projectState, log("project"), { vars });
  const shape = options.referenceShape ? { SHAPE: options.referenceShape } : undefined;
  const reference = await startServer("reference", REFERENCE_CONFIG, referenceState, log("reference"), {
    vars: shape,
  });
  const routes = benchRoutes(seeded, tokens);
  return { project, reference, routes };
}

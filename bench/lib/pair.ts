/**
 * The project and the reference Worker under `wrangler dev`, each on its own copy of the seeded community, with
 * the tokens the benchmarked requests send.
 */
import { join } from "node:path";
import type { BenchRoute } from "./load";
import { benchRoutes, logInBenchUsers } from "./routes";
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
 * Seeds (or copies the kept seed), logs the reader and the voters in on the project, copies its state for the
 * reference (a copy: two workerd processes on one SQLite file could clash) and starts both.
 */
export async function startPair(options: {
  reseed: boolean;
  seedConnections: number;
  /** "project": the reference makes the project's round trips (bench/reference/worker.ts, Env.SHAPE). */
  referenceShape?: string;
  /** Whether the project writes its per-request log line (REQUEST_LOG), which the reference does not. */
  requestLog?: boolean;
}): Promise<Pair> {
  const run = runDirectory();
  const projectState = join(run, "project-state");
  const referenceState = join(run, "reference-state");
  const log = (name: string) => join(run, `${name}.log`);
  const config = projectConfig(join(run, "project"));

  const seeded = await seededState(config, projectState, log("seed"), {
    reseed: options.reseed,
    concurrency: options.seedConnections,
  });

  // Tokens come from logging in, so they must be in the database before it is copied for the reference.
  const first = await startServer("project", config, projectState, log("project"), { vars: BENCH_VARS });
  const tokens = await logInBenchUsers(first.origin);
  await first.stop();
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

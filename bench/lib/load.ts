/**
 * Load rounds: a fixed number of requests over N concurrent connections (Node's fetch, keep-alive), each request's
 * latency, and the D1 round trips and rows read that the server reports in `Server-Timing`.
 */
import type { Fetch } from "./api";

/** One request of a benchmarked route; `k` numbers it within its server's sequence. */
export interface Call {
  method: string;
  path: string;
  token?: string;
  body?: unknown;
}

export interface BenchRoute {
  name: string;
  label: string;
  call(k: number): Call;
}

export interface Round {
  /** Latencies, milliseconds. */
  ms: number[];
  seconds: number;
  /** CPU seconds the server's processes used during the round (workerd, wrangler's Node), and this process. */
  cpu: { workerd: number; node: number; client: number };
  /** Sums over the requests, from `Server-Timing`; `timed` counts the answers that carried it. */
  roundTrips: number;
  rowsRead: number;
  timed: number;
  errors: number;
  firstError?: string;
}

const ROUND_TRIPS = /d1;dur=[\d.]+;desc="(\d+) round trips"/;
const ROWS_READ = /d1-rows;desc="(\d+) rows read"/;

/** What a server reports of a response's D1 work. */
export function d1Of(headers: Headers): { roundTrips: number; rowsRead: number } | null {
  const timing = headers.get("server-timing") ?? "";
  const trips = ROUND_TRIPS.exec(timing);
  if (!trips) return null;
  return { roundTrips: Number(trips[1]), rowsRead: Number(ROWS_READ.exec(timing)?.[1] ?? 0) };
}

export function send(origin: string, call: Call, fetcher: Fetch = fetch): Promise<Response> {
  const headers: Record<string, string> = {};
  if (call.token) headers.token = call.token;
  if (call.body !== undefined) headers["content-type"] = "application/json";
  const body = call.body === undefined ? undefined : JSON.stringify(call.body);
  return fetcher(`${origin}${call.path}`, { method: call.method, headers, body });
}

/** What a round needs of a server: where it listens and how much CPU it has used. */
export interface Target {
  origin: string;
  cpuSeconds(): { workerd: number; node: number };
}

const clientSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

/** Sends `requests` calls numbered from `first`, `connections` at a time. */
export async function round(
  server: Target,
  route: BenchRoute,
  first: number,
  requests: number,
  connections: number,
): Promise<Round> {
  const { origin } = server;
  const cpu = { workerd: 0, node: 0, client: 0 };
  const result: Round = { ms: [], seconds: 0, cpu, roundTrips: 0, rowsRead: 0, timed: 0, errors: 0 };
  let next = 0;
  const worker = async () => {
    while (next < requests) {
      const call = route.call(first + next++);
      const started = performance.now();
      const response = await send(origin, call);
      const body = await response.arrayBuffer();
      result.ms.push(performance.now() - started);
      const d1 = d1Of(response.headers);
      if (d1) {
        result.timed++;
        result.roundTrips += d1.roundTrips;
        result.rowsRead += d1.rowsRead;
      }
      if (response.status !== 200) {
        result.errors++;
        const text = Buffer.from(body).toString().slice(0, 200);
        result.firstError ??= `${call.method} ${call.path}: ${response.status} ${text}`;
      }
    }
  };
  const [before, client, started] = [server.cpuSeconds(), clientSeconds(), performance.now()];
  await Promise.all(Array.from({ length: connections }, worker));
  result.seconds = (performance.now() - started) / 1000;
  const after = server.cpuSeconds();
  Object.assign(cpu, { workerd: after.workerd - before.workerd, node: after.node - before.node });
  cpu.client = clientSeconds() - client;
  return result;
}

/** What paired rounds send: per route and server, a warm-up, then `rounds` rounds of `requests`. */
export interface RoundPlan {
  warmup: number;
  rounds: number;
  requests: number;
  connections: number;
}

/**
 * Two servers' rounds on one route, in ABBA order, so that a drift of the machine's load during the route favours
 * neither. Each server numbers its calls from 1 (call 0 is left for comparing answers) and goes on across rounds, so
 * both get exactly the same sequence of requests. `done` hears of each round (numbered from 1) as it ends.
 */
export async function pairedRounds(
  servers: readonly [Target, Target],
  route: BenchRoute,
  plan: RoundPlan,
  done: (index: 0 | 1, result: Round, round: number) => void = () => {},
): Promise<[Round[], Round[]]> {
  const next = [1, 1];
  for (const index of [0, 1] as const) {
    await round(servers[index], route, next[index] as number, plan.warmup, plan.connections);
    next[index] = (next[index] as number) + plan.warmup;
  }
  const rounds: [Round[], Round[]] = [[], []];
  for (let r = 0; r < plan.rounds; r++) {
    for (const index of r % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const)) {
      const result = await round(servers[index], route, next[index] as number, plan.requests, plan.connections);
      next[index] = (next[index] as number) + plan.requests;
      rounds[index].push(result);
      done(index, result, r + 1);
    }
  }
  return rounds;
}

/** Nearest-rank percentile of unsorted samples. */
export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

/** Rounds of one server on one route, summed. */
export interface Totals {
  requests: number;
  seconds: number;
  perRound: number[];
  p50: number;
  p99: number;
  roundTrips: number;
  rowsRead: number;
  /** CPU milliseconds per request: the server's workerd and wrangler processes, and the load generator. */
  cpuMs: { workerd: number; node: number; client: number };
  errors: number;
  firstError?: string;
}

export function total(rounds: Round[]): Totals {
  const ms = rounds.flatMap((r) => r.ms);
  const seconds = rounds.reduce((sum, r) => sum + r.seconds, 0);
  const timed = rounds.reduce((sum, r) => sum + r.timed, 0);
  return {
    requests: ms.length,
    seconds,
    perRound: rounds.map((r) => r.ms.length / r.seconds),
    p50: percentile(ms, 50),
    p99: percentile(ms, 99),
    roundTrips: timed ? rounds.reduce((sum, r) => sum + r.roundTrips, 0) / timed : Number.NaN,
    rowsRead: timed ? rounds.reduce((sum, r) => sum + r.rowsRead, 0) / timed : Number.NaN,
    cpuMs: {
      workerd: (1000 * rounds.reduce((sum, r) => sum + r.cpu.workerd, 0)) / ms.length,
      node: (1000 * rounds.reduce((sum, r) => sum + r.cpu.node, 0)) / ms.length,
      client: (1000 * rounds.reduce((sum, r) => sum + r.cpu.client, 0)) / ms.length,
    },
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
    firstError: rounds.find((r) => r.firstError)?.firstError,
  };
}

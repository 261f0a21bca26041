/**
 * Load rounds: a fixed number of requests over N concurrent connections (Node's fetch, keep-alive), each request's
 * latency, and the D1 round trips and rows read that the server reports in `Server-Timing`.
 */

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

export function send(origin: string, call: Call): Promise<Response> {
  const headers: Record<string, string> = {};
  if (call.token) headers.token = call.token;
  if (call.body !== undefined) headers["content-type"] = "application/json";
  const body = call.body === undefined ? undefined : JSON.stringify(call.body);
  return fetch(`${origin}${call.path}`, { method: call.method, headers, body });
}

/** Sends `requests` calls numbered from `first`, `connections` at a time. */
export async function round(
  origin: string,
  route: BenchRoute,
  first: number,
  requests: number,
  connections: number,
): Promise<Round> {
  const result: Round = { ms: [], seconds: 0, roundTrips: 0, rowsRead: 0, timed: 0, errors: 0 };
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
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, worker));
  result.seconds = (performance.now() - started) / 1000;
  return result;
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
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
    firstError: rounds.find((r) => r.firstError)?.firstError,
  };
}

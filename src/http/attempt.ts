/**
 * One request as the Worker received it, across the tries it takes (docs/performance.md#one-round-trip). A request
 * whose token claims its holder builds its queries for that caller at once, and D1 checks the token in the same
 * round trip; when the check contradicts the claim, the work done so far is dropped and the request is served
 * again, for the caller D1 found or, when a replica may not have the token yet, checking it on the primary. Both
 * tries count in one meter, so Server-Timing tells the whole cost.
 */
import type { Caller } from "../core/caller";
import { D1Meter } from "../db/client";
import type { SiteOptions } from "../domain/site-options";
import { requestIdOf } from "../lib/request-id";

/** What D1 said about the caller and the settings, which a second try takes as known. */
export interface Resolution {
  caller: Caller | null;
  options: SiteOptions | null;
}

/**
 * How a second try goes: with what the first one found (and, when a replica answered before the caller's own last
 * write, reading from that write's bookmark), or checking the token again on the primary.
 */
export type Retry = { known: Resolution; onPrimary: false; bookmark?: string } | { known: null; onPrimary: true };

export interface Attempt {
  /** The request's id (lib/request-id.ts), the same on every try. */
  id: string;
  /** When the first try began (`performance.now()`): the request's duration spans every try. */
  started: number;
  meter: D1Meter;
  /** On a second try: what the first one found about the caller and the settings. */
  known: Resolution | null;
  /** On a second try that checks the token again, on the primary. */
  onPrimary: boolean;
  /** On a second try after a replica answered before the caller's own last write: that write's bookmark. */
  bookmark: string | null;
  /** Set when this try's work is void and the request must be served again. */
  retry: Retry | null;
}

/** Thrown by the token check when it contradicts the claim: the request is served again. */
export class StaleClaim extends Error {
  constructor(readonly retry: Retry) {
    super("the token's claim no longer holds");
  }
}

/** The StaleClaim behind `error`, which drizzle wraps in its own error when a statement's round trip threw. */
export function staleClaimIn(error: unknown): StaleClaim | null {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 4; cause = cause.cause, depth++) {
    if (cause instanceof StaleClaim) return cause;
  }
  return null;
}

const attempts = new WeakMap<Request, Attempt>();

/** Starts a try of `request`; a second one, as `retry` says, keeps the `first` one's id, clock and meter. */
export function beginAttempt(request: Request, retry: Retry | null = null, first?: Attempt): Attempt {
  const attempt: Attempt = {
    id: first?.id ?? requestIdOf(request.headers),
    started: first?.started ?? performance.now(),
    meter: first?.meter ?? new D1Meter(),
    known: retry?.known ?? null,
    onPrimary: retry?.onPrimary ?? false,
    bookmark: (retry && !retry.onPrimary && retry.bookmark) || null,
    retry: null,
  };
  attempts.set(request, attempt);
  return attempt;
}

/** The try `request` belongs to (a request made without the Worker's entry, as a test may, gets its own). */
export const attemptOf = (request: Request): Attempt => attempts.get(request) ?? beginAttempt(request);

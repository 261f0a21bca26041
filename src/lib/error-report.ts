/**
 * A failure as a log may keep it (docs/decisions.md#request-ids-and-one-log-line-per-request): every error of the
 * cause chain with its name, message and stack, but never the values a statement was bound to. Drizzle's
 * "Failed query" error spells them out ("params: ..."), and they may be e-mail addresses, password hashes, token
 * hashes or a post's text; the SQL alone says which statement failed.
 */
export interface ErrorReport {
  name: string;
  message: string;
  stack?: string;
  cause?: ErrorReport | string;
}

const MAX_DEPTH = 5;

/** Drizzle's query error carries `query` and `params`; its message (and so its stack) names both. */
function withoutParams(error: Error): { message: string; stack?: string } {
  const query = (error as { query?: unknown }).query;
  if (typeof query !== "string" || !("params" in error)) return { message: error.message, stack: error.stack };
  const message = `Failed query: ${query}`;
  return { message, stack: error.stack?.replace(error.message, `${message}\nparams: [not logged]`) };
}

export function reportError(error: unknown, depth = 0): ErrorReport | string {
  if (!(error instanceof Error)) return String(error);
  const report: ErrorReport = { name: error.name, ...withoutParams(error) };
  if (error.cause !== undefined && depth < MAX_DEPTH) report.cause = reportError(error.cause, depth + 1);
  return report;
}

/**
 * SQL statements as text with their parameters written in, for what takes SQL text only (`wrangler d1 execute`: the
 * MDClub importer's `--remote` path, `npm run search:rebuild`), where no parameter can be bound.
 */

/** A value a statement binds. */
export type SqlValue = string | number | null;

/** SQL with `?` parameters. */
export interface Statement {
  sql: string;
  params: SqlValue[];
}

/** A SQLite literal; NUL cannot appear inside a quoted literal, so it is spliced in with char(0). */
export function literal(value: SqlValue): string {
  if (value === null) return "NULL";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "NULL";
  return value
    .split("\0")
    .map((part) => `'${part.replaceAll("'", "''")}'`)
    .join(" || char(0) || ");
}

/** The statement with its parameters written in as literals. Only a `?` outside quotes is a parameter. */
export function inlineParams(statement: Statement): string {
  if (statement.params.length === 0) return statement.sql;
  let at = 0;
  let quoted = false;
  let out = "";
  for (const c of statement.sql) {
    if (c === "'") quoted = !quoted;
    out += c === "?" && !quoted ? literal(statement.params[at++] ?? null) : c;
  }
  return out;
}

/**
 * Where an import writes: anything that executes SQL. The Workers test pool and the CLI's local path use a D1 binding
 * (d1-target.ts); the CLI's `--remote` and `--via-wrangler` paths write SQL files for `wrangler d1 execute` (cli.ts).
 */
import type { Statement } from "../../lib/sql-text";

export interface ImportTarget {
  /** Runs the statements in order (a target may group them into batches). */
  execute(statements: Statement[]): Promise<void>;
  query<T>(statement: Statement): Promise<T[]>;
}

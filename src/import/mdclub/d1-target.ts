/**
 * An import target on a D1 binding: `env.DB` in the Workers test pool, or the local database of `npm run dev` that
 * the CLI opens with wrangler's `getPlatformProxy` (docs/decisions.md#the-mdclub-importer-writes-through-a-d1-binding).
 * Statements go in batches: each batch is one round trip and one transaction.
 */
import type { Statement } from "../../lib/sql-text";
import type { ImportTarget } from "./import-target";

const BATCH = 50;

export function d1Target(binding: D1Database): ImportTarget {
  const prepared = (statement: Statement) => binding.prepare(statement.sql).bind(...statement.params);
  return {
    async execute(statements) {
      for (let at = 0; at < statements.length; at += BATCH) {
        await binding.batch(statements.slice(at, at + BATCH).map(prepared));
      }
    },
    async query<T>(statement: Statement) {
      return (await prepared(statement).all<T>()).results;
    },
  };
}

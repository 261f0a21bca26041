/**
 * The mark that makes an import safe to run again (docs/migrating-from-mdclub.md): a database with content is refused
 * unless forced; a run marks the database as importing first and done last, so a run after a failure finds the mark,
 * empties what the failed run wrote and starts clean: nothing is duplicated.
 */
import type { Statement } from "../../lib/sql-text";
import type { ImportTarget } from "./import-target";
import { INBOX_TABLES } from "./inbox";
import { TABLES } from "./tables";

export class DatabaseNotEmpty extends Error {}

/** The settings row that marks an import: ignored as a setting (not a field), kept as a record of the import. */
const IMPORT_MARK = "_mdclub_import";

/** The tables an import fills, emptied by a forced or resumed run. */
export const FILLED = [...new Set([...Object.values(TABLES).map((map) => map.target), ...INBOX_TABLES]), "options"];

/**
 * Facts MDClub never had, which an import leaves empty (docs/migrating-from-mdclub.md): emptied too, or the ids it
 * imports would take on the bookmarks and history of the rows they replace.
 */
const LEFT_EMPTY = ["bookmarks", "revisions", "user_blocks"];

export const setMark = (state: "running" | "done"): Statement => ({
  sql: `INSERT INTO options (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value`,
  params: [IMPORT_MARK, JSON.stringify({ state, time: Math.floor(Date.now() / 1000) })],
});

/** Refuses a database with content, unless forced or left so by an unfinished import; then empties what it fills. */
export async function prepare(target: ImportTarget, force: boolean) {
  const contentTables = ["users", "questions", "answers", "articles", "comments", "topics"];
  const [state] = await target.query<{ content: number; mark: string | null }>({
    sql: `SELECT ${contentTables.map((t) => `(SELECT count(*) FROM "${t}")`).join(" + ")} AS content,
      (SELECT value FROM options WHERE name = ?) AS mark`,
    params: [IMPORT_MARK],
  });
  const unfinished = state?.mark ? JSON.parse(state.mark).state === "running" : false;
  if ((state?.content ?? 0) > 0 && !force && !unfinished) {
    throw new DatabaseNotEmpty(
      "The database already has content: importing would mix two communities. Pass --force to empty it first.",
    );
  }
  if ((state?.content ?? 0) > 0 || unfinished || force) {
    await target.execute(
      [...FILLED, ...LEFT_EMPTY, "throttles"].map((table) => ({ sql: `DELETE FROM "${table}"`, params: [] })),
    );
  }
  await target.execute([setMark("running")]);
}

/**
 * A streaming reader of MySQL dumps as `mysqldump` and phpMyAdmin write them (docs/migrating-from-mdclub.md#the-dump):
 * it takes the text in chunks of any size and yields each table's columns (from `CREATE TABLE`) and each row of every
 * `INSERT` (one or many tuples per statement) as soon as its tuple closes, so a dump of any size is never held in
 * memory: only the statement head being read and the current tuple are. Comments (`-- `, `#`, `/* … *\/`, and the
 * `/*!40101 … *\/` conditional ones), `SET`, `LOCK TABLES`, `DROP TABLE` and other statements are skipped.
 * Values: MySQL string literals with every escape (`\' \" \\ \n \r \t \0 \Z \b`, `''`), `NULL`, integers (negative
 * too) and decimals as numbers, `0x…` hex and `_binary'…'` as strings. No npm package reads dumps this way
 * (docs/decisions.md#the-mdclub-importer-reads-dumps-with-its-own-lexer).
 */

import type { SqlValue } from "../../lib/sql-text";

export type DumpEvent =
  | { kind: "table"; table: string; columns: string[] }
  | { kind: "row"; table: string; columns: string[] | null; values: SqlValue[] };

const ESCAPES: Record<string, string> = { "0": "\0", b: "\b", n: "\n", r: "\r", t: "\t", Z: "\x1a" };

const INSERT_HEAD = new RegExp(
  String.raw`^(?:INSERT|REPLACE)\s+(?:LOW_PRIORITY\s+|DELAYED\s+|HIGH_PRIORITY\s+)?(?:IGNORE\s+)?(?:INTO\s+)?` +
    String.raw`([${"`"}"]?)([^${"`"}"\s(]+)\1\s*(?:\(([^)]*)\))?\s*VALUES\s*$`,
  "i",
);
const CREATE_HEAD = /^CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?[`"]?([^`"\s(]+)[`"]?\s*\(/i;

const identifiers = (list: string) =>
  list
    .split(",")
    .map((name) => name.trim().replace(/^[`"]|[`"]$/g, ""))
    .filter(Boolean);

/** The columns a `CREATE TABLE` statement declares: its lines that start with a quoted name (keys do not). */
function createdColumns(statement: string): string[] {
  const body = statement.slice(statement.indexOf("(") + 1);
  return [...body.matchAll(/(?:^|,)\s*`([^`]+)`\s+\w/g)].map((match) => match[1] as string);
}

function bareValue(token: string): SqlValue {
  const text = token.trim();
  if (/^null$/i.test(text)) return null;
  if (/^-?\d+$/.test(text)) {
    const n = Number(text);
    return Number.isSafeInteger(n) ? n : text;
  }
  if (/^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text)) return Number(text);
  if (/^0x[0-9a-f]*$/i.test(text)) {
    const bytes = new Uint8Array((text.length - 2) / 2);
    for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(text.slice(2 + 2 * i, 4 + 2 * i), 16);
    return new TextDecoder().decode(bytes);
  }
  if (/^true$/i.test(text)) return 1;
  if (/^false$/i.test(text)) return 0;
  return text;
}

/**
 * Reads a dump given as chunks of text. The state survives chunk ends anywhere: inside a comment, a string, an
 * escape, a number, between the two characters of `--`, `/*` or `*\/`.
 */
export async function* readDump(chunks: AsyncIterable<string> | Iterable<string>): AsyncGenerator<DumpEvent> {
  // Outside VALUES: the statement read so far (small: rows are never collected here).
  let head = "";
  let mode: "statement" | "line-comment" | "block-comment" | "quoted" | "values" = "statement";
  let quote = "";
  let escaped = false;
  let lastWasStar = false;
  // Inside VALUES: the table, its columns, the tuple and the value being read.
  let table = "";
  let columns: string[] | null = null;
  let tuple: SqlValue[] = [];
  let inTuple = false;
  let value = "";
  let inString = false;
  let hadString = false;
  /** The quote that just closed a string: the next character decides whether it was a doubled (escaped) quote. */
  let closedBy = "";
  let pending: DumpEvent[] = [];
  const tables = new Map<string, string[]>();

  const endValue = () => {
    tuple.push(hadString ? value : bareValue(value));
    value = "";
    hadString = false;
  };

  const endStatement = () => {
    const created = CREATE_HEAD.exec(head.trim());
    head = "";
    if (!created) return;
    const name = created[1] as string;
    const list = createdColumns(created.input);
    tables.set(name, list);
    pending.push({ kind: "table", table: name, columns: list });
  };

  for await (const chunk of chunks) {
    let i = 0;
    const n = chunk.length;
    while (i < n) {
      if (mode === "values" && inString) {
        // Copy the run up to the next quote or backslash in one slice.
        let j = i;
        if (!escaped) while (j < n && chunk.charCodeAt(j) !== 92 && chunk[j] !== quote) j++;
        if (j > i) {
          value += chunk.slice(i, j);
          i = j;
          continue;
        }
        const c = chunk[i] as string;
        i++;
        if (escaped) {
          value += ESCAPES[c] ?? c;
          escaped = false;
        } else if (c === "\\") escaped = true;
        else {
          inString = false;
          closedBy = c;
        }
        continue;
      }
      const c = chunk[i] as string;
      i++;
      if (mode === "values") {
        if (closedBy) {
          const doubled = c === closedBy;
          closedBy = "";
          if (doubled) {
            value += c;
            inString = true;
            continue;
          }
        }
        if (!inTuple) {
          if (c === "(") {
            inTuple = true;
            tuple = [];
          } else if (c === ";") mode = "statement";
        } else if (c === "'" || (c === '"' && value.trim() === "")) {
          // `_binary'…'` and `_utf8mb4'…'`: the introducer is dropped, the string kept.
          inString = true;
          hadString = true;
          quote = c;
          value = "";
        } else if (c === ",") endValue();
        else if (c === ")") {
          endValue();
          inTuple = false;
          pending.push({ kind: "row", table, columns, values: tuple });
        } else if (!hadString) value += c;
        continue;
      }
      if (mode === "line-comment") {
        if (c === "\n") mode = "statement";
        continue;
      }
      if (mode === "block-comment") {
        if (lastWasStar && c === "/") mode = "statement";
        lastWasStar = c === "*";
        continue;
      }
      if (mode === "quoted") {
        head += c;
        if (escaped) escaped = false;
        else if (c === "\\" && quote !== "`") escaped = true;
        else if (c === quote) mode = "statement";
        continue;
      }
      // Statement text. Two-character openers are found looking back at `head`, which outlives the chunk.
      if (c === "'" || c === '"' || c === "`") {
        mode = "quoted";
        quote = c;
        head += c;
      } else if (c === "#" && head.trim() === "") mode = "line-comment";
      else if (c === "-" && head.trim() === "-") {
        head = "";
        mode = "line-comment";
      } else if (c === "*" && head.endsWith("/")) {
        // Conditional comments (`/*!40101 SET … */`) only set session variables: skipped like any comment.
        head = head.slice(0, -1);
        mode = "block-comment";
        lastWasStar = false;
      } else if (c === ";") endStatement();
      else if (c === "(" && /VALUES\s*$/i.test(head)) {
        const insert = INSERT_HEAD.exec(head.trim());
        head = "";
        if (insert) {
          mode = "values";
          table = insert[2] as string;
          columns = insert[3] ? identifiers(insert[3]) : (tables.get(table) ?? null);
          inTuple = true;
          tuple = [];
          value = "";
          hadString = false;
        }
      } else head += c;
    }
    if (pending.length > 0) {
      yield* pending;
      pending = [];
    }
  }
  if (head.trim()) endStatement();
  yield* pending;
}

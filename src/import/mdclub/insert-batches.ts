/**
 * Mapped rows written as multi-row `INSERT OR IGNORE`s within D1's limits: rows of one table and one column list
 * share a statement up to D1's size limit, statements go to the target in groups (one round trip and one
 * transaction each), and a row too long for any statement is written in pieces. Every statement is literal SQL, so
 * the CLI's `--remote` path can carry it in a file too.
 */
import { literal, type SqlValue, type Statement } from "../../lib/sql-text";
import type { ImportTarget } from "./import-target";
import type { Row } from "./tables";

/** D1 refuses an SQL text over 100 KB; a UTF-16 unit is at most 3 bytes of UTF-8. */
const MAX_STATEMENT_UNITS = 30_000;
/** Statements per round trip: each batch is one transaction. */
const BATCH_STATEMENTS = 50;
/** The part of a long text that goes into one statement. */
const TEXT_PIECE = 8_000;

/** Rows of one target table waiting to be written as multi-row INSERTs. */
class Pending {
  rows: string[] = [];
  units = 0;
  constructor(
    readonly table: string,
    readonly columns: readonly string[],
  ) {}
  get head() {
    return `INSERT OR IGNORE INTO "${this.table}" (${this.columns.map((c) => `"${c}"`).join(", ")}) VALUES `;
  }
}

/** Text cut into pieces, never between the two halves of an emoji (a UTF-16 surrogate pair). */
function pieces(text: string): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; ) {
    let end = Math.min(at + TEXT_PIECE, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    out.push(text.slice(at, end));
    at = end;
  }
  return out;
}

/**
 * A row too long for one statement (a long article): inserted with the first piece of each long text, then the rest
 * appended piece by piece, each statement within D1's size limit. The row is found again by its first column, its
 * id (or an image's key).
 */
function longRow(rows: Pending, values: SqlValue[]): Statement[] {
  const [idColumn] = rows.columns;
  const id = literal(values[0] ?? null);
  const appends: Statement[] = [];
  const first = values.map((value, i) => {
    if (typeof value !== "string" || value.length <= TEXT_PIECE) return value;
    const column = rows.columns[i] as string;
    const [head = "", ...rest] = pieces(value);
    for (const piece of rest) {
      appends.push({
        sql: `UPDATE "${rows.table}" SET "${column}" = "${column}" || ${literal(piece)} WHERE "${idColumn}" = ${id}`,
        params: [],
      });
    }
    return head;
  });
  return [{ sql: `${rows.head}(${first.map(literal).join(", ")})`, params: [] }, ...appends];
}

export class InsertBatches {
  private readonly pending = new Map<string, Pending>();
  private queue: Statement[] = [];

  /** `onSent` is called after each group of statements reaches the target. */
  constructor(
    private readonly target: ImportTarget,
    private readonly onSent: () => void = () => {},
  ) {}

  async write(table: string, row: Row): Promise<void> {
    const columns = Object.keys(row);
    const key = `${table}:${columns.join(",")}`;
    let rows = this.pending.get(key);
    if (!rows) {
      rows = new Pending(table, columns);
      this.pending.set(key, rows);
    }
    const values = columns.map((column) => row[column] ?? null);
    const text = `(${values.map(literal).join(", ")})`;
    if (text.length + rows.head.length > MAX_STATEMENT_UNITS) {
      await this.enqueue(...longRow(rows, values));
      return;
    }
    if (rows.units + text.length + rows.head.length > MAX_STATEMENT_UNITS) await this.flushTable(rows);
    rows.rows.push(text);
    rows.units += text.length + 2;
  }

  /** Closes every table's open statement; the statements stay queued until {@link send} or a full group. */
  async flushTables(): Promise<void> {
    for (const rows of this.pending.values()) await this.flushTable(rows);
  }

  /** Sends whatever is queued. */
  async send(): Promise<void> {
    if (this.queue.length === 0) return;
    const statements = this.queue;
    this.queue = [];
    await this.target.execute(statements);
    this.onSent();
  }

  private async flushTable(rows: Pending): Promise<void> {
    if (rows.rows.length === 0) return;
    const statement = { sql: rows.head + rows.rows.join(", "), params: [] };
    rows.rows = [];
    rows.units = 0;
    await this.enqueue(statement);
  }

  private async enqueue(...statements: Statement[]): Promise<void> {
    this.queue.push(...statements);
    if (this.queue.length >= BATCH_STATEMENTS) await this.send();
  }
}

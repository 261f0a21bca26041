/** The statistics queries: one statement per requested key, so a whole request fits in one batch. */
import { and, count, eq, gte, lt, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "../../db/client";
import { answers, articles, comments, questions, users } from "../../db/schema";
import { DAY_SECONDS, type DayRange } from "./dates";
import type { CountedKind } from "./schema";

interface Counted {
  table: SQLiteTable;
  createTime: SQLiteColumn;
  /**
   * What the totals count; the per-day series count every row, trashed ones too
   * (docs/stats-captcha-mail.md#statistics).
   */
  live?: SQL;
}

const counted: Record<CountedKind, Counted> = {
  // Disabled users still count: the total is of accounts, not of active ones.
  user: { table: users, createTime: users.create_time },
  question: { table: questions, createTime: questions.create_time, live: eq(questions.delete_time, 0) },
  article: { table: articles, createTime: articles.create_time, live: eq(articles.delete_time, 0) },
  answer: { table: answers, createTime: answers.create_time, live: eq(answers.delete_time, 0) },
  comment: { table: comments, createTime: comments.create_time, live: eq(comments.delete_time, 0) },
};

export const selectTotal = (db: Db, kind: CountedKind) => {
  const { table, live } = counted[kind];
  return db.select({ count: count() }).from(table).where(live);
};

/**
 * Rows created per UTC day of the range, days with none left out. SQLite's `date(…, 'unixepoch')` is UTC (no
 * 'localtime' modifier), and gives the same `YYYY-MM-DD` the response uses.
 */
export const selectPerDay = (db: Db, kind: CountedKind, range: DayRange) => {
  const { table, createTime } = counted[kind];
  const day = sql<string>`date(${createTime}, 'unixepoch')`;
  return db
    .select({ date: day, count: count() })
    .from(table)
    .where(and(gte(createTime, range.first * DAY_SECONDS), lt(createTime, (range.last + 1) * DAY_SECONDS)))
    .groupBy(day);
};

/**
 * A statement for D1 to report the database's size on (every result's `meta.size_after`, db/client.ts): D1's
 * authorizer allows `PRAGMA page_size` but refuses `page_count`, so the size comes from the meta, not from SQL.
 */
export const sizeReport = (db: Db) => db.all(sql`PRAGMA page_size`);

/**
 * Every counter set from the imported rows, with the differences from the dump's own counters reported
 * (docs/migrating-from-mdclub.md). Differences are counted first, per counter, as rows whose dumped value was wrong.
 * The copies of each item's columns on its topic links (drizzle/0007), the topics' counts (drizzle/0008) and the
 * site totals (drizzle/0005) are kept by triggers that the rows' order in the dump may have fed wrongly: they are set
 * afresh from the rows, as those migrations set them.
 */
import { count, eq, getTableName, type SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { countDiffering, everyCounter, recountEvery } from "../../behaviours/counters";
import { liveRows } from "../../behaviours/live";
import { backgroundDb } from "../../db/client";
import { siteTotals, users } from "../../db/schema";
import { entities } from "../../domain/entities";
import type { SqlValue, Statement } from "../../lib/sql-text";
import type { ImportTarget } from "./import-target";
import type { CounterDifference } from "./report";

/** Topic id -> its question and article counts as the dump had them. */
export type DumpedTopicCounts = Map<number, [number, number]>;

const db = backgroundDb({} as D1Database);
/** A Drizzle statement as SQL for any target (every statement built here has `toSQL`). */
const sqlOf = (query: object): Statement => {
  const { sql, params } = (query as { toSQL(): { sql: string; params: unknown[] } }).toSQL();
  return { sql, params: params as SqlValue[] };
};

/** The topic links' copies of their items' columns, and the topics' counts from the links. */
function topicLinkStatements(): Statement[] {
  const statements: Statement[] = [];
  for (const kind of ["question", "article"] as const) {
    const table = `${kind}s`;
    const item = (column: string) =>
      `coalesce((SELECT "${column}" FROM "${table}" WHERE "${kind}_id" = "topicables"."topicable_id"), 0)`;
    statements.push({
      sql: `UPDATE "topicables" SET "item_delete_time" = ${item("delete_time")},
        "item_update_time" = ${item("update_time")},
        "item_create_time" = ${item("create_time")}, "item_vote_count" = ${item("vote_count")}
        WHERE "topicable_type" = '${kind}'`,
      params: [],
    });
    statements.push({
      sql: `UPDATE "topics" SET "${kind}_count" = (SELECT count(*) FROM "topicables" WHERE "topicables"."topic_id" =
        "topics"."topic_id" AND "topicable_type" = '${kind}' AND "item_delete_time" = 0)`,
      params: [],
    });
  }
  return statements;
}

/** Each kind's live rows as its list counts them (the entity model's trash column; users: not disabled). */
function siteTotalStatements(): Statement[] {
  const totals: [string, SQLiteTable, SQL | undefined][] = [
    ...(["question", "answer", "article", "comment", "topic"] as const).map(
      (kind) => [kind, entities[kind].table, liveRows(entities[kind])] as [string, SQLiteTable, SQL | undefined],
    ),
    ["user", users, eq(users.disable_time, 0)],
  ];
  return totals.map(([kind, table, live]) => {
    const rows = db.select({ n: count() }).from(table).where(live);
    return sqlOf(
      db
        .update(siteTotals)
        .set({ live: sql`${rows}` })
        .where(eq(siteTotals.kind, kind)),
    );
  });
}

/** Sets every counter from the imported rows and says which the dump had wrong. */
export async function recountAll(target: ImportTarget, dumpedTopicCounts: DumpedTopicCounts) {
  const statements = [...topicLinkStatements(), ...siteTotalStatements()];
  const differences: CounterDifference[] = [];
  for (const counter of everyCounter()) {
    const name = `${getTableName(counter.owner.table)}.${Object.keys(counter.columns).join("/")}`;
    // Drizzle names the count's column by its SQL, not by the key given to it: read the row's one value.
    const [row] = await target.query<Record<string, number>>(sqlOf(countDiffering(db, counter)));
    const rows = Number(Object.values(row ?? {})[0] ?? 0);
    if (rows > 0) differences.push({ counter: name, rows });
    statements.push(sqlOf(recountEvery(db, counter)));
  }
  await target.execute(statements);
  return [...differences, ...(await topicCountDifferences(target, dumpedTopicCounts))];
}

/** The topics' counts come from triggers (drizzle/0008), not from a counter: compared with the dump's after. */
async function topicCountDifferences(target: ImportTarget, dumped: DumpedTopicCounts): Promise<CounterDifference[]> {
  const topics = await target.query<{ topic_id: number; question_count: number; article_count: number }>({
    sql: `SELECT "topic_id", "question_count", "article_count" FROM "topics"`,
    params: [],
  });
  let questionCounts = 0;
  let articleCounts = 0;
  for (const topic of topics) {
    const [questions, articles] = dumped.get(topic.topic_id) ?? [0, 0];
    if (questions !== topic.question_count) questionCounts++;
    if (articles !== topic.article_count) articleCounts++;
  }
  const differences: CounterDifference[] = [];
  if (questionCounts) differences.push({ counter: "topics.question_count", rows: questionCounts });
  if (articleCounts) differences.push({ counter: "topics.article_count", rows: articleCounts });
  return differences;
}

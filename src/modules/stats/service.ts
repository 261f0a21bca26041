/**
 * GET /stats (docs/stats-captcha-mail.md#statistics): every requested count in one `db.batch()`, so the route costs at
 * most two D1 round trips with authentication, whatever `include` names.
 */
import { batch, type Db, readAs, reportedDatabaseSize } from "../../db/client";
import { type DayRange, daysOf } from "./dates";
import { selectPerDay, selectTotal, sizeReport } from "./repo";
import { type CountedKind, type DayCount, STAT_NAMES, type StatName, type Stats } from "./schema";
import { systemInfo } from "./system-info";

type CountName = Exclude<StatName, "system_info">;

/** `total_user` -> ["total", "user"]: every counted name is a measure and a kind. */
const split = (name: CountName) => name.split("_") as ["total" | "new", CountedKind];

/** The grouped rows spread over every day of the range, 0 where no row was created. */
function fillDays(range: DayRange, rows: DayCount[]): DayCount[] {
  const byDate = new Map(rows.map((row) => [row.date, row.count]));
  return daysOf(range).map((date) => ({ date, count: byDate.get(date) ?? 0 }));
}

/** The requested keys only, in the reference's order; `range` bounds the `new_*` series. */
export async function loadStats(db: Db, include: Set<StatName>, range: DayRange): Promise<Stats> {
  const counts = STAT_NAMES.filter((name): name is CountName => name !== "system_info" && include.has(name));
  const withSystem = include.has("system_info");
  const stats: Stats = {};
  // Each read sets its own key once the batch is in, in the reference's order.
  await batch(db, [
    withSystem ? sizeReport(db) : null,
    ...counts.map((name) => {
      const [measure, kind] = split(name);
      return measure === "total"
        ? readAs(selectTotal(db, kind), ([row]) => {
            stats[`total_${kind}` as const] = row?.count ?? 0;
          })
        : readAs(selectPerDay(db, kind, range), (rows) => {
            stats[`new_${kind}` as const] = fillDays(range, rows);
          });
    }),
  ]);
  return withSystem ? { system_info: systemInfo(reportedDatabaseSize(db)), ...stats } : stats;
}

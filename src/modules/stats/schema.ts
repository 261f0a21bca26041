/** Zod schemas of GET /stats (docs/stats-captcha-mail.md#statistics): the query and the statistics object. */
import { includeQuery, z } from "../../http/openapi";

/** What the statistics count; each has a total and a per-day series. */
const COUNTED_KINDS = ["user", "question", "article", "answer", "comment"] as const;
export type CountedKind = (typeof COUNTED_KINDS)[number];

export type StatName = "system_info" | `total_${CountedKind}` | `new_${CountedKind}`;

/** The reference's names, in the reference's order: data keys come out in this order. */
export const STAT_NAMES = [
  "system_info",
  "total_user",
  "total_question",
  "total_article",
  "total_answer",
  "total_comment",
  "new_user",
  "new_question",
  "new_article",
  "new_answer",
  "new_comment",
] as const satisfies readonly StatName[];

const dateParam = (description: string) =>
  z
    .string()
    .optional()
    .openapi({
      description: `${description}; YYYY-MM-DD (UTC), month and day may drop the leading zero`,
      example: "2020-05-12",
    });

export const StatsQuery = z.object({
  include: includeQuery(STAT_NAMES),
  start_date: dateParam("first day of the new_* series, included; default: 6 days before end_date"),
  end_date: dateParam("last day of the new_* series, included; default: today; at most 366 days after start_date"),
});

const DayCountSchema = z
  .object({ date: z.string().openapi({ example: "2020-05-12" }), count: z.number().int() })
  .openapi("DayCount");

/** MDClub's dashboard fields: what stands in for each on Workers (docs/stats-captcha-mail.md#system-information). */
const dashboard = (description: string) => z.string().openapi({ description });

export const SystemInfoSchema = z
  .object({
    mdclub_version: dashboard("this API's name and version, in place of MDClub's"),
    os_version: dashboard("the runtime: Workers expose no operating system"),
    php_version: dashboard("`none`: no PHP runs"),
    webserver_version: dashboard("the runtime and the HTTP framework"),
    database_version: dashboard("Cloudflare D1 (SQLite); D1 does not tell its SQLite release"),
    upload_max_filesize: dashboard("the largest file an upload route takes, e.g. `5 MiB`"),
    max_execution_time: dashboard("the CPU time a request may use"),
    disk_free_space: dashboard("no local disk: where files and data go instead"),
    database_size: dashboard("the D1 database's size as D1 reports it (`meta.size_after`), e.g. `352 KiB`"),
    version: z.string(),
    runtime: z.string(),
    database: z.string(),
    storage: z.string(),
    cache: z.string(),
  })
  .openapi("SystemInfo", {
    description: "This deployment's platform: the nine fields MDClub's admin dashboard reads, then this API's own.",
  });

export type SystemInfo = z.infer<typeof SystemInfoSchema>;

const total = (description: string) => z.number().int().optional().openapi({ description });
const perDay = (what: string, hidden = "trashed") =>
  z
    .array(DayCountSchema)
    .optional()
    .openapi({ description: `${what} created on each UTC day of the range, ${hidden} ones included, 0-filled` });

export const StatsSchema = z
  .object({
    system_info: SystemInfoSchema.optional(),
    total_user: total("users, disabled ones included"),
    total_question: total("questions not in the trash"),
    total_article: total("articles not in the trash"),
    total_answer: total("answers not in the trash"),
    total_comment: total("comments and replies not in the trash"),
    new_user: perDay("users", "disabled"),
    new_question: perDay("questions"),
    new_article: perDay("articles"),
    new_answer: perDay("answers"),
    new_comment: perDay("comments and replies"),
  })
  .openapi("Stats", { description: "Only the keys named in `include` are present." });

export type Stats = z.infer<typeof StatsSchema>;
export type DayCount = z.infer<typeof DayCountSchema>;

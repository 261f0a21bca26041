/**
 * GET /api/stats (docs/stats-captcha-mail.md#statistics, docs/decisions.md#statistics-use-utc-days;
 * docs/decisions.md#platform: UTC days): totals and per-day series against rows created on chosen UTC days, the date
 * parameters, access and the round-trip budget.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { formatBytes } from "../src/lib/bytes";
import { MAX_RANGE_DAYS, parseDay, resolveRange } from "../src/modules/stats/dates";
import { get } from "./helpers/api";
import { createAnswer, createArticle, createComment, createQuestion } from "./helpers/content";
import { createAdmin, createUser } from "./helpers/factories";

const ALL =
  "system_info,total_user,total_question,total_article,total_answer,total_comment,new_user,new_question,new_article,new_answer,new_comment";

/** Unix seconds of an ISO time (UTC). */
const at = (iso: string) => Date.parse(iso) / 1000;
const isoDay = (time: number) => new Date(time * 1000).toISOString().slice(0, 10);

const stats = (token: string | undefined, query: Record<string, string> = {}) => get("/api/stats", { token, query });

async function adminToken(): Promise<string> {
  return (await createAdmin()).token;
}

interface Kind {
  name: "user" | "question" | "article" | "answer" | "comment";
  /** One row created at `time`; `hidden` trashes it (a user is disabled instead). */
  create(time: number, hidden: boolean): Promise<unknown>;
}

/** Parents (a question for answers, an article for comments) are created now, outside the tested range. */
const kinds: Kind[] = [
  { name: "user", create: (time, hidden) => createUser({ create_time: time, disabled: hidden }) },
  {
    name: "question",
    create: async (time, hidden) =>
      createQuestion((await createUser()).user_id, { create_time: time, delete_time: hidden ? time + 1 : 0 }),
  },
  {
    name: "article",
    create: async (time, hidden) =>
      createArticle((await createUser()).user_id, { create_time: time, delete_time: hidden ? time + 1 : 0 }),
  },
  {
    name: "answer",
    create: async (time, hidden) => {
      const author = (await createUser()).user_id;
      return createAnswer(author, await createQuestion(author), {
        create_time: time,
        delete_time: hidden ? time + 1 : 0,
      });
    },
  },
  {
    name: "comment",
    create: async (time, hidden) => {
      const author = (await createUser()).user_id;
      return createComment(author, "article", await createArticle(author), {
        create_time: time,
        delete_time: hidden ? time + 1 : 0,
      });
    },
  },
];

describe.each(kinds)("GET /api/stats: total_$name and new_$name", (kind) => {
  /** Two just outside 2024-02-27..2024-03-02, four inside on both sides of midnight, one of them hidden. */
  async function seed(): Promise<void> {
    await kind.create(at("2024-02-26T23:59:59Z"), false);
    await kind.create(at("2024-02-28T23:59:59Z"), false);
    await kind.create(at("2024-02-29T00:00:00Z"), false);
    await kind.create(at("2024-02-29T12:00:00Z"), true);
    await kind.create(at("2024-03-01T00:00:00Z"), false);
    await kind.create(at("2024-03-03T00:00:00Z"), false);
  }

  it("buckets rows by UTC day, trashed ones included, and fills the other days with 0", async () => {
    const token = await adminToken();
    await seed();
    const res = await stats(token, { include: `new_${kind.name}`, start_date: "2024-02-27", end_date: "2024-03-02" });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body.data).toEqual({
      [`new_${kind.name}`]: [
        { date: "2024-02-27", count: 0 },
        { date: "2024-02-28", count: 1 },
        { date: "2024-02-29", count: 2 },
        { date: "2024-03-01", count: 1 },
        { date: "2024-03-02", count: 0 },
      ],
    });
  });

  it(
    kind.name === "user" ? "counts every user in the total, disabled ones too" : "leaves trashed rows out of the total",
    async () => {
      const token = await adminToken();
      await seed();
      const res = await stats(token, { include: `total_${kind.name}` });
      expect(res.status).toBe(200);
      // Users: the six seeded (one disabled) and the administrator; the others: the five live rows.
      expect(res.body.data).toEqual({ [`total_${kind.name}`]: kind.name === "user" ? 7 : 5 });
    },
  );
});

describe("GET /api/stats", () => {
  it("answers every key with every include, in at most 2 D1 round trips with authentication", async () => {
    const token = await adminToken();
    const author = await createUser();
    const question = await createQuestion(author.user_id);
    await createAnswer(author.user_id, question);
    await createComment(author.user_id, "question", question);
    await createArticle(author.user_id, { delete_time: at("2024-01-01T00:00:00Z") });
    const res = await stats(token, { include: ALL });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data)).toEqual(ALL.split(","));
    expect(res.body.data).toMatchObject({
      total_user: 2,
      total_question: 1,
      total_article: 0,
      total_answer: 1,
      total_comment: 1,
    });
    const today = res.body.data.new_question.at(-1);
    expect(today).toEqual({ date: expect.any(String), count: 1 });
    expect(res.body.data.new_article.at(-1).count).toBe(1);
    expect(res.roundTrips).toBeLessThanOrEqual(1);
  });

  it("answers only the requested keys, ignoring unknown names", async () => {
    const token = await adminToken();
    const res = await stats(token, { include: "total_user,bogus,new_comment" });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(["new_comment", "total_user"]);
  });

  it("answers {} when nothing is requested, without querying beyond authentication", async () => {
    const token = await adminToken();
    const res = await stats(token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ code: 0, data: {} });
    expect(res.roundTrips).toBeLessThanOrEqual(1);
  });

  it("answers the nine fields MDClub's dashboard reads, as strings, then this API's own", async () => {
    const token = await adminToken();
    const res = await stats(token, { include: "system_info" });
    expect(res.status).toBe(200);
    const info = res.body.data.system_info as Record<string, unknown>;
    expect(Object.keys(info)).toEqual([
      "mdclub_version",
      "os_version",
      "php_version",
      "webserver_version",
      "database_version",
      "upload_max_filesize",
      "max_execution_time",
      "disk_free_space",
      "database_size",
      "version",
      "runtime",
      "database",
      "storage",
      "cache",
    ]);
    expect(Object.values(info).every((value) => typeof value === "string" && value.length > 0)).toBe(true);
    expect(info).toMatchObject({
      mdclub_version: expect.stringMatching(/^mdclub-edge \d+\.\d+\.\d+/),
      php_version: "none (TypeScript on V8)",
      webserver_version: expect.stringMatching(/^Cloudflare Workers, Hono \d+\.\d+/),
      database_version: "Cloudflare D1 (SQLite)",
      upload_max_filesize: "5 MiB",
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      runtime: "Cloudflare Workers",
      database: "Cloudflare D1",
      storage: "Cloudflare R2",
      cache: "Cloudflare Workers KV",
    });
    expect(res.roundTrips).toBeLessThanOrEqual(1);
  });

  it("gives the database's size as D1 reports it, which grows with the data", async () => {
    const token = await adminToken();
    const sizeOf = async () => {
      const res = await stats(token, { include: "system_info" });
      // D1's own figure of the same moment (meta.size_after), read beside the request.
      const { meta } = await env.DB.prepare("PRAGMA page_size").run();
      return { shown: res.body.data.system_info.database_size as string, bytes: meta.size_after as number };
    };
    const before = await sizeOf();
    expect(before.shown).toBe(formatBytes(before.bytes));
    await env.DB.prepare("INSERT INTO options (name, value) VALUES ('probe_padding', ?)")
      .bind("x".repeat(400_000))
      .run();
    const after = await sizeOf();
    expect(after.bytes).toBeGreaterThan(before.bytes);
    expect(after.shown).toBe(formatBytes(after.bytes));
    expect(after.shown).not.toBe(before.shown);
  });

  it("defaults to the 7 days ending today (UTC)", async () => {
    const token = await adminToken();
    const before = isoDay(Date.now() / 1000);
    await createQuestion((await createUser()).user_id);
    const res = await stats(token, { include: "new_question" });
    const after = isoDay(Date.now() / 1000);
    expect(res.status).toBe(200);
    const series = res.body.data.new_question as { date: string; count: number }[];
    expect(series).toHaveLength(7);
    const last = series.at(-1)!;
    // A request that straddles midnight UTC may answer for either day.
    expect([before, after]).toContain(last.date);
    expect(series[0]?.date).toBe(isoDay(at(`${last.date}T00:00:00Z`) - 6 * 86400));
    expect(last.count).toBe(1);
  });

  it("takes the 7 days ending at end_date when start_date is not given", async () => {
    const token = await adminToken();
    const res = await stats(token, { include: "new_user", end_date: "2021-01-03" });
    expect(res.status).toBe(200);
    expect(res.body.data.new_user.map((d: { date: string }) => d.date)).toEqual([
      "2020-12-28",
      "2020-12-29",
      "2020-12-30",
      "2020-12-31",
      "2021-01-01",
      "2021-01-02",
      "2021-01-03",
    ]);
  });

  it("accepts dates without leading zeros, and a one-day range", async () => {
    const token = await adminToken();
    await createUser({ create_time: at("2020-05-02T10:00:00Z") });
    const res = await stats(token, { include: "new_user", start_date: "2020-5-2", end_date: "2020-05-02" });
    expect(res.status).toBe(200);
    expect(res.body.data.new_user).toEqual([{ date: "2020-05-02", count: 1 }]);
  });

  it(`accepts a range of ${MAX_RANGE_DAYS} days and refuses a longer one with 200001`, async () => {
    const token = await adminToken();
    const leapYear = await stats(token, { include: "new_article", start_date: "2024-01-01", end_date: "2024-12-31" });
    expect(leapYear.status).toBe(200);
    expect(leapYear.body.data.new_article).toHaveLength(MAX_RANGE_DAYS);
    const longer = await stats(token, { include: "new_article", start_date: "2024-01-01", end_date: "2025-01-01" });
    expect(longer.status).toBe(400);
    expect(longer.body.code).toBe(200001);
    expect(longer.body.errors).toHaveProperty("start_date");
  });

  it("refuses a start after the end with 200001", async () => {
    const token = await adminToken();
    const res = await stats(token, { include: "new_user", start_date: "2024-03-02", end_date: "2024-03-01" });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(200001);
    expect(res.body.errors).toEqual({ start_date: expect.any(String) });
  });

  it.each([
    ["start_date", "2024-02-30"],
    ["start_date", "2024-13-01"],
    ["end_date", "yesterday"],
    ["end_date", "2024/03/01"],
    ["start_date", "20240301"],
    ["end_date", "2024-03-01T00:00:00Z"],
  ])("refuses %s=%s with 200001 naming the field", async (field, value) => {
    const token = await adminToken();
    const res = await stats(token, { include: "new_user", [field]: value });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(200001);
    expect(res.body.errors).toEqual({ [field]: expect.any(String) });
  });

  it("treats an empty date as not given", async () => {
    const token = await adminToken();
    const res = await stats(token, { include: "new_user", start_date: "", end_date: "" });
    expect(res.status).toBe(200);
    expect(res.body.data.new_user).toHaveLength(7);
  });

  it("refuses an anonymous caller with 201001, before checking the dates", async () => {
    const res = await stats(undefined, { include: ALL, start_date: "bad" });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(201001);
  });

  it("refuses a user who is not an administrator with 201002", async () => {
    const user = await createUser();
    const res = await stats(user.token, { include: ALL });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(201002);
  });

  it("refuses the token of a disabled administrator with 201001", async () => {
    const admin = await createAdmin();
    await env.DB.prepare("UPDATE users SET disable_time = 1 WHERE user_id = ?").bind(admin.user_id).run();
    const res = await stats(admin.token, { include: ALL });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(201001);
  });
});

describe("stats dates", () => {
  it("parseDay reads padded and unpadded dates as UTC day numbers, and refuses impossible ones", () => {
    expect(parseDay("1970-01-01")).toBe(0);
    expect(parseDay("1970-1-2")).toBe(1);
    expect(parseDay("2024-02-29")).toBe(at("2024-02-29T00:00:00Z") / 86400);
    for (const bad of ["2023-02-29", "0099-01-01", "2024-00-10", "2024-1-32", " 2024-01-01", "2024-001-01"]) {
      expect(parseDay(bad)).toBeNull();
    }
  });

  it("resolveRange defaults the end to today and the start to 6 days before the end", () => {
    expect(resolveRange(undefined, undefined, 100)).toEqual({ first: 94, last: 100 });
    expect(resolveRange("1970-01-02", undefined, 100)).toEqual({ first: 1, last: 100 });
    expect(() => resolveRange("1970-04-12", undefined, 100)).toThrow();
  });
});

/** GET /stats (docs/stats-captcha-mail.md#statistics): site statistics for administrators. */
import { createRoute } from "@hono/zod-openapi";
import { ok } from "../../http/envelope";
import { adminRequired } from "../../http/middleware/context";
import { adminAccess, okResponse } from "../../http/openapi";
import { createRouter } from "../../http/router";
import { parseInclude } from "../../lib/include";
import { resolveRange, todayUtc } from "./dates";
import { STAT_NAMES, StatsQuery, StatsSchema } from "./schema";
import { loadStats } from "./service";

const router = createRouter();

router.openapi(
  createRoute({
    method: "get",
    path: "/stats",
    operationId: "getStats",
    tags: ["stats"],
    summary: "Site statistics (administrators)",
    description:
      "Only the keys named in `include` are present (none named: `{}`). Days are UTC. An invalid date, a start after " +
      "the end or a range over 366 days is 200001 naming the field (the original used the default silently).",
    ...adminAccess,
    middleware: [adminRequired],
    request: { query: StatsQuery },
    responses: okResponse(StatsSchema),
  }),
  async (c) => {
    const query = c.req.valid("query");
    const range = resolveRange(query.start_date, query.end_date, todayUtc());
    return ok(c, await loadStats(c.get("db"), parseInclude(query.include, STAT_NAMES), range));
  },
);

export default router;

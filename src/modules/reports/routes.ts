/**
 * Reports (spec "Report" and operation 7, docs/operations.md#reports): a user reports a question, answer, article,
 * comment or user; administrators list the reported targets, read the reports of one, and delete them.
 *
 * The spec's path segment is `{reportable_type}:{reportable_id}`. Hono cannot split one segment into two
 * parameters at a colon, so every route takes the segment as `{target}` and parses it (targets.ts), while the
 * document shows the spec's template with both parameters, as client generators must see it.
 */
import { createRoute, type RouteConfig } from "@hono/zod-openapi";
import { mdclubCompat } from "../../core/env";
import { ok, page } from "../../http/envelope";
import { laterCheckedBody, readBody } from "../../http/late-body";
import { adminRequired, loginRequired, requireUser } from "../../http/middleware/context";
import { adminAccess, authSecurity, nullResponse, okResponse, pageResponse } from "../../http/openapi";
import { createRouter } from "../../http/router";
import { viewOf } from "../../http/view";
import { parseInclude } from "../../lib/include";
import {
  GROUP_INCLUDES,
  REPORT_INCLUDES,
  ReportBody,
  ReportGroupQuery,
  ReportGroupSchema,
  ReportIncludeQuery,
  ReportPageQuery,
  ReportSchema,
  SPEC_TARGET_PATH,
  SpecTargetParams,
  TargetParam,
} from "./schema";
import { createReport, deleteReports, listReportGroups, listReportsOf } from "./service";
import { parseTarget, parseTargetList, UNKNOWN_TO_MDCLUB } from "./targets";

const router = createRouter();
const tags = ["reports"];
const path = "/reports/{target}";
const reportIncludes = (query: { include?: string }) => parseInclude(query.include, REPORT_INCLUDES);

/**
 * A route served at `/reports/{target}` and documented under SPEC_TARGET_PATH with its two parameters: the router
 * reads what Hono can match, the document shows what a client sends.
 */
function underTarget<R extends RouteConfig>(route: R, list = false): R {
  const { middleware: _served, ...documented } = route;
  const params = SpecTargetParams(list);
  router.openAPIRegistry.registerPath({ ...documented, path: SPEC_TARGET_PATH, request: { ...route.request, params } });
  return Object.assign(route, { hide: true });
}

// Body checked late: a missing target or a refusal comes before a field error (http/late-body.ts).
router.openapi(
  underTarget(
    createRoute({
      method: "post",
      path,
      operationId: "createReport",
      tags,
      summary: "Report a question, answer, article, comment, user or private message",
      description:
        "Checks, in order: the type (207002), the target, which must exist and not be trashed (202001, 203001, " +
        "206001, 204001 or 201003; a message only its sender or receiver may report, 209001 for anyone else), the " +
        "reason (200001), and that the caller has not reported it yet (207003, HTTP 409). Reporting oneself or one's " +
        "own content is allowed.",
      security: authSecurity,
      middleware: [loginRequired],
      request: {
        params: TargetParam,
        query: ReportIncludeQuery,
        body: laterCheckedBody(router, "ReportBody", ReportBody),
      },
      responses: okResponse(ReportSchema),
    }),
  ),
  async (c) => {
    const target = parseTarget(c.req.valid("param").target, "target");
    const include = reportIncludes(c.req.valid("query"));
    return ok(c, await createReport(c.get("db"), viewOf(c), requireUser(c), target, await readBody(c), include));
  },
);

router.openapi(
  createRoute({
    method: "get",
    path: "/reports",
    operationId: "listReportedItems",
    tags,
    summary: "List reported targets (administrators)",
    description:
      "One row per reported target with its reporter_count, the target reported most recently first. " +
      "`pagination.total` counts distinct targets. Each include names a type: rows of that type get its summary " +
      "under that key (null when the target is missing or trashed). Under MDCLUB_COMPAT, messages are listed only " +
      "when `reportable_type=message` asks for them.",
    ...adminAccess,
    middleware: [adminRequired],
    request: { query: ReportGroupQuery },
    responses: pageResponse(ReportGroupSchema),
  }),
  async (c) => {
    const query = c.req.valid("query");
    const include = parseInclude(query.include, GROUP_INCLUDES);
    const hidden = mdclubCompat(c.env) ? UNKNOWN_TO_MDCLUB : [];
    const result = await listReportGroups(c.get("db"), viewOf(c), query, include, hidden);
    return page(c, result.data, result.pagination);
  },
);

router.openapi(
  underTarget(
    createRoute({
      method: "get",
      path,
      operationId: "listReports",
      tags,
      summary: "List reports of a reported item (administrators)",
      description:
        "Spec operation 7: the target's reports, newest first. A target without reports is an empty page, whether it " +
        "exists or not. Includes: `reporter`, and the target's type for its summary (null when missing or trashed).",
      ...adminAccess,
      middleware: [adminRequired],
      request: { params: TargetParam, query: ReportPageQuery },
      responses: pageResponse(ReportSchema),
    }),
  ),
  async (c) => {
    const target = parseTarget(c.req.valid("param").target, "target");
    const query = c.req.valid("query");
    const result = await listReportsOf(c.get("db"), viewOf(c), target, query, reportIncludes(query));
    return page(c, result.data, result.pagination);
  },
);

router.openapi(
  underTarget(
    createRoute({
      method: "delete",
      path,
      operationId: "deleteReports",
      tags,
      summary: "Delete the reports on targets (administrators)",
      description: "Deletes every report on each target; targets without reports are no error.",
      ...adminAccess,
      middleware: [adminRequired],
      request: { params: TargetParam },
      responses: nullResponse,
    }),
    true,
  ),
  async (c) => {
    await deleteReports(c.get("db"), parseTargetList(c.req.valid("param").target, "target"));
    return ok(c, null);
  },
);

export default router;

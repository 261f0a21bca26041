/**
 * The edit history routes (docs/revisions.md) for one revisable kind: GET `/{resource}/{id}/revisions` and POST
 * `/{resource}/{id}/revisions/{revision}/restore`. Mounted by each revisable kind's module through
 * modules/capabilities.ts.
 */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { RevisionTarget } from "../../behaviours/revisable";
import type { AppEnv } from "../../http/app-env";
import { ok } from "../../http/envelope";
import { pageOf } from "../../http/list-routes";
import { loginRequired, requireUser } from "../../http/middleware/context";
import { authorAccess, includeQuery, okResponse, pageResponse, underEntity, z } from "../../http/openapi";
import { viewOf } from "../../http/view";
import { parseInclude } from "../../lib/include";
import { restorers } from "./restorers";
import { REVISION_INCLUDES, RevisionPageQuery, RevisionParam, RevisionSchema } from "./schema";
import { listRevisions } from "./service";

export function mountRevisionRoutes(router: OpenAPIHono<AppEnv>, target: RevisionTarget) {
  const { path, params, tags, noun, idOf } = underEntity(target, "revisions");
  const { restore, records } = restorers[target.type];

  router.openapi(
    createRoute({
      method: "get",
      path,
      operationId: `list${noun}Revisions`,
      tags,
      summary: `The edit history of a ${target.type}`,
      description:
        "Newest first: each edit's revision number, editor, time, and the fields it changed with their values " +
        `before and after. For whoever may read the ${target.type}: a trashed one for administrators only.`,
      request: { params, query: RevisionPageQuery },
      responses: pageResponse(RevisionSchema),
    }),
    (c) => {
      const query = c.req.valid("query");
      const include = parseInclude(query.include, REVISION_INCLUDES);
      return pageOf(c, listRevisions(c.get("db"), viewOf(c), target, idOf(c.req.valid("param")), query, include));
    },
  );

  router.openapi(
    createRoute({
      method: "post",
      path: `${path}/{revision}/restore`,
      operationId: `restore${noun}Revision`,
      tags,
      summary: `Restore an earlier revision of a ${target.type}`,
      description:
        `An edit, under the edit rules and in their order: the ${target.type} is live, the caller may edit it, then ` +
        "the revision is an earlier one still kept (210003). It sets the fields the revision held where they " +
        "differ, and is itself a new revision.",
      ...authorAccess,
      middleware: [loginRequired],
      request: {
        params: params.extend(RevisionParam.shape),
        query: z.object({ include: includeQuery(records.includes) }),
      },
      responses: okResponse(records.schema),
    }),
    async (c) => {
      const param = c.req.valid("param");
      // The item's parameter is named at run time, which widens the object to an index signature; validation
      // guarantees `revision`.
      const revision = param.revision as number;
      const include = parseInclude(c.req.valid("query").include, records.includes);
      return ok(c, await restore(c.get("db"), viewOf(c), requireUser(c), idOf(param), revision, include));
    },
  );
}

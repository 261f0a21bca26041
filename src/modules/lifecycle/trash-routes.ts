/**
 * The TRASH family and hard delete (docs/operations.md#shared-families) for one trashable kind:
 * `POST /{resource}/{ids}/trash`, `POST /{resource}/{ids}/untrash` and `DELETE /{resource}/{id}`. Mounted by each
 * trashable kind's module through modules/capabilities.ts. One route per path serves one id or a comma list of at
 * most 100 (docs/decisions.md#batch-operations-act-on-the-listed-ids); one id answers a record, a list an array.
 */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { entities, has, type TrashableKind } from "../../domain/entities";
import type { AppEnv } from "../../http/app-env";
import { ok } from "../../http/envelope";
import { adminRequired, loginRequired, requireAdmin, requireUser } from "../../http/middleware/context";
import { adminAccess, authorAccess, nullResponse, okResponse, pascal, pathIds } from "../../http/openapi";
import { viewOf } from "../../http/view";
import { parseIdList } from "../../lib/ids";
import { parseInclude } from "../../lib/include";
import { recordKinds } from "./records";
import { IncludeQuery, oneOrMany } from "./schema";
import { move, remove, type Targets } from "./service";

const isList = (raw: string) => raw.includes(",");

/** The path's ids; a list over 100 or a part that is not an id is a 200001 naming the parameter. */
const targetsOf = (type: TrashableKind, raw: string, param: string): Targets => ({
  type,
  ids: parseIdList(raw, param),
  single: !isList(raw),
});

// pathIds names its key at run time, so its type is an index signature; validation guarantees the value.
const paramOf = (params: Record<string, string | undefined>, name: string) => params[name] as string;

export function mountTrashRoutes(router: OpenAPIHono<AppEnv>, type: TrashableKind) {
  const { resource } = entities[type];
  const tags = [resource];
  // Kinds without an author (topics) are deleted by administrators only.
  const authored = has(type, "author");
  const ids = `${type}_ids`;

  for (const action of ["trash", "untrash"] as const) {
    router.openapi(
      createRoute({
        method: "post",
        path: `/${resource}/{${ids}}/${action}`,
        operationId: `${action}${pascal(resource)}`,
        tags,
        summary:
          action === "trash"
            ? `Move ${resource} to the trash (administrators)`
            : `Take ${resource} out of the trash (administrators)`,
        description:
          (action === "trash"
            ? `Sets delete_time on the listed live ${resource}; counters stop counting them.`
            : `Sets delete_time back to 0 on the listed trashed ${resource}; counters count them again.`) +
          " One id answers the record (its not-found code when it is missing or " +
          `${action === "trash" ? "already trashed" : "not trashed"});` +
          " a comma list (at most 100) answers an array of the records acted on, skipping the others." +
          (type === "topic" && action === "untrash"
            ? " A topic whose name a live topic has taken stays in the trash (one id: 200001)."
            : ""),
        ...adminAccess,
        middleware: [adminRequired],
        request: { params: pathIds(ids), query: IncludeQuery(type) },
        responses: okResponse(oneOrMany(type)),
      }),
      async (c) => {
        const targets = targetsOf(type, paramOf(c.req.valid("param"), ids), ids);
        const include = parseInclude(c.req.valid("query").include, recordKinds[type].includes);
        return ok(c, await move(c.get("db"), viewOf(c), requireAdmin(c), action, targets, include));
      },
    );
  }

  // The single-item path: it shares `/{resource}/{x_id}` with GET and PATCH, as OpenAPI forbids two templated
  // paths that differ only in a parameter's name.
  const id = `${type}_id`;
  router.openapi(
    createRoute({
      method: "delete",
      path: `/${resource}/{${id}}`,
      operationId: `delete${pascal(type)}`,
      tags,
      summary: `Delete ${resource} for good`,
      description:
        "Removes the rows with everything attached to them (votes, reports, follows, topic links, comments with " +
        "their replies, a question's answers) and recounts the counters they fed. " +
        (authored
          ? "One id: its author under the site's delete rules, or an administrator " +
            "(who may also delete a trashed one). "
          : `Administrators only; a missing ${type} is not an error. `) +
        "A comma list (at most 100, administrators only) deletes the ones found and never fails.",
      ...(authored ? authorAccess : adminAccess),
      middleware: [authored ? loginRequired : adminRequired],
      request: { params: pathIds(id) },
      responses: nullResponse,
    }),
    async (c) => {
      const raw = paramOf(c.req.valid("param"), id);
      // Access before validation: a list is for administrators whatever it holds.
      const caller = isList(raw) ? requireAdmin(c) : requireUser(c);
      const files = { bucket: c.env.BUCKET, waitUntil: (work: Promise<unknown>) => c.executionCtx.waitUntil(work) };
      await remove(c.get("db"), caller, viewOf(c), targetsOf(type, raw, id), files);
      return ok(c, null);
    },
  );
}

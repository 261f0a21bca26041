/**
 * The bookmark routes (docs/operations.md#bookmarks) for one bookmarkable kind: PUT and DELETE
 * `/{resource}/{id}/bookmark`. Mounted by each bookmarkable kind's module through modules/capabilities.ts.
 */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { type BookmarkTarget, bookmark, unbookmark } from "../../behaviours/bookmarkable";
import type { AppEnv } from "../../http/app-env";
import { ok } from "../../http/envelope";
import { loginRequired, requireUser } from "../../http/middleware/context";
import { authSecurity, nullResponse, okResponse, underEntity } from "../../http/openapi";
import { BookmarkSchema } from "./schema";

export function mountBookmarkRoutes(router: OpenAPIHono<AppEnv>, target: BookmarkTarget) {
  const { path, params, tags, noun, idOf } = underEntity(target, "bookmark");

  router.openapi(
    createRoute({
      method: "put",
      path,
      operationId: `bookmark${noun}`,
      tags,
      summary: `Bookmark a ${target.type}`,
      description:
        `The ${target.type} must be live. Bookmarking it again changes nothing (the bookmark keeps its time). ` +
        "Bookmarks are the caller's own: nobody else sees them, and nobody is notified.",
      security: authSecurity,
      middleware: [loginRequired],
      request: { params },
      responses: okResponse(BookmarkSchema),
    }),
    async (c) => ok(c, await bookmark(c.get("db"), target, requireUser(c).user_id, idOf(c.req.valid("param")))),
  );

  router.openapi(
    createRoute({
      method: "delete",
      path,
      operationId: `unbookmark${noun}`,
      tags,
      summary: `Remove one's bookmark of a ${target.type}`,
      description: `The ${target.type} must be live; removing no bookmark changes nothing.`,
      security: authSecurity,
      middleware: [loginRequired],
      request: { params },
      responses: nullResponse,
    }),
    async (c) => {
      await unbookmark(c.get("db"), target, requireUser(c).user_id, idOf(c.req.valid("param")));
      return ok(c, null);
    },
  );
}

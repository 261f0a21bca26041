/** The caller's bookmarks (docs/operations.md#bookmarks); the bookmark writes are mounted per kind (capabilities). */
import { createRoute } from "@hono/zod-openapi";
import { pageOf } from "../../http/list-routes";
import { loginRequired, requireUser } from "../../http/middleware/context";
import { authSecurity, pageResponse } from "../../http/openapi";
import { createRouter } from "../../http/router";
import { viewOf } from "../../http/view";
import { BookmarkedItemSchema, BookmarkPageQuery } from "./schema";
import { listBookmarks } from "./service";

const router = createRouter();

router.openapi(
  createRoute({
    method: "get",
    path: "/user/bookmarks",
    operationId: "listMyBookmarks",
    tags: ["users"],
    summary: "The caller's bookmarks",
    description:
      "Newest bookmark first, questions, answers and articles together (`type` for one kind), each with its record " +
      "under the key `bookmarkable_type` names, with that kind's `include` names. Trashed items are left out.",
    security: authSecurity,
    middleware: [loginRequired],
    request: { query: BookmarkPageQuery },
    responses: pageResponse(BookmarkedItemSchema),
  }),
  (c) => pageOf(c, listBookmarks(c.get("db"), viewOf(c), requireUser(c), c.req.valid("query"))),
);

export default router;

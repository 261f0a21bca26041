/**
 * Comments (docs/operations.md#comments): one comment, its edit, the administrators' list, a user's comments, and the
 * routes of a comment's capabilities (voters, replies, trash and delete: modules/capabilities.ts). The COMMENTS
 * family on other kinds is built in commentable-routes.ts and mounted by their modules.
 */
import { createRoute } from "@hono/zod-openapi";
import { ok } from "../../http/envelope";
import { laterCheckedBody, readBody } from "../../http/late-body";
import { pageOf, userListRoutes } from "../../http/list-routes";
import { adminRequired, loginRequired, requireUser } from "../../http/middleware/context";
import { adminAccess, authorAccess, okResponse, pageResponse, pathId } from "../../http/openapi";
import { createRouter } from "../../http/router";
import { viewOf } from "../../http/view";
import { parseInclude } from "../../lib/include";
import { mountCapabilities } from "../capabilities";
import {
  COMMENT_INCLUDES,
  CommentEditBody,
  CommentIncludeQuery,
  CommentListQuery,
  CommentPageQuery,
  CommentSchema,
} from "./schema";
import { editComment, getComment, listComments, listUserComments } from "./service";

const router = createRouter();
const tags = ["comments"];
const CommentIdParam = pathId("comment_id");
const includeOf = (query: { include?: string }) => parseInclude(query.include, COMMENT_INCLUDES);

router.openapi(
  createRoute({
    method: "get",
    path: "/comments",
    operationId: "listComments",
    tags,
    summary: "List comments (administrators)",
    description: "Filters combine; `trashed=true` lists only the trash. Default order `-create_time`.",
    ...adminAccess,
    middleware: [adminRequired],
    request: { query: CommentListQuery },
    responses: pageResponse(CommentSchema),
  }),
  (c) => {
    const query = c.req.valid("query");
    return pageOf(c, listComments(c.get("db"), viewOf(c), query, includeOf(query)));
  },
);

router.openapi(
  createRoute({
    method: "get",
    path: "/comments/{comment_id}",
    operationId: "getComment",
    tags,
    summary: "A comment",
    description: "Administrators can read a trashed comment (with `delete_time`); others get 204001.",
    request: { params: CommentIdParam, query: CommentIncludeQuery },
    responses: okResponse(CommentSchema),
  }),
  async (c) =>
    ok(c, await getComment(c.get("db"), viewOf(c), c.req.valid("param").comment_id, includeOf(c.req.valid("query")))),
);

// Body checked late: a missing target or a refusal comes before a field error (http/late-body.ts).
router.openapi(
  createRoute({
    method: "patch",
    path: "/comments/{comment_id}",
    operationId: "updateComment",
    tags,
    summary: "Edit a comment",
    description:
      "The comment must be live (204001); then the author rule (204002-204004) applies, then the body is validated.",
    ...authorAccess,
    middleware: [loginRequired],
    request: {
      params: CommentIdParam,
      query: CommentIncludeQuery,
      body: laterCheckedBody(router, "CommentEdit", CommentEditBody),
    },
    responses: okResponse(CommentSchema),
  }),
  async (c) => {
    const include = includeOf(c.req.valid("query"));
    return ok(
      c,
      await editComment(
        c.get("db"),
        viewOf(c),
        requireUser(c),
        c.req.valid("param").comment_id,
        await readBody(c),
        include,
      ),
    );
  },
);

const userComments = userListRoutes({
  name: "comments",
  summaries: { user: "A user's comments and replies", caller: "The caller's comments and replies" },
  description: "Live ones only. Default order `-create_time`.",
  query: CommentPageQuery,
  item: CommentSchema,
  load: (db, view, userId, query) => listUserComments(db, view, userId, query, includeOf(query)),
});
router.openapi(userComments.ofUser, userComments.handler);
router.openapi(userComments.ofCaller, userComments.handler);

mountCapabilities(router, "comment");

export default router;

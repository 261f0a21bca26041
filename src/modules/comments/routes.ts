/**
 * Comments (behaviour.md 3.4): one comment, its edit, the administrators' list, a user's comments, and the
 * COMMENTS family (behaviours/commentable) on questions, answers, articles and, as replies, on comments.
 */
import { createRoute } from "@hono/zod-openapi";
import { createRouter } from "../../app-router";
import { commentTargets, mountCommentRoutes } from "../../behaviours/commentable";
import { ok } from "../../lib/envelope";
import { parseInclude } from "../../lib/include";
import { laterCheckedBody, readBody } from "../../lib/late-body";
import { mountList, mountUserList } from "../../lib/list-routes";
import { authorAccess, okResponse, pathId } from "../../lib/openapi";
import { viewOf } from "../../lib/view";
import { adminRequired, loginRequired, requireUser } from "../../middleware/context";
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

for (const target of Object.values(commentTargets)) mountCommentRoutes(router, target);

mountList(router, {
  path: "/comments",
  tags,
  summary: "List comments (administrators)",
  description: "Filters combine; `trashed=true` lists only the trash. Default order `-create_time`.",
  access: adminRequired,
  query: CommentListQuery,
  item: CommentSchema,
  load: (db, view, query) => listComments(db, view, query, includeOf(query)),
});

router.openapi(
  createRoute({
    method: "get",
    path: "/comments/{comment_id}",
    tags,
    summary: "A comment",
    description: "Administrators can read a trashed comment (with `delete_time`); others get 204001.",
    request: { params: CommentIdParam, query: CommentIncludeQuery },
    responses: okResponse(CommentSchema),
  }),
  async (c) =>
    ok(c, await getComment(c.get("db"), viewOf(c), c.req.valid("param").comment_id, includeOf(c.req.valid("query")))),
);

router.openapi(
  createRoute({
    method: "patch",
    path: "/comments/{comment_id}",
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

mountUserList(router, {
  name: "comments",
  summaries: { user: "A user's comments and replies", caller: "The caller's comments and replies" },
  description: "Live ones only. Default order `-create_time`.",
  query: CommentPageQuery,
  item: CommentSchema,
  load: (db, view, userId, query) => listUserComments(db, view, userId, query, includeOf(query)),
});

export default router;

/**
 * Comments (behaviour.md 3.4): one comment, its edit, the administrators' list, a user's comments, and the
 * COMMENTS family (behaviours/commentable) on questions, answers, articles and, as replies, on comments.
 */
import { createRoute } from "@hono/zod-openapi";
import { createRouter } from "../../app-router";
import { beforeBody, commentTargets, mountCommentRoutes } from "../../behaviours/commentable";
import { ok, page } from "../../lib/envelope";
import { parseInclude } from "../../lib/include";
import { authSecurity, jsonBody, okResponse, pageResponse, pathId } from "../../lib/openapi";
import { viewOf } from "../../lib/view";
import { adminRequired, loginRequired, requireUser } from "../../middleware/context";
import { COMMENT_INCLUDES, CommentEditBody, CommentIncludeQuery, CommentListQuery, CommentPageQuery, CommentSchema } from "./schema";
import { assertMayEditComment, editComment, getComment, listComments, listUserComments } from "./service";

const router = createRouter();
const tags = ["comments"];
const CommentIdParam = pathId("comment_id");
const UserIdParam = pathId("user_id");
const includeOf = (query: { include?: string }) => parseInclude(query.include, COMMENT_INCLUDES);
// pathId names its key at run time, so its type is an index signature; validation guarantees the value.
const idOf = (params: Record<string, number | undefined>, name: string) => params[name] as number;

for (const target of Object.values(commentTargets)) mountCommentRoutes(router, target);

router.openapi(
  createRoute({
    method: "get",
    path: "/comments",
    tags,
    summary: "List comments (administrators)",
    description: "Filters combine; `trashed=true` lists only the trash. Default order `-create_time`.",
    security: authSecurity,
    middleware: [adminRequired],
    request: { query: CommentListQuery },
    responses: pageResponse(CommentSchema),
  }),
  async (c) => {
    const query = c.req.valid("query");
    const filter = { ...query, trashed: query.trashed === "true" };
    const result = await listComments(c.get("db"), viewOf(c), filter, query, includeOf(query));
    return page(c, result.data, result.pagination);
  },
);

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
  async (c) => {
    const comment = await getComment(c.get("db"), viewOf(c), idOf(c.req.valid("param"), "comment_id"), includeOf(c.req.valid("query")));
    return ok(c, comment);
  },
);

router.openapi(
  createRoute({
    method: "patch",
    path: "/comments/{comment_id}",
    tags,
    summary: "Edit a comment",
    description: "The comment must be live (204001); then the author rule (204002-204004) applies, then the body is validated.",
    security: authSecurity,
    middleware: [loginRequired, beforeBody("comment_id", (c, id) => assertMayEditComment(c.get("db"), requireUser(c), c.get("options"), id))],
    request: { params: CommentIdParam, query: CommentIncludeQuery, body: jsonBody(CommentEditBody) },
    responses: okResponse(CommentSchema),
  }),
  async (c) => {
    const id = idOf(c.req.valid("param"), "comment_id");
    const comment = await editComment(c.get("db"), viewOf(c), id, c.req.valid("json").content, includeOf(c.req.valid("query")));
    return ok(c, comment);
  },
);

router.openapi(
  createRoute({
    method: "get",
    path: "/users/{user_id}/comments",
    tags: ["users"],
    summary: "A user's comments and replies",
    description: "Live ones only; 201003 when the user does not exist. Default order `-create_time`.",
    request: { params: UserIdParam, query: CommentPageQuery },
    responses: pageResponse(CommentSchema),
  }),
  async (c) => {
    const query = c.req.valid("query");
    const result = await listUserComments(c.get("db"), viewOf(c), idOf(c.req.valid("param"), "user_id"), query, includeOf(query));
    return page(c, result.data, result.pagination);
  },
);

router.openapi(
  createRoute({
    method: "get",
    path: "/user/comments",
    tags: ["users"],
    summary: "The caller's comments and replies",
    security: authSecurity,
    middleware: [loginRequired],
    request: { query: CommentPageQuery },
    responses: pageResponse(CommentSchema),
  }),
  async (c) => {
    const query = c.req.valid("query");
    const result = await listUserComments(c.get("db"), viewOf(c), requireUser(c).user_id, query, includeOf(query));
    return page(c, result.data, result.pagination);
  },
);

export default router;

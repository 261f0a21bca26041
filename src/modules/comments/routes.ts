/**
 * Comments (docs/operations.md#comments): one comment, its edit, the administrators' list, a user's comments, and the
 * COMMENTS family (docs/operations.md#shared-families) on every commentable kind of the entity model
 * (domain/entities.ts): questions, answers, articles and, as replies, comments.
 */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { type CommentTarget, commentTargets } from "../../behaviours/commentable";
import type { AppEnv } from "../../http/app-env";
import { ok } from "../../http/envelope";
import { laterCheckedBody, readBody } from "../../http/late-body";
import { mountList, mountUserList } from "../../http/list-routes";
import { adminRequired, loginRequired, requireUser } from "../../http/middleware/context";
import { authorAccess, authSecurity, okResponse, pathId } from "../../http/openapi";
import { createRouter } from "../../http/router";
import { viewOf } from "../../http/view";
import { parseInclude } from "../../lib/include";
import {
  COMMENT_INCLUDES,
  CommentBody,
  CommentEditBody,
  CommentIncludeQuery,
  CommentListQuery,
  CommentPageQuery,
  CommentSchema,
} from "./schema";
import { commentOn, editComment, getComment, listComments, listCommentsOn, listUserComments } from "./service";

/** Mounts GET and POST `/{resource}/{id}/{comments|replies}` for one target. */
function mountCommentRoutes(router: OpenAPIHono<AppEnv>, target: CommentTarget) {
  const { list } = target.commentable;
  const path = `/${target.resource}/{${target.param}}/${list}`;
  const params = pathId(target.param);
  const tags = [target.resource];
  const item = `${target.type === "answer" ? "an" : "a"} ${target.type}`;
  const idOf = (valid: Record<string, number | undefined>) => valid[target.param] as number;
  const includeOf = (query: { include?: string }) => parseInclude(query.include, COMMENT_INCLUDES);

  mountList(router, {
    path,
    tags,
    summary: list === "replies" ? "List the replies to a comment" : `List the comments on ${item}`,
    description: `The ${target.type} must exist and not be trashed. Default order \`-create_time\`.`,
    params,
    query: CommentPageQuery,
    item: CommentSchema,
    load: (db, view, query, valid) => listCommentsOn(db, view, target, idOf(valid), query, includeOf(query)),
  });

  router.openapi(
    createRoute({
      method: "post",
      path,
      tags,
      summary: list === "replies" ? "Reply to a comment" : `Comment on ${item}`,
      description: `The ${target.type} must exist and not be trashed; that is checked before the body.`,
      security: authSecurity,
      middleware: [loginRequired],
      request: { params, query: CommentIncludeQuery, body: laterCheckedBody(router, "CommentCreate", CommentBody) },
      responses: okResponse(CommentSchema),
    }),
    async (c) => {
      const include = includeOf(c.req.valid("query"));
      const comment = await commentOn(
        c.get("db"),
        viewOf(c),
        target,
        idOf(c.req.valid("param")),
        requireUser(c).user_id,
        await readBody(c),
        include,
      );
      return ok(c, comment);
    },
  );
}

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

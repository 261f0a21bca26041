/**
 * The COMMENTS family (docs/operations.md#shared-families) for one commentable kind: GET and POST
 * `/{resource}/{id}/comments`, or `/comments/{comment_id}/replies` for a comment. Mounted by each commentable kind's
 * module through modules/capabilities.ts.
 */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { CommentTarget } from "../../behaviours/commentable";
import type { AppEnv } from "../../http/app-env";
import { ok } from "../../http/envelope";
import { laterCheckedBody, readBody } from "../../http/late-body";
import { pageOf } from "../../http/list-routes";
import { loginRequired, requireUser } from "../../http/middleware/context";
import { authSecurity, okResponse, pageResponse, underEntity } from "../../http/openapi";
import { viewOf } from "../../http/view";
import { parseInclude } from "../../lib/include";
import { COMMENT_INCLUDES, CommentBody, CommentIncludeQuery, CommentPageQuery, CommentSchema } from "./schema";
import { commentOn, listCommentsOn } from "./service";

/** Mounts GET and POST `/{resource}/{id}/{comments|replies}` for one target. */
export function mountCommentRoutes(router: OpenAPIHono<AppEnv>, target: CommentTarget) {
  const { list } = target.commentable;
  const { path, params, tags, noun, idOf } = underEntity(target, list);
  const item = `${target.type === "answer" ? "an" : "a"} ${target.type}`;
  const includeOf = (query: { include?: string }) => parseInclude(query.include, COMMENT_INCLUDES);

  router.openapi(
    createRoute({
      method: "get",
      path,
      operationId: list === "replies" ? "listCommentReplies" : `list${noun}Comments`,
      tags,
      summary: list === "replies" ? "List the replies to a comment" : `List the comments on ${item}`,
      description: `The ${target.type} must exist and not be trashed. Default order \`-create_time\`.`,
      request: { params, query: CommentPageQuery },
      responses: pageResponse(CommentSchema),
    }),
    (c) => {
      const query = c.req.valid("query");
      return pageOf(
        c,
        listCommentsOn(c.get("db"), viewOf(c), target, idOf(c.req.valid("param")), query, includeOf(query)),
      );
    },
  );

  // Body checked late: a missing target or a refusal comes before a field error (http/late-body.ts).
  router.openapi(
    createRoute({
      method: "post",
      path,
      operationId: list === "replies" ? "createCommentReply" : `create${noun}Comment`,
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

/**
 * The COMMENTS family (behaviour.md 3): GET and POST `/{resource}/{id}/comments` for questions, answers and
 * articles, and `/comments/{id}/replies` (a reply is a comment whose target is a comment), written once and
 * parameterised by a target registry: the target's content kind (table, id, trash column, NOT_FOUND), the
 * counter a new comment adds to, and its path.
 */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import type { Db } from "../db/client";
import { comments } from "../db/schema";
import type { AppEnv } from "../env";
import { ok, page } from "../lib/envelope";
import { ApiError } from "../lib/errors";
import { isPositiveIntString } from "../lib/ids";
import { parseInclude } from "../lib/include";
import { authSecurity, jsonBody, okResponse, pageResponse, pathId } from "../lib/openapi";
import { now } from "../lib/time";
import { viewOf, type View } from "../lib/view";
import { loginRequired, requireUser } from "../middleware/context";
import { contentKinds, type ContentKind } from "../modules/content/kinds";
import { commentColumns, commentsOn, countNewComment, insertComment, newCommentId, selectLive } from "../modules/comments/repo";
import {
  COMMENT_INCLUDES,
  CommentBody,
  CommentIncludeQuery,
  CommentPageQuery,
  CommentSchema,
  type CommentableType,
  type CommentInclude,
} from "../modules/comments/schema";
import { commentRelation, loadInserted, pageOfComments, presentComment, type PageQuery } from "../modules/comments/service";

export interface CommentTarget {
  type: CommentableType;
  kind: ContentKind;
  /** The target's counter a new comment adds to (behaviour.md 3.11). */
  counter: "comment_count" | "reply_count";
  /** The routes are `/{resource}/{param}/{list}`. */
  resource: string;
  param: string;
  list: "comments" | "replies";
}

export const commentTargets = {
  question: { type: "question", kind: contentKinds.question, counter: "comment_count", resource: "questions", param: "question_id", list: "comments" },
  answer: { type: "answer", kind: contentKinds.answer, counter: "comment_count", resource: "answers", param: "answer_id", list: "comments" },
  article: { type: "article", kind: contentKinds.article, counter: "comment_count", resource: "articles", param: "article_id", list: "comments" },
  comment: { type: "comment", kind: contentKinds.comment, counter: "reply_count", resource: "comments", param: "comment_id", list: "replies" },
} as const satisfies Record<CommentableType, CommentTarget>;

/** The live comments on a live target (else the target's NOT_FOUND), in one batch. */
export function listCommentsOn(db: Db, view: View, target: CommentTarget, id: number, query: PageQuery, include: Set<CommentInclude>) {
  const check = { statement: selectLive(db, target.kind, id), notFound: target.kind.notFound };
  return pageOfComments(db, view, commentsOn(target.type, id), query, include, check);
}

/**
 * Posts a comment and counts it on its target (a reply on its parent comment) in one batch, which also reads
 * the new comment back. The target's update_time stays (DECISIONS.md, content).
 */
export function commentOn(db: Db, view: View, target: CommentTarget, id: number, userId: number, content: string, include: Set<CommentInclude>) {
  const writes = [
    insertComment(db, { commentable_type: target.type, commentable_id: id, user_id: userId, content, time: now() }),
    countNewComment(db, target.kind, target.counter, id),
  ];
  const source = { table: comments, id: comments.comment_id, columns: commentColumns };
  return loadInserted(db, source, newCommentId(userId), commentRelation(db, view, include), presentComment(view), writes);
}

/**
 * Route middleware running `check` on the path id before the validators, so that a missing target or a
 * refused author comes before field errors (behaviour.md 3 COMMENTS family, 4.1). A malformed id is left to
 * the param validator, which names it (200001).
 */
export function beforeBody(param: string, check: (c: Context<AppEnv>, id: number) => Promise<void>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const raw = c.req.param(param);
    if (raw !== undefined && isPositiveIntString(raw)) await check(c, Number(raw));
    await next();
  };
}

const targetMustBeLive = (target: CommentTarget) =>
  beforeBody(target.param, async (c, id) => {
    const [row] = await selectLive(c.get("db"), target.kind, id);
    if (!row) throw new ApiError(target.kind.notFound);
  });

/** Mounts GET and POST `/{resource}/{id}/{comments|replies}` for one target. */
export function mountCommentRoutes(router: OpenAPIHono<AppEnv>, target: CommentTarget) {
  const path = `/${target.resource}/{${target.param}}/${target.list}`;
  const params = pathId(target.param);
  const tags = [target.resource];
  const item = `${target.type === "answer" ? "an" : "a"} ${target.type}`;
  const idOf = (valid: Record<string, number | undefined>) => valid[target.param] as number;
  const includeOf = (query: { include?: string }) => parseInclude(query.include, COMMENT_INCLUDES);

  router.openapi(
    createRoute({
      method: "get",
      path,
      tags,
      summary: target.list === "replies" ? "List the replies to a comment" : `List the comments on ${item}`,
      description: `The ${target.type} must exist and not be trashed. Default order \`-create_time\`.`,
      request: { params, query: CommentPageQuery },
      responses: pageResponse(CommentSchema),
    }),
    async (c) => {
      const query = c.req.valid("query");
      const result = await listCommentsOn(c.get("db"), viewOf(c), target, idOf(c.req.valid("param")), query, includeOf(query));
      return page(c, result.data, result.pagination);
    },
  );

  router.openapi(
    createRoute({
      method: "post",
      path,
      tags,
      summary: target.list === "replies" ? "Reply to a comment" : `Comment on ${item}`,
      description: `The ${target.type} must exist and not be trashed; that is checked before the body.`,
      security: authSecurity,
      middleware: [loginRequired, targetMustBeLive(target)],
      request: { params, query: CommentIncludeQuery, body: jsonBody(CommentBody) },
      responses: okResponse(CommentSchema),
    }),
    async (c) => {
      const { content } = c.req.valid("json");
      const include = includeOf(c.req.valid("query"));
      const comment = await commentOn(c.get("db"), viewOf(c), target, idOf(c.req.valid("param")), requireUser(c).user_id, content, include);
      return ok(c, comment);
    },
  );
}

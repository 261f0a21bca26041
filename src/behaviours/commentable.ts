/**
 * The COMMENTS family (behaviour.md 3): GET and POST `/{resource}/{id}/comments` for questions, answers and
 * articles, and `/comments/{id}/replies` (a reply is a comment whose target is a comment), written once and
 * parameterised by a target registry: the target's content kind (table, id, trash column, NOT_FOUND), the
 * counter a new comment adds to, and its path.
 */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { Db } from "../db/client";
import type { AppEnv } from "../env";
import { ok } from "../lib/envelope";
import { ApiError } from "../lib/errors";
import { parseInclude } from "../lib/include";
import { laterCheckedBody, parseBody, readBody } from "../lib/late-body";
import { mountList } from "../lib/list-routes";
import { authSecurity, okResponse, pathId } from "../lib/openapi";
import { now } from "../lib/time";
import { type View, viewOf } from "../lib/view";
import { loginRequired, requireUser } from "../middleware/context";
import { commentRecords } from "../modules/comments/records";
import { countNewComment, insertComment } from "../modules/comments/repo";
import {
  COMMENT_INCLUDES,
  type CommentableType,
  CommentBody,
  type CommentInclude,
  CommentIncludeQuery,
  CommentPageQuery,
  CommentSchema,
} from "../modules/comments/schema";
import { type ContentKind, contentKinds } from "../modules/content/kinds";
import { filteredPage, loadOne, type PageQuery } from "../modules/content/page";
import { liveCheck, newestOf, selectLive } from "../modules/content/repo";
import { commentPosted } from "../modules/notifications/events";

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
  question: {
    type: "question",
    kind: contentKinds.question,
    counter: "comment_count",
    resource: "questions",
    param: "question_id",
    list: "comments",
  },
  answer: {
    type: "answer",
    kind: contentKinds.answer,
    counter: "comment_count",
    resource: "answers",
    param: "answer_id",
    list: "comments",
  },
  article: {
    type: "article",
    kind: contentKinds.article,
    counter: "comment_count",
    resource: "articles",
    param: "article_id",
    list: "comments",
  },
  comment: {
    type: "comment",
    kind: contentKinds.comment,
    counter: "reply_count",
    resource: "comments",
    param: "comment_id",
    list: "replies",
  },
} as const satisfies Record<CommentableType, CommentTarget>;

/** The live comments on a live target (else the target's NOT_FOUND), in one batch. */
export function listCommentsOn(
  db: Db,
  view: View,
  target: CommentTarget,
  id: number,
  query: PageQuery,
  include: Set<CommentInclude>,
) {
  const filter = { commentable_type: target.type, commentable_id: id, trashed: false };
  return filteredPage(db, view, commentRecords, filter, query, include, liveCheck(db, target.kind, id));
}

/**
 * Posts a comment on a live target (else its NOT_FOUND, checked before the body) and counts it there (a reply
 * on its parent comment), in one batch that also reads the new comment back. The target's update_time stays
 * (DECISIONS.md, content).
 */
export async function commentOn(
  db: Db,
  view: View,
  target: CommentTarget,
  id: number,
  userId: number,
  raw: unknown,
  include: Set<CommentInclude>,
) {
  const live = await selectLive(db, target.kind, id);
  if (live.length === 0) throw new ApiError(target.kind.notFound);
  const { content } = parseBody(CommentBody, raw);
  const time = now();
  const writes = [
    insertComment(db, { commentable_type: target.type, commentable_id: id, user_id: userId, content, time }),
    countNewComment(db, target.kind, target.counter, id),
    // After the insert: the notification names the new comment by subquery (behaviour.md 3.12).
    ...commentPosted(db, target.type, id, newestOf(db, contentKinds.comment, userId), userId, time),
  ];
  return loadOne(db, view, commentRecords, newestOf(db, contentKinds.comment, userId), include, writes);
}

/** Mounts GET and POST `/{resource}/{id}/{comments|replies}` for one target. */
export function mountCommentRoutes(router: OpenAPIHono<AppEnv>, target: CommentTarget) {
  const path = `/${target.resource}/{${target.param}}/${target.list}`;
  const params = pathId(target.param);
  const tags = [target.resource];
  const item = `${target.type === "answer" ? "an" : "a"} ${target.type}`;
  const idOf = (valid: Record<string, number | undefined>) => valid[target.param] as number;
  const includeOf = (query: { include?: string }) => parseInclude(query.include, COMMENT_INCLUDES);

  mountList(router, {
    path,
    tags,
    summary: target.list === "replies" ? "List the replies to a comment" : `List the comments on ${item}`,
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
      summary: target.list === "replies" ? "Reply to a comment" : `Comment on ${item}`,
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

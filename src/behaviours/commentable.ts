/**
 * The COMMENTS family (behaviour.md 3): GET and POST `/{resource}/{id}/comments` for questions, answers and
 * articles, and `/comments/{id}/replies` (a reply is a comment whose target is a comment), written once for
 * every commentable kind of the entity model (domain/entities.ts): its table, id, trash column, NOT_FOUND and
 * path, and the segment listing its comments.
 */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { type Db, writeThenRead } from "../db/client";
import { type CommentableKind, type EntityWith, entities, entitiesWith } from "../domain/entities";
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
import { insertComment } from "../modules/comments/repo";
import {
  COMMENT_INCLUDES,
  CommentBody,
  type CommentInclude,
  CommentIncludeQuery,
  CommentPageQuery,
  CommentSchema,
} from "../modules/comments/schema";
import { filteredPage, oneRecord, type PageQuery } from "../modules/content/page";
import { liveCheck, newestOf, selectLive } from "../modules/content/repo";
import { commentPosted } from "../modules/notifications/events";
import { recountStatements } from "./counters";

export type CommentTarget = EntityWith<"commentable" | "trash">;

export const commentTargets = entitiesWith("commentable");

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
  return filteredPage(db, view, commentRecords, filter, query, include, liveCheck(db, target, id));
}

/**
 * Posts a comment on a live target (else its NOT_FOUND, checked before the body) and recounts what it feeds (a
 * reply, its parent comment's replies), in one batch that also reads the new comment back. The target's update_time stays
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
  const live = await selectLive(db, target, id);
  if (live.length === 0) throw new ApiError(target.notFound);
  const { content } = parseBody(CommentBody, raw);
  const time = now();
  const type: CommentableKind = target.type;
  // The new comment's id is only known inside the batch: the statements after the insert name it by subquery.
  const created = newestOf(db, entities.comment, userId);
  const writes = [
    insertComment(db, { commentable_type: type, commentable_id: id, user_id: userId, content, time }),
    ...recountStatements(db, "comment", created),
    // After the insert: the notification names the new comment (behaviour.md 3.12).
    ...commentPosted(db, type, id, created, userId, time),
  ];
  return writeThenRead(db, writes, oneRecord(db, view, commentRecords, created, include));
}

/** Mounts GET and POST `/{resource}/{id}/{comments|replies}` for one target. */
export function mountCommentRoutes(router: OpenAPIHono<AppEnv>, target: CommentTarget) {
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

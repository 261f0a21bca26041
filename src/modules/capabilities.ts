/**
 * The routes a kind's capabilities in the entity model (domain/entities.ts) give it, mounted by the kind's own
 * module so that its router serves every URL under its resource: making a kind votable, followable, commentable,
 * trashable, bookmarkable or revisable stays one edit in the model.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { bookmarkTargets } from "../behaviours/bookmarkable";
import { commentTargets } from "../behaviours/commentable";
import { followTargets } from "../behaviours/followable";
import { revisionTargets } from "../behaviours/revisable";
import { voteTargets } from "../behaviours/votable";
import { has, type Kind } from "../domain/entities";
import type { AppEnv } from "../http/app-env";
import { mountBookmarkRoutes } from "./bookmarks/bookmark-routes";
import { mountCommentRoutes } from "./comments/commentable-routes";
import { mountTrashRoutes } from "./lifecycle/trash-routes";
import { mountRevisionRoutes } from "./revisions/revision-routes";
import { mountFollowerRoutes } from "./users/follower-routes";
import { mountVoterRoutes } from "./votes/voter-routes";

export function mountCapabilities(router: OpenAPIHono<AppEnv>, kind: Kind) {
  if (has(kind, "votable")) mountVoterRoutes(router, voteTargets[kind]);
  if (has(kind, "followable")) mountFollowerRoutes(router, followTargets[kind]);
  if (has(kind, "commentable")) mountCommentRoutes(router, commentTargets[kind]);
  if (has(kind, "trash")) mountTrashRoutes(router, kind);
  if (has(kind, "bookmarkable")) mountBookmarkRoutes(router, bookmarkTargets[kind]);
  if (has(kind, "revisable")) mountRevisionRoutes(router, revisionTargets[kind]);
}

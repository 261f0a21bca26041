/**
 * The FOLLOW family's routes (docs/operations.md#shared-families) for one followable kind: GET, POST and DELETE
 * `/{resource}/{id}/followers`, with the resource, parameter and tag of its entity (domain/entities.ts). Mounted
 * by each followable kind's module through modules/capabilities.ts; here because a follower list is a list of User
 * records, and the statements are behaviours/followable.ts's.
 */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { FollowTarget } from "../../behaviours/followable";
import type { AppEnv } from "../../http/app-env";
import { ok } from "../../http/envelope";
import { pageOf } from "../../http/list-routes";
import { loginRequired, requireUser } from "../../http/middleware/context";
import { authSecurity, okResponse, pageResponse, underEntity } from "../../http/openapi";
import { viewOf } from "../../http/view";
import { FollowerCountSchema, UserPageQuery, UserSchema, userIncludesOf } from "./schema";
import { followTarget, listFollowers, unfollowTarget } from "./service";

export function mountFollowerRoutes(router: OpenAPIHono<AppEnv>, target: FollowTarget) {
  const { path, params, tags, noun, idOf } = underEntity(target, "followers");

  router.openapi(
    createRoute({
      method: "get",
      path,
      operationId: `list${noun}Followers`,
      tags,
      summary: `List the followers of a ${target.type}`,
      description: "Newest follow first; disabled users are left out.",
      request: { params, query: UserPageQuery },
      responses: pageResponse(UserSchema),
    }),
    (c) => {
      const query = c.req.valid("query");
      return pageOf(
        c,
        listFollowers(c.get("db"), viewOf(c), target, idOf(c.req.valid("param")), query, userIncludesOf(query)),
      );
    },
  );

  router.openapi(
    createRoute({
      method: "post",
      path,
      operationId: `follow${noun}`,
      tags,
      summary: `Follow a ${target.type}`,
      description: "Following again changes nothing and answers the same.",
      security: authSecurity,
      middleware: [loginRequired],
      request: { params },
      responses: okResponse(FollowerCountSchema),
    }),
    async (c) => {
      const follower_count = await followTarget(
        c.get("db"),
        target,
        requireUser(c).user_id,
        idOf(c.req.valid("param")),
      );
      return ok(c, { follower_count });
    },
  );

  router.openapi(
    createRoute({
      method: "delete",
      path,
      operationId: `unfollow${noun}`,
      tags,
      summary: `Unfollow a ${target.type}`,
      description: "Unfollowing what one does not follow changes nothing.",
      security: authSecurity,
      middleware: [loginRequired],
      request: { params },
      responses: okResponse(FollowerCountSchema),
    }),
    async (c) => {
      const follower_count = await unfollowTarget(
        c.get("db"),
        target,
        requireUser(c).user_id,
        idOf(c.req.valid("param")),
      );
      return ok(c, { follower_count });
    },
  );
}

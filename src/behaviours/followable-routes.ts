/**
 * The FOLLOW family's routes (behaviour.md 3) for one followable kind: GET, POST and DELETE
 * `/{resource}/{id}/followers`, with the resource, parameter and tag of its entity (domain/entities.ts). Mounted
 * by each resource's module, e.g. `mountFollowerRoutes(router, followTargets.user)`.
 */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { ok } from "../lib/envelope";
import { parseInclude } from "../lib/include";
import { mountList } from "../lib/list-routes";
import { authSecurity, okResponse, pathId } from "../lib/openapi";
import { loginRequired, requireUser } from "../middleware/context";
import { USER_INCLUDES } from "../modules/users/present";
import { FollowerCountSchema, UserPageQuery, UserSchema } from "../modules/users/schema";
import { listFollowers } from "../modules/users/service";
import { type FollowTarget, follow, unfollow } from "./followable";

export function mountFollowerRoutes(router: OpenAPIHono<AppEnv>, target: FollowTarget) {
  const { resource, param } = target;
  const tag = resource;
  const path = `/${resource}/{${param}}/followers`;
  const params = pathId(param);
  const idOf = (valid: Record<string, number | undefined>) => valid[param] as number;

  mountList(router, {
    path,
    tags: [tag],
    summary: `List the followers of a ${target.type}`,
    description: "Newest follow first; disabled users are left out.",
    params,
    query: UserPageQuery,
    item: UserSchema,
    load: (db, view, query, valid) =>
      listFollowers(db, view, target, idOf(valid), query, parseInclude(query.include, USER_INCLUDES)),
  });

  router.openapi(
    createRoute({
      method: "post",
      path,
      tags: [tag],
      summary: `Follow a ${target.type}`,
      description: "Following again changes nothing and answers the same.",
      security: authSecurity,
      middleware: [loginRequired],
      request: { params },
      responses: okResponse(FollowerCountSchema),
    }),
    async (c) => {
      const follower_count = await follow(c.get("db"), target, requireUser(c).user_id, idOf(c.req.valid("param")));
      return ok(c, { follower_count });
    },
  );

  router.openapi(
    createRoute({
      method: "delete",
      path,
      tags: [tag],
      summary: `Unfollow a ${target.type}`,
      description: "Unfollowing what one does not follow changes nothing.",
      security: authSecurity,
      middleware: [loginRequired],
      request: { params },
      responses: okResponse(FollowerCountSchema),
    }),
    async (c) => {
      const follower_count = await unfollow(c.get("db"), target, requireUser(c).user_id, idOf(c.req.valid("param")));
      return ok(c, { follower_count });
    },
  );
}

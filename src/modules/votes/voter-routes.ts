/**
 * The VOTE family's routes (docs/operations.md#shared-families) for one votable kind: GET, POST and DELETE
 * `/{resource}/{id}/voters`. Mounted by each votable kind's module through modules/capabilities.ts.
 */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { VoteTarget } from "../../behaviours/votable";
import { ApiError } from "../../core/errors";
import type { AppEnv } from "../../http/app-env";
import { ok } from "../../http/envelope";
import { pageOf } from "../../http/list-routes";
import { loginRequired, requireUser } from "../../http/middleware/context";
import { authSecurity, jsonBody, okResponse, pageResponse, underEntity } from "../../http/openapi";
import { viewOf } from "../../http/view";
import { UserSchema, userIncludesOf } from "../users/schema";
import { VoteBody, VoteCountsSchema, VoterPageQuery } from "./schema";
import { castVote, listVoters, withdrawVote } from "./service";

export function mountVoterRoutes(router: OpenAPIHono<AppEnv>, target: VoteTarget) {
  const { path, params, tags, noun, idOf } = underEntity(target, "voters");

  router.openapi(
    createRoute({
      method: "get",
      path,
      operationId: `list${noun}Voters`,
      tags,
      summary: `List the voters of a ${target.type}`,
      description: "Newest vote first; disabled users are left out.",
      request: { params, query: VoterPageQuery },
      responses: pageResponse(UserSchema),
    }),
    (c) => {
      const query = c.req.valid("query");
      return pageOf(
        c,
        listVoters(c.get("db"), viewOf(c), target, idOf(c.req.valid("param")), query, userIncludesOf(query)),
      );
    },
  );

  router.openapi(
    createRoute({
      method: "post",
      path,
      operationId: `vote${noun}`,
      tags,
      summary: `Vote on a ${target.type}`,
      description:
        "The same vote again changes nothing; the other type replaces the vote. " +
        "A type other than up or down is 200006.",
      security: authSecurity,
      middleware: [loginRequired],
      request: { params, body: jsonBody(VoteBody) },
      responses: okResponse(VoteCountsSchema),
    }),
    async (c) => {
      const counts = await castVote(
        c.get("db"),
        target,
        requireUser(c).user_id,
        idOf(c.req.valid("param")),
        c.req.valid("json").type,
      );
      return ok(c, counts);
    },
    // The reference answers 200006, not a field error, for any body without a valid type, and checks it
    // before the target exists (docs/operations.md#votes). The path id still fails as every route's does.
    (result, c) => {
      if (!result.success && result.target === "json") throw new ApiError("VOTE_TYPE_INVALID");
      return router.defaultHook?.(result, c);
    },
  );

  router.openapi(
    createRoute({
      method: "delete",
      path,
      operationId: `unvote${noun}`,
      tags,
      summary: `Withdraw one's vote on a ${target.type}`,
      description: "Withdrawing no vote changes nothing.",
      security: authSecurity,
      middleware: [loginRequired],
      request: { params },
      responses: okResponse(VoteCountsSchema),
    }),
    async (c) => {
      const counts = await withdrawVote(c.get("db"), target, requireUser(c).user_id, idOf(c.req.valid("param")));
      return ok(c, counts);
    },
  );
}

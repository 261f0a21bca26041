/**
 * Users (docs/operations.md#users): the caller's own record, the user list and records, administrators' edits and
 * disabling, and follows between users (the FOLLOW family, through modules/capabilities.ts).
 */
import { createRoute } from "@hono/zod-openapi";
import { followTargets } from "../../behaviours/followable";
import { ok } from "../../http/envelope";
import { pageOf, userListRoutes } from "../../http/list-routes";
import {
  adminRequired,
  loginRequired,
  requireAdmin,
  requireCheckedUser,
  requireUser,
} from "../../http/middleware/context";
import { adminAccess, authSecurity, jsonBody, okResponse, pageResponse, pathId, pathIds, z } from "../../http/openapi";
import { createRouter } from "../../http/router";
import { requireViewer, viewOf } from "../../http/view";
import { parseIdList } from "../../lib/ids";
import { now } from "../../lib/time";
import { endSessions } from "../auth/sessions-ended";
import { mountCapabilities } from "../capabilities";
import {
  MyProfileBody,
  ProfileBody,
  UserIncludeQuery,
  UserListQuery,
  UserPageQuery,
  UserSchema,
  userIncludesOf,
} from "./schema";
import {
  callerRecord,
  disable,
  editProfile,
  enable,
  getUser,
  listFollowees,
  listFollowers,
  listUsers,
  oneOrAll,
} from "./service";

const router = createRouter();
const tags = ["users"];
const UserIdParam = pathId("user_id");
const UserIdsParam = pathIds("user_ids");

router.openapi(
  createRoute({
    method: "get",
    path: "/user",
    operationId: "getMe",
    tags,
    summary: "The caller's own record",
    security: authSecurity,
    middleware: [loginRequired],
    request: { query: UserIncludeQuery },
    responses: okResponse(UserSchema),
  }),
  async (c) => {
    // The caller's own row is what the token check reads: it is the route's one round trip.
    return ok(c, callerRecord(await requireCheckedUser(c), viewOf(c), userIncludesOf(c.req.valid("query"))));
  },
);

router.openapi(
  createRoute({
    method: "patch",
    path: "/user",
    operationId: "updateMe",
    tags,
    summary: "Edit the caller's profile and inbox preferences",
    description:
      "Only the fields sent change; text is stored as sent (no trimming, empty allowed). `inbox_accept` and " +
      "`inbox_email` are the caller's private-message preferences; they do not move update_time.",
    security: authSecurity,
    middleware: [loginRequired],
    request: { query: UserIncludeQuery, body: jsonBody(MyProfileBody) },
    responses: okResponse(UserSchema),
  }),
  async (c) => {
    const user = await editProfile(
      c.get("db"),
      viewOf(c),
      requireUser(c).user_id,
      c.req.valid("json"),
      userIncludesOf(c.req.valid("query")),
    );
    return ok(c, user);
  },
);

// The caller's own followers; anyone's are the FOLLOW family's `/users/{user_id}/followers`, mounted below.
router.openapi(
  createRoute({
    method: "get",
    path: "/user/followers",
    operationId: "listMyFollowers",
    tags,
    summary: "The caller's followers",
    description: "Newest follow first; disabled users are left out.",
    security: authSecurity,
    middleware: [loginRequired],
    request: { query: UserPageQuery },
    responses: pageResponse(UserSchema),
  }),
  (c) => {
    const query = c.req.valid("query");
    return pageOf(
      c,
      listFollowers(
        c.get("db"),
        viewOf(c),
        followTargets.user,
        requireViewer(viewOf(c)).user_id,
        query,
        userIncludesOf(query),
      ),
    );
  },
);

router.openapi(
  createRoute({
    method: "get",
    path: "/users",
    operationId: "listUsers",
    tags,
    summary: "List users",
    description: "Disabled users are left out, except for administrators asking `disabled=true`.",
    request: { query: UserListQuery },
    responses: pageResponse(UserSchema),
  }),
  (c) => {
    const query = c.req.valid("query");
    return pageOf(c, listUsers(c.get("db"), viewOf(c), query, userIncludesOf(query)));
  },
);

router.openapi(
  createRoute({
    method: "get",
    path: "/users/{user_id}",
    operationId: "getUser",
    tags,
    summary: "A user's record",
    description: "Disabled users are returned too.",
    request: { params: UserIdParam, query: UserIncludeQuery },
    responses: okResponse(UserSchema),
  }),
  async (c) =>
    ok(c, await getUser(c.get("db"), viewOf(c), c.req.valid("param").user_id, userIncludesOf(c.req.valid("query")))),
);

router.openapi(
  createRoute({
    method: "patch",
    path: "/users/{user_id}",
    operationId: "updateUser",
    tags,
    summary: "Edit a user's profile (administrators)",
    description: "Only the fields sent change; text is stored as sent (no trimming, empty allowed).",
    ...adminAccess,
    middleware: [adminRequired],
    request: { params: UserIdParam, query: UserIncludeQuery, body: jsonBody(ProfileBody) },
    responses: okResponse(UserSchema),
  }),
  async (c) => {
    const id = c.req.valid("param").user_id;
    return ok(
      c,
      await editProfile(c.get("db"), viewOf(c), id, c.req.valid("json"), userIncludesOf(c.req.valid("query"))),
    );
  },
);

const disableResponse = okResponse(
  z
    .union([UserSchema, z.array(UserSchema)])
    .openapi({ description: "one id: the User; several: an array of the Users found" }),
);

for (const action of ["disable", "enable"] as const) {
  router.openapi(
    createRoute({
      method: "post",
      path: `/users/{user_ids}/${action}`,
      operationId: `${action}Users`,
      tags,
      summary: action === "disable" ? "Disable users (administrators)" : "Enable users (administrators)",
      description:
        "One id answers the User (201003 when missing); several comma-separated ids (at most 100) answer an array " +
        "of the Users found, unknown ids skipped." +
        (action === "disable" ? " Disabling deletes the users' tokens; an administrator cannot disable themself." : ""),
      ...adminAccess,
      middleware: [adminRequired],
      request: { params: UserIdsParam, query: UserIncludeQuery },
      responses: disableResponse,
    }),
    async (c) => {
      const { user_ids } = c.req.valid("param");
      const ids = parseIdList(user_ids ?? "", "user_ids");
      const db = c.get("db");
      const view = viewOf(c);
      const include = userIncludesOf(c.req.valid("query"));
      const users =
        action === "disable"
          ? await disable(db, view, requireAdmin(c).user_id, ids, include)
          : await enable(db, view, ids, include);
      // Disabling deleted their tokens: their claims count nothing from now on either.
      if (action === "disable") await endSessions(c, { userIds: ids, time: now() });
      return ok(c, oneOrAll(users, !user_ids?.includes(",")));
    },
  );
}

const userFollowees = userListRoutes({
  name: "followees",
  summaries: { user: "The users a user follows", caller: "The users the caller follows" },
  description: "Newest follow first; disabled users stay listed.",
  query: UserPageQuery,
  item: UserSchema,
  load: (db, view, userId, query) => listFollowees(db, view, userId, query, userIncludesOf(query)),
});
router.openapi(userFollowees.ofUser, userFollowees.handler);
router.openapi(userFollowees.ofCaller, userFollowees.handler);

mountCapabilities(router, "user");

export default router;

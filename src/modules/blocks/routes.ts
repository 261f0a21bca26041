/** The caller's blocks (docs/messages.md#blocks, docs/operations.md#blocks): list, block, unblock. */
import { createRoute } from "@hono/zod-openapi";
import { ok } from "../../http/envelope";
import { pageOf } from "../../http/list-routes";
import { loginRequired, requireUser } from "../../http/middleware/context";
import { authSecurity, okResponse, pageResponse, pathId } from "../../http/openapi";
import { createRouter } from "../../http/router";
import { viewOf } from "../../http/view";
import { UserIncludeQuery, UserPageQuery, UserSchema, userIncludesOf } from "../users/schema";
import { block, listBlocks, unblock } from "./service";

const router = createRouter();
const tags = ["users"];
const login = { security: authSecurity, middleware: [loginRequired] };
const UserIdParam = pathId("user_id");

router.openapi(
  createRoute({
    method: "get",
    path: "/user/blocks",
    operationId: "listMyBlocks",
    tags,
    summary: "The members the caller blocks",
    description: "The latest block first; disabled members stay listed. Only the caller sees their blocks.",
    ...login,
    request: { query: UserPageQuery },
    responses: pageResponse(UserSchema),
  }),
  (c) => {
    const query = c.req.valid("query");
    return pageOf(c, listBlocks(c.get("db"), viewOf(c), requireUser(c), query, userIncludesOf(query)));
  },
);

for (const action of ["block", "unblock"] as const) {
  router.openapi(
    createRoute({
      method: action === "block" ? "put" : "delete",
      path: "/user/blocks/{user_id}",
      operationId: action === "block" ? "blockUser" : "unblockUser",
      tags,
      summary: action === "block" ? "Block a member" : "Unblock a member",
      description:
        (action === "block"
          ? "Their messages are refused as by a member who accepts none (administrators' are not), and their " +
            "comments, answers and replies stop notifying the caller; they are not told. Blocking again changes " +
            "nothing; oneself is 209011."
          : "Unblocking a member one does not block changes nothing.") +
        " Answers the member's record; 201003 when they do not exist.",
      ...login,
      request: { params: UserIdParam, query: UserIncludeQuery },
      responses: okResponse(UserSchema),
    }),
    async (c) => {
      const act = action === "block" ? block : unblock;
      const id = c.req.valid("param").user_id;
      return ok(c, await act(c.get("db"), viewOf(c), requireUser(c), id, userIncludesOf(c.req.valid("query"))));
    },
  );
}

export default router;

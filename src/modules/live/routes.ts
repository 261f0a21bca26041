/**
 * Live updates (docs/events.md#live-updates): a ticket for a logged-in caller, and the WebSocket upgrade served by the
 * live hubs (hub.ts) through the Hibernation API.
 */
import { createRoute } from "@hono/zod-openapi";
import { ApiError } from "../../core/errors";
import { ok } from "../../http/envelope";
import { loginRequired, requireCheckedUser } from "../../http/middleware/context";
import { authSecurity, nullResponse, okResponse } from "../../http/openapi";
import { createRouter } from "../../http/router";
import { LIMITS } from "./protocol";
import { LiveQuery, TicketSchema } from "./schema";
import { connect, issueTicket } from "./service";

const router = createRouter();
const tags = ["live"];

router.openapi(
  createRoute({
    method: "post",
    path: "/live/tickets",
    operationId: "createLiveTicket",
    tags,
    summary: "Get a ticket for a live socket",
    description:
      `A single-use ticket, valid ${LIMITS.ticketSeconds} seconds, that opens one socket as the caller ` +
      "(GET /api/live?ticket=…): their notifications, unread counts and messages, and public channels. Logging out " +
      "closes the sockets opened under that token; a password change or a disabled account closes all of them.",
    security: authSecurity,
    // Nothing anyone reads changes: the anonymous edge cache keeps its answers (a ticket comes with every live page).
    middleware: [loginRequired],
    responses: okResponse(TicketSchema),
  }),
  async (c) => {
    // The ticket stands for the caller: D1 confirms them first.
    const caller = await requireCheckedUser(c);
    return ok(c, await issueTicket(c.env, caller, c.get("tokenHash") as string));
  },
);

// `{101, 4XX, default}`: the success of an upgrade is a switch of protocols, not a JSON body.
const { 200: _json, ...refusals } = nullResponse;

router.openapi(
  createRoute({
    method: "get",
    path: "/live",
    operationId: "openLiveSocket",
    tags,
    summary: "Open a live socket (WebSocket)",
    description:
      "Upgrades to a WebSocket (without `Upgrade: websocket`: 426, 211006). With a ticket the socket is the member's " +
      "own stream besides public channels; without, public channels only. A used, unknown or expired ticket is 401 " +
      '(211005). Messages are `{id, type, time, data}`; the client sends `{"subscribe": ["question:12"]}` or ' +
      '`{"unsubscribe": [...]}`; see docs/events.md for types, limits and `last_event_id`.',
    request: { query: LiveQuery },
    responses: { 101: { description: "switching to the WebSocket protocol" }, ...refusals },
  }),
  async (c) => {
    if (c.req.header("upgrade")?.toLowerCase() !== "websocket") throw new ApiError("LIVE_UPGRADE_REQUIRED");
    return connect(c.env, c.req.raw, c.req.valid("query").ticket);
  },
);

export default router;

/**
 * Notifications (spec "Notification", operation 6; docs/operations.md#notifications;
 * docs/decisions.md#notifications-are-scoped-to-the-caller): the caller's own, listed, counted, marked read and
 * deleted. Every route requires login and acts on the caller's notifications only.
 */
import { createRoute } from "@hono/zod-openapi";
import { ok, page } from "../../http/envelope";
import { loginRequired, requireCheckedUser, requireUser } from "../../http/middleware/context";
import { unseenWrite } from "../../http/middleware/edge-cache";
import { authSecurity, nullResponse, okResponse, pageResponse, pathIds } from "../../http/openapi";
import { createRouter } from "../../http/router";
import { viewOf } from "../../http/view";
import { parseIdList } from "../../lib/ids";
import { parseInclude } from "../../lib/include";
import {
  NOTIFICATION_INCLUDES,
  NotificationCountSchema,
  NotificationIncludeQuery,
  NotificationPageQuery,
  NotificationSchema,
  TypeQuery,
} from "./schema";
import {
  countNotifications,
  deleteAllNotifications,
  deleteNotifications,
  listNotifications,
  readAllNotifications,
  readNotifications,
} from "./service";

const router = createRouter();
const tags = ["notifications"];
const security = authSecurity;
const middleware = [loginRequired];
/** A caller's own notifications: no anonymous reader sees them change, so the edge cache keeps its copies. */
const writeMiddleware = [loginRequired, unseenWrite];
const ids = pathIds("notification_ids");
const includeOf = (query: { include?: string }) => parseInclude(query.include, NOTIFICATION_INCLUDES);

router.openapi(
  createRoute({
    method: "get",
    path: "/notifications",
    operationId: "listNotifications",
    tags,
    summary: "List my notifications",
    description:
      "The caller's notifications, newest first. `type` keeps one kind; `read=true` keeps read ones, " +
      "any other `read` value unread ones.",
    security,
    middleware,
    request: { query: NotificationPageQuery },
    responses: pageResponse(NotificationSchema),
  }),
  async (c) => {
    const query = c.req.valid("query");
    const result = await listNotifications(c.get("db"), viewOf(c), requireUser(c), query, includeOf(query));
    return page(c, result.data, result.pagination);
  },
);

router.openapi(
  createRoute({
    method: "get",
    path: "/notifications/count",
    operationId: "countUnreadNotifications",
    tags,
    summary: "Count my unread notifications",
    security,
    middleware,
    request: { query: TypeQuery },
    responses: okResponse(NotificationCountSchema),
  }),
  async (c) => {
    const { type } = c.req.valid("query");
    // Of every type, the count is the caller's own counter, which the token check reads: nothing else to read.
    if (type === undefined) return ok(c, { notification_count: (await requireCheckedUser(c)).notification_unread });
    return ok(c, await countNotifications(c.get("db"), requireUser(c), type));
  },
);

router.openapi(
  createRoute({
    method: "post",
    path: "/notifications/read",
    operationId: "readAllNotifications",
    tags,
    summary: "Mark all my notifications read",
    description: "Only the caller's (of `type`, when given); already read ones keep their read_time.",
    security,
    middleware: writeMiddleware,
    request: { query: TypeQuery },
    responses: nullResponse,
  }),
  async (c) => {
    await readAllNotifications(c.get("db"), requireUser(c), c.req.valid("query").type);
    return ok(c, null);
  },
);

router.openapi(
  createRoute({
    method: "post",
    path: "/notifications/{notification_ids}/read",
    operationId: "readNotifications",
    tags,
    summary: "Mark notifications read",
    description:
      "Spec operation 6. One id or up to 100 comma-separated (more, or a part that is not an id: 200001). Marks the " +
      "caller's unread ones read (a read one keeps its read_time) and answers the caller's ones among the ids, in " +
      "the order listed, as one page; others' ids are skipped. " +
      "A single id (no comma) that is not the caller's: 208001.",
    security,
    middleware: writeMiddleware,
    request: { params: ids, query: NotificationIncludeQuery },
    responses: pageResponse(NotificationSchema),
  }),
  async (c) => {
    const raw = c.req.valid("param").notification_ids as string;
    const list = parseIdList(raw, "notification_ids");
    const single = !raw.includes(",");
    const result = await readNotifications(
      c.get("db"),
      viewOf(c),
      requireUser(c),
      list,
      single,
      includeOf(c.req.valid("query")),
    );
    return page(c, result.data, result.pagination);
  },
);

router.openapi(
  createRoute({
    method: "delete",
    path: "/notifications/{notification_ids}",
    operationId: "deleteNotifications",
    tags,
    summary: "Delete notifications",
    description:
      "One id or up to 100 comma-separated. Only the caller's are deleted; " +
      "others' and unknown ids are silently skipped.",
    security,
    middleware: writeMiddleware,
    request: { params: ids },
    responses: nullResponse,
  }),
  async (c) => {
    await deleteNotifications(
      c.get("db"),
      requireUser(c),
      parseIdList(c.req.valid("param").notification_ids as string, "notification_ids"),
    );
    return ok(c, null);
  },
);

router.openapi(
  createRoute({
    method: "delete",
    path: "/notifications",
    operationId: "deleteAllNotifications",
    tags,
    summary: "Delete all my notifications",
    description: "Only the caller's (of `type`, when given).",
    security,
    middleware: writeMiddleware,
    request: { query: TypeQuery },
    responses: nullResponse,
  }),
  async (c) => {
    await deleteAllNotifications(c.get("db"), requireUser(c), c.req.valid("query").type);
    return ok(c, null);
  },
);

export default router;

/**
 * Webhooks (docs/events.md#webhooks), for administrators: the endpoints events are sent to, signed as Standard
 * Webhooks, their delivery log, and redelivery of an attempt's event.
 */
import { createRoute } from "@hono/zod-openapi";
import { ok } from "../../http/envelope";
import { pageOf } from "../../http/list-routes";
import { adminRequired, requireUser } from "../../http/middleware/context";
import { adminAccess, nullResponse, okResponse, pageResponse } from "../../http/openapi";
import { createRouter } from "../../http/router";
import {
  createBody,
  DeliveryParams,
  DeliverySchema,
  editBody,
  RedeliverySchema,
  WebhookEditedSchema,
  WebhookIdParam,
  WebhookPageQuery,
  WebhookSchema,
  WebhookWithSecretSchema,
} from "./schema";
import {
  createWebhook,
  editWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  redeliver,
  removeWebhook,
} from "./service";

const router = createRouter();
const tags = ["webhooks"];
const admin = { ...adminAccess, middleware: [adminRequired], tags };

router.openapi(
  createRoute({
    method: "get",
    path: "/webhooks",
    operationId: "listWebhooks",
    summary: "List the webhooks (administrators)",
    description: "Newest first. Secrets are never listed.",
    ...admin,
    request: { query: WebhookPageQuery },
    responses: pageResponse(WebhookSchema),
  }),
  (c) => pageOf(c, listWebhooks(c.get("db"), c.req.valid("query"))),
);

router.openapi(
  createRoute({
    method: "post",
    path: "/webhooks",
    operationId: "createWebhook",
    summary: "Add a webhook (administrators)",
    description:
      "An https endpoint on a public address (200001 on `url` otherwise), the event types it receives (all by " +
      "default), active unless `active: false`. The answer carries its `whsec_` secret, shown only here. At most " +
      "20 webhooks (211003).",
    ...admin,
    request: { body: createBody },
    responses: okResponse(WebhookWithSecretSchema),
  }),
  async (c) => ok(c, await createWebhook(c.get("db"), c.env, requireUser(c), c.req.valid("json"))),
);

router.openapi(
  createRoute({
    method: "get",
    path: "/webhooks/{webhook_id}",
    operationId: "getWebhook",
    summary: "A webhook (administrators)",
    description: "211001 when there is none.",
    ...admin,
    request: { params: WebhookIdParam },
    responses: okResponse(WebhookSchema),
  }),
  async (c) => ok(c, await getWebhook(c.get("db"), c.req.valid("param").webhook_id)),
);

router.openapi(
  createRoute({
    method: "patch",
    path: "/webhooks/{webhook_id}",
    operationId: "updateWebhook",
    summary: "Change a webhook (administrators)",
    description:
      "Only the fields sent change. `active: true` restarts a stopped endpoint; `rotate_secret: true` answers a " +
      "new secret (shown only here) and signs with both for 24 hours.",
    ...admin,
    request: { params: WebhookIdParam, body: editBody },
    responses: okResponse(WebhookEditedSchema),
  }),
  async (c) => ok(c, await editWebhook(c.get("db"), c.env, c.req.valid("param").webhook_id, c.req.valid("json"))),
);

router.openapi(
  createRoute({
    method: "delete",
    path: "/webhooks/{webhook_id}",
    operationId: "deleteWebhook",
    summary: "Delete a webhook (administrators)",
    description: "With its delivery log; attempts already queued are dropped. 211001 when there is none.",
    ...admin,
    request: { params: WebhookIdParam },
    responses: nullResponse,
  }),
  async (c) => {
    await removeWebhook(c.get("db"), c.req.valid("param").webhook_id);
    return ok(c, null);
  },
);

router.openapi(
  createRoute({
    method: "get",
    path: "/webhooks/{webhook_id}/deliveries",
    operationId: "listWebhookDeliveries",
    summary: "A webhook's delivery attempts (administrators)",
    description: "Every attempt, newest first: event id and type, time, status code, duration, error. Kept 30 days.",
    ...admin,
    request: { params: WebhookIdParam, query: WebhookPageQuery },
    responses: pageResponse(DeliverySchema),
  }),
  (c) => pageOf(c, listDeliveries(c.get("db"), c.req.valid("param").webhook_id, c.req.valid("query"))),
);

router.openapi(
  createRoute({
    method: "post",
    path: "/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver",
    operationId: "redeliverWebhookDelivery",
    summary: "Send an attempt's event again (administrators)",
    description:
      "Queues the event again for the endpoint, same `webhook-id`, signed anew; its attempts are logged as a " +
      "redelivery. 211002 for an unknown attempt or an expired event, 211004 for a stopped endpoint.",
    ...admin,
    request: { params: DeliveryParams },
    responses: okResponse(RedeliverySchema),
  }),
  async (c) => {
    const { webhook_id, delivery_id } = c.req.valid("param");
    return ok(c, await redeliver(c.get("db"), c.env, webhook_id, delivery_id));
  },
);

export default router;

/** Zod schemas of the webhooks routes (docs/events.md#webhooks, docs/operations.md#webhooks). */
import { jsonBody, pageQuery, pathId, z } from "../../http/openapi";
import { WEBHOOK_EVENT_TYPES } from "../events/catalogue";

/** How many endpoints a site may have: each event is queued once per endpoint that wants it. */
export const MAX_WEBHOOKS = 20;

const int = () => z.number().int();

const known = new Set<string>(WEBHOOK_EVENT_TYPES);

// Checked as a whole, so that an error names `event_types` as errors name every field (docs/errors.md).
const EventTypes = z
  .array(z.string().openapi({ enum: WEBHOOK_EVENT_TYPES }))
  .max(WEBHOOK_EVENT_TYPES.length)
  .refine((types) => types.every((type) => known.has(type)), "a type a webhook may receive (docs/events.md)")
  .refine((types) => new Set(types).size === types.length, "each type once")
  .openapi({ description: "the event types it receives; empty: every type a webhook may receive (docs/events.md)" });

const Url = z
  .string({ error: (issue) => (issue.input === undefined ? "required" : "must be a string") })
  .trim()
  .min(1, "must not be empty")
  .max(2000, "at most 2000 characters")
  .openapi({
    description: "https, to a public address: no loopback, private or link-local address, no local name",
    example: "https://hooks.example.com/mdclub",
  });

export const WebhookSchema = z
  .object({
    webhook_id: int(),
    url: z.string(),
    event_types: z.array(z.string()).openapi({ description: "empty: every type a webhook may receive" }),
    active: z.boolean().openapi({ description: "false: nothing is sent (stopped by hand, or see disabled_reason)" }),
    disabled_reason: z.enum(["", "gone", "failing"]).openapi({
      description: "`gone`: it answered 410; `failing`: every attempt failed for 3 days; '' otherwise",
    }),
    failing_since: int().openapi({ description: "when its current run of failed attempts began; 0 after a success" }),
    previous_secret_expire_time: int().openapi({
      description: "after a rotation, until when the previous secret signs too (a second signature); 0 otherwise",
    }),
    create_time: int(),
    update_time: int(),
  })
  .openapi("Webhook");

export type Webhook = z.infer<typeof WebhookSchema>;

export const WebhookWithSecretSchema = WebhookSchema.extend({
  secret: z.string().openapi({ description: "`whsec_…`: shown only here; deliveries are signed with it" }),
}).openapi("WebhookWithSecret");

export const WebhookEditedSchema = WebhookSchema.extend({
  secret: z.string().optional().openapi({ description: "only after `rotate_secret`: the new secret, shown only here" }),
}).openapi("WebhookEdited");

const WebhookCreateBody = z.object({
  url: Url,
  event_types: EventTypes.optional(),
  active: z.boolean().optional().openapi({ description: "default true" }),
});

const WebhookEditBody = z.object({
  url: Url.optional(),
  event_types: EventTypes.optional(),
  active: z.boolean().optional().openapi({ description: "true again clears disabled_reason and failing_since" }),
  rotate_secret: z.boolean().optional().openapi({
    description: "true: a new secret, shown in the answer; the previous one signs too for 24 hours",
  }),
});

export type WebhookCreate = z.infer<typeof WebhookCreateBody>;
export type WebhookEdit = z.infer<typeof WebhookEditBody>;

export const DeliverySchema = z
  .object({
    delivery_id: int(),
    webhook_id: int(),
    event_id: z.string().openapi({ description: "the `webhook-id` header: the same on every attempt of the event" }),
    event_type: z.string(),
    attempt: int().openapi({ description: "1 for the first attempt (of a delivery or a redelivery), then up" }),
    redelivery: z.boolean(),
    status_code: int().openapi({ description: "the endpoint's HTTP status; 0 when there was none" }),
    duration_ms: int(),
    error: z.string().openapi({ description: "why the attempt failed; '' for a 2xx" }),
    create_time: int(),
  })
  .openapi("WebhookDelivery");

export type Delivery = z.infer<typeof DeliverySchema>;

export const RedeliverySchema = z
  .object({ event_id: z.string(), webhook_id: int() })
  .openapi({ description: "the event queued again for the endpoint" });

export const WebhookIdParam = pathId("webhook_id");
export const DeliveryParams = z.object({ ...pathId("webhook_id").shape, ...pathId("delivery_id").shape });

export const WebhookPageQuery = z.object({ ...pageQuery });

export const createBody = jsonBody(WebhookCreateBody);
export const editBody = jsonBody(WebhookEditBody);

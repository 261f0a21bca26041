/** Zod schemas of the live routes (docs/events.md#live-updates). */
import { z } from "../../http/openapi";
import { CHANNEL_PATTERN } from "../events/channels";
import { LIMITS } from "./protocol";
import { TICKET_PATTERN } from "./service";

export const TicketSchema = z
  .object({
    ticket: z.string().openapi({ description: "opens one socket: GET /api/live?ticket=…" }),
    expire_time: z
      .number()
      .int()
      .openapi({ description: `when it stops working, ${LIMITS.ticketSeconds} s after now` }),
  })
  .openapi("LiveTicket");

const channelList = (value: string) => value.split(",");

export const LiveQuery = z.object({
  ticket: z
    .string()
    .regex(TICKET_PATTERN, "not a ticket")
    .optional()
    .openapi({ description: "from POST /api/live/tickets: the socket is the member's; without it, anonymous" }),
  last_event_id: z
    .string()
    .regex(/^evt_[0-9a-z]{1,40}$/, "not an event id")
    .optional()
    .openapi({ description: "the last event seen: what came after it is sent first, or `live.reload`" }),
  channels: z
    .string()
    .optional()
    .refine(
      (value) => value === undefined || channelList(value).every((channel) => CHANNEL_PATTERN.test(channel)),
      "comma-separated channels: question:<id>, article:<id>, topic:<id>",
    )
    .refine(
      (value) => value === undefined || channelList(value).length <= LIMITS.channels,
      `at most ${LIMITS.channels} channels`,
    )
    .openapi({ description: "channels to hold from the start, comma-separated (as a subscribe message would)" }),
});

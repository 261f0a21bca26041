/** POST /emails (docs/stats-captcha-mail.md#mass-mail): an administrator mails a list of addresses. */
import { createRoute } from "@hono/zod-openapi";
import { ok } from "../../http/envelope";
import { adminRequired, mailSettings, settled } from "../../http/middleware/context";
import { adminAccess, jsonBody, okResponse } from "../../http/openapi";
import { createRouter } from "../../http/router";
import { withMailer } from "../../lib/mail";
import { zodToApiError } from "../../lib/validation";
import { EmailBody, EmailSentSchema } from "./schema";
import { sendToEach } from "./service";

const router = createRouter();

router.openapi(
  createRoute({
    method: "post",
    path: "/emails",
    operationId: "sendEmail",
    tags: ["emails"],
    summary: "Send a mail to a list of addresses (administrators)",
    description:
      "Each address gets its own message, addressed to it alone. Sending stops at the first failure: 200002, with " +
      "`extra_message` saying how many were sent before it.",
    ...adminAccess,
    middleware: [adminRequired],
    request: { body: jsonBody(EmailBody) },
    responses: okResponse(EmailSentSchema),
  }),
  async (c) => {
    const body = c.req.valid("json");
    await settled(c);
    const options = mailSettings(c);
    const host = new URL(c.req.url).hostname;
    // One SMTP connection for the whole run, one message per recipient on it.
    await withMailer(options, host, (send) =>
      sendToEach(body.email, (to) => send({ to, subject: body.subject, html: body.content })),
    );
    return ok(c, body);
  },
  // A bad entry is reported under `email`, not `email.3`: the field the client filled in.
  (result) => {
    if (!result.success) throw zodToApiError(result.error, "body", (field) => field.split(".")[0] ?? field);
  },
);

export default router;

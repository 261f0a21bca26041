/**
 * The one table of error reasons: each name maps to the reference's numeric code (docs/errors.md)
 * and the HTTP status docs/decisions.md#http-status-fits-the-error gives it. Handlers throw `new
 * ApiError('QUESTION_NOT_FOUND')`; the app's error handler is the only place that writes error bodies.
 */
import type { ContentfulStatusCode } from "hono/utils/http-status";

const table = {
  SERVER_ERROR: [100000, 500, "Server error"],
  TOO_MANY_REQUESTS: [100002, 429, "Too many requests"],
  ROUTE_NOT_FOUND: [100004, 404, "API route not found"],
  METHOD_NOT_ALLOWED: [100005, 405, "HTTP method not allowed"],
  JSON_MALFORMED: [100006, 400, "Request body is not valid JSON"],
  // No reference code exists for an oversized body: it is a validation failure of the field `body`.
  BODY_TOO_LARGE: [200001, 413, "Request body is too large"],
  VALIDATION: [200001, 400, "Field validation failed"],
  EMAIL_SEND_FAILED: [200002, 502, "Sending e-mail failed"],
  // The reference's code for mail that cannot go out; 503 since the site, not the request, is at fault.
  MAIL_NOT_CONFIGURED: [200002, 503, "This site cannot send e-mail yet: its administrator must set smtp_host"],
  EMAIL_CODE_EXPIRED: [200003, 400, "The e-mail code has expired, request a new one"],
  IMAGE_UPLOAD_FAILED: [200004, 400, "Image upload failed"],
  IMAGE_NOT_FOUND: [200005, 404, "Image not found"],
  VOTE_TYPE_INVALID: [200006, 400, "Vote type must be up or down"],
  LOGIN_REQUIRED: [201001, 401, "Login required"],
  ADMIN_REQUIRED: [201002, 403, "Administrator permission required"],
  USER_NOT_FOUND: [201003, 404, "User not found"],
  AVATAR_UPLOAD_FAILED: [201007, 400, "Avatar upload failed"],
  COVER_UPLOAD_FAILED: [201008, 400, "Cover upload failed"],
  CANNOT_FOLLOW_YOURSELF: [201009, 400, "You cannot follow yourself"],
  QUESTION_NOT_FOUND: [202001, 404, "Question not found"],
  QUESTION_CANT_EDIT: [202002, 403, "Questions cannot be edited"],
  QUESTION_CANT_EDIT_NOT_AUTHOR: [202003, 403, "Only the author can edit this question"],
  QUESTION_CANT_EDIT_TIMEOUT: [202004, 403, "The time to edit this question has passed"],
  QUESTION_CANT_EDIT_HAS_ANSWER: [202005, 403, "A question with answers cannot be edited"],
  QUESTION_CANT_EDIT_HAS_COMMENT: [202006, 403, "A question with comments cannot be edited"],
  QUESTION_CANT_DELETE: [202007, 403, "Questions cannot be deleted"],
  QUESTION_CANT_DELETE_NOT_AUTHOR: [202008, 403, "Only the author can delete this question"],
  QUESTION_CANT_DELETE_TIMEOUT: [202009, 403, "The time to delete this question has passed"],
  QUESTION_CANT_DELETE_HAS_ANSWER: [202010, 403, "A question with answers cannot be deleted"],
  QUESTION_CANT_DELETE_HAS_COMMENT: [202011, 403, "A question with comments cannot be deleted"],
  ANSWER_NOT_FOUND: [203001, 404, "Answer not found"],
  ANSWER_CANT_EDIT: [203002, 403, "Answers cannot be edited"],
  ANSWER_CANT_EDIT_NOT_AUTHOR: [203003, 403, "Only the author can edit this answer"],
  ANSWER_CANT_EDIT_TIMEOUT: [203004, 403, "The time to edit this answer has passed"],
  ANSWER_CANT_EDIT_HAS_COMMENT: [203005, 403, "An answer with comments cannot be edited"],
  ANSWER_CANT_DELETE: [203006, 403, "Answers cannot be deleted"],
  ANSWER_CANT_DELETE_NOT_AUTHOR: [203007, 403, "Only the author can delete this answer"],
  ANSWER_CANT_DELETE_TIMEOUT: [203008, 403, "The time to delete this answer has passed"],
  ANSWER_CANT_DELETE_HAS_COMMENT: [203009, 403, "An answer with comments cannot be deleted"],
  COMMENT_NOT_FOUND: [204001, 404, "Comment not found"],
  COMMENT_CANT_EDIT: [204002, 403, "Comments cannot be edited"],
  COMMENT_CANT_EDIT_NOT_AUTHOR: [204003, 403, "Only the author can edit this comment"],
  COMMENT_CANT_EDIT_TIMEOUT: [204004, 403, "The time to edit this comment has passed"],
  COMMENT_CANT_DELETE: [204005, 403, "Comments cannot be deleted"],
  COMMENT_CANT_DELETE_NOT_AUTHOR: [204006, 403, "Only the author can delete this comment"],
  COMMENT_CANT_DELETE_TIMEOUT: [204007, 403, "The time to delete this comment has passed"],
  TOPIC_NOT_FOUND: [205001, 404, "Topic not found"],
  ARTICLE_NOT_FOUND: [206001, 404, "Article not found"],
  ARTICLE_CANT_EDIT: [206002, 403, "Articles cannot be edited"],
  ARTICLE_CANT_EDIT_NOT_AUTHOR: [206003, 403, "Only the author can edit this article"],
  ARTICLE_CANT_EDIT_TIMEOUT: [206004, 403, "The time to edit this article has passed"],
  ARTICLE_CANT_EDIT_HAS_COMMENT: [206005, 403, "An article with comments cannot be edited"],
  ARTICLE_CANT_DELETE: [206006, 403, "Articles cannot be deleted"],
  ARTICLE_CANT_DELETE_NOT_AUTHOR: [206007, 403, "Only the author can delete this article"],
  ARTICLE_CANT_DELETE_TIMEOUT: [206008, 403, "The time to delete this article has passed"],
  ARTICLE_CANT_DELETE_HAS_COMMENT: [206009, 403, "An article with comments cannot be deleted"],
  REPORT_TARGET_TYPE_INVALID: [207002, 400, "Report target type is invalid"],
  ALREADY_REPORTED: [207003, 409, "You have already reported this item"],
  NOTIFICATION_NOT_FOUND: [208001, 404, "Notification not found"],
  // Private messages and blocks (docs/messages.md#errors).
  MESSAGE_NOT_FOUND: [209001, 404, "Message not found"],
  CANNOT_MESSAGE_YOURSELF: [209002, 400, "You cannot write to yourself"],
  INBOX_NOT_ACCEPTED: [209003, 403, "This member does not accept messages from you"],
  INBOX_RECEIVER_DISABLED: [209004, 403, "This member's account is disabled"],
  INBOX_RECEIVER_BLOCKED: [209005, 403, "You block this member: unblock them to write to them"],
  INBOX_NEW_CONVERSATIONS_LIMIT: [209006, 429, "Too many new conversations in the last hour"],
  CONVERSATION_NOT_FOUND: [209007, 404, "You have no conversation with this member"],
  MESSAGE_CANT_DELETE: [209008, 403, "Messages cannot be withdrawn"],
  MESSAGE_CANT_DELETE_NOT_AUTHOR: [209009, 403, "Only the sender can withdraw this message"],
  MESSAGE_CANT_DELETE_TIMEOUT: [209010, 403, "The time to withdraw this message has passed"],
  CANNOT_BLOCK_YOURSELF: [209011, 400, "You cannot block yourself"],
  // Accepted answers and edit history (210001-210099; docs/errors.md#codes-beyond-the-reference).
  ACCEPT_NOT_ASKER: [210001, 403, "Only the question's author can accept an answer"],
  ANSWER_OF_ANOTHER_QUESTION: [210002, 400, "The answer belongs to another question"],
  REVISION_NOT_FOUND: [210003, 404, "Revision not found"],
  // Events leaving the database: webhooks and live sockets (docs/events.md), 211001-211099.
  WEBHOOK_NOT_FOUND: [211001, 404, "Webhook not found"],
  WEBHOOK_DELIVERY_NOT_FOUND: [211002, 404, "Webhook delivery not found"],
  WEBHOOK_LIMIT_REACHED: [211003, 409, "The site has as many webhooks as it may have"],
  WEBHOOK_INACTIVE: [211004, 409, "The webhook is not active"],
  LIVE_TICKET_INVALID: [211005, 401, "The live ticket is unknown, used or expired"],
  LIVE_UPGRADE_REQUIRED: [211006, 426, "This route answers WebSocket upgrades only"],
  LIVE_FULL: [211007, 503, "No more live sockets can be opened now, try again later"],
} as const satisfies Record<string, readonly [number, ContentfulStatusCode, string]>;

export type ErrorName = keyof typeof table;
export type FieldErrors = Record<string, string>;

export interface ApiErrorOptions {
  /** Per-field messages; only for validation failures (200001). */
  errors?: FieldErrors;
  /** Overrides the HTTP status, e.g. 409 for a taken username that is still a 200001. */
  status?: ContentfulStatusCode;
  message?: string;
  /** Extra top-level body fields (captcha_token, captcha_image, extra_message). */
  extra?: Record<string, unknown>;
  /** Response headers the refusal needs, e.g. `Retry-After` on a 429. */
  headers?: Record<string, string>;
}

export class ApiError extends Error {
  readonly code: number;
  readonly status: ContentfulStatusCode;
  readonly errors?: FieldErrors;
  readonly extra?: Record<string, unknown>;
  readonly headers?: Record<string, string>;

  constructor(
    readonly reason: ErrorName,
    options: ApiErrorOptions = {},
  ) {
    const [code, status, message] = table[reason];
    super(options.message ?? message);
    this.code = code;
    this.status = options.status ?? status;
    this.errors = options.errors;
    this.extra = options.extra;
    this.headers = options.headers;
  }

  toBody(): Record<string, unknown> {
    return { code: this.code, message: this.message, ...(this.errors && { errors: this.errors }), ...this.extra };
  }
}

/** A 200001 naming each failing field. */
export function validationError(errors: FieldErrors, status?: ContentfulStatusCode): ApiError {
  return new ApiError("VALIDATION", { errors, status });
}

/** Every reason's code and status, by name (test/lib.test.ts holds the table to the reference with it). */
export const errorCodes = Object.fromEntries(
  Object.entries(table).map(([name, [code, status]]) => [name, { code, status }]),
);

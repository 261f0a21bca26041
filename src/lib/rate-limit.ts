/**
 * Write limits (docs/security.md#write-limits): each write route belongs to a category, and each category has a Workers
 * Rate Limiting binding counting a logged-in caller's writes and one counting an address's writes. Reads that cost
 * more than a page of a list (a full-text search, docs/search.md#limits) are counted the same way, in their own
 * category. The numbers
 * live in wrangler.toml (`[[ratelimits]]`), so operators change them there; a binding left out switches that
 * count off. Defaults are several times what an active member does in a minute.
 */
import type { Bindings } from "../core/env";

export type LimitCategory =
  | "content"
  | "comments"
  | "votes"
  | "follows"
  | "reports"
  | "images"
  | "captchas"
  | "mails"
  | "search"
  | "messages"
  | "inbox"
  | "live"
  | "writes";

type LimiterName = { [K in keyof Bindings]-?: NonNullable<Bindings[K]> extends RateLimit ? K : never }[keyof Bindings];

/** Every binding's `period` in wrangler.toml: a refused caller may try again after it. */
export const LIMIT_PERIOD = 60;

/**
 * `user` counts by user id, `ip` by address (lib/client-info.ts: IPv6 by its /64). Captchas and mails are asked
 * for before logging in, so only their address is counted.
 */
export const LIMITERS: Record<LimitCategory, { user?: LimiterName; ip: LimiterName }> = {
  content: { user: "LIMIT_CONTENT_USER", ip: "LIMIT_CONTENT_IP" },
  comments: { user: "LIMIT_COMMENTS_USER", ip: "LIMIT_COMMENTS_IP" },
  votes: { user: "LIMIT_VOTES_USER", ip: "LIMIT_VOTES_IP" },
  follows: { user: "LIMIT_FOLLOWS_USER", ip: "LIMIT_FOLLOWS_IP" },
  reports: { user: "LIMIT_REPORTS_USER", ip: "LIMIT_REPORTS_IP" },
  images: { user: "LIMIT_IMAGES_USER", ip: "LIMIT_IMAGES_IP" },
  captchas: { ip: "LIMIT_CAPTCHAS_IP" },
  mails: { ip: "LIMIT_MAILS_IP" },
  search: { user: "LIMIT_SEARCH_USER", ip: "LIMIT_SEARCH_IP" },
  messages: { user: "LIMIT_MESSAGES_USER", ip: "LIMIT_MESSAGES_IP" },
  inbox: { user: "LIMIT_INBOX_USER", ip: "LIMIT_INBOX_IP" },
  live: { user: "LIMIT_LIVE_USER", ip: "LIMIT_LIVE_IP" },
  writes: { user: "LIMIT_WRITES_USER", ip: "LIMIT_WRITES_IP" },
};

const QUESTION = "/api/questions/:question_id";
const ARTICLE = "/api/articles/:article_id";
const VOTABLE = [QUESTION, "/api/answers/:answer_id", ARTICLE, "/api/comments/:comment_id"];
const FOLLOWABLE = ["/api/users/:user_id", "/api/topics/:topic_id", QUESTION, ARTICLE];
const each = (category: LimitCategory, ...routes: string[]) => routes.map((route) => [route, category] as const);
const votersOf = (path: string) => [`POST ${path}/voters`, `DELETE ${path}/voters`];
const followersOf = (path: string) => [`POST ${path}/followers`, `DELETE ${path}/followers`];

/**
 * Write routes, and the reads that are counted, (method and route path, http/middleware/route-key.ts) by category; any
 * other write is `writes`, any other read is not counted.
 */
export const CATEGORY_OF_ROUTE: ReadonlyMap<string, LimitCategory> = new Map<string, LimitCategory>([
  ...each(
    "content",
    "POST /api/questions",
    "PATCH /api/questions/:question_id",
    "POST /api/questions/:question_id/answers",
    "PATCH /api/answers/:answer_id",
    "POST /api/articles",
    "PATCH /api/articles/:article_id",
    "POST /api/topics",
    "POST /api/topics/:topic_id",
    "PATCH /api/topics/:topic_id",
    // A restore is an edit (docs/revisions.md#restore).
    "POST /api/questions/:question_id/revisions/:revision/restore",
    "POST /api/answers/:answer_id/revisions/:revision/restore",
    "POST /api/articles/:article_id/revisions/:revision/restore",
  ),
  ...each(
    "comments",
    "POST /api/questions/:question_id/comments",
    "POST /api/answers/:answer_id/comments",
    "POST /api/articles/:article_id/comments",
    "POST /api/comments/:comment_id/replies",
    "PATCH /api/comments/:comment_id",
  ),
  ...each("votes", ...VOTABLE.flatMap(votersOf)),
  ...each("follows", ...FOLLOWABLE.flatMap(followersOf)),
  ...each("reports", "POST /api/reports/:target", "DELETE /api/reports/:target"),
  ...each("images", "POST /api/images", "POST /api/user/avatar", "POST /api/user/cover"),
  ...each("captchas", "POST /api/captchas"),
  ...each("mails", "POST /api/user/register/email", "POST /api/user/password/email"),
  ...each("search", "GET /api/search"),
  // Private messages (docs/messages.md#limits): sending, and the rest of a member's own inbox and blocks.
  ...each("messages", "POST /api/inbox/:user_id"),
  ...each(
    "inbox",
    "POST /api/inbox/:user_id/read",
    "DELETE /api/inbox/:user_id",
    "DELETE /api/messages/:message_id",
    "DELETE /api/inbox/messages/:message_id",
    "PUT /api/user/blocks/:user_id",
    "DELETE /api/user/blocks/:user_id",
  ),
  ...each("live", "POST /api/live/tickets"),
]);

export const limitCategory = (route: string): LimitCategory => CATEGORY_OF_ROUTE.get(route) ?? "writes";

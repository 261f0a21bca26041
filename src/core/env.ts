/** Bindings of the Worker (wrangler.toml, secrets, `.dev.vars`). */
export interface Bindings {
  DB: D1Database;
  KV: KVNamespace;
  BUCKET: R2Bucket;
  /** "false" removes the Server-Timing header. */
  SERVER_TIMING?: string;
  /** Seconds an anonymous GET's answer is kept in the data centre's cache; "0" or absent: no edge cache. */
  EDGE_CACHE_SECONDS?: string;
  /** Seconds an isolate serves the settings it read without asking KV again; "0" or absent: every request asks. */
  OPTIONS_CACHE_SECONDS?: string;
  /** "true" answers errors with HTTP 200 (the original's way) for front ends built on the MDClub SDK. */
  LEGACY_ERROR_STATUS?: string;
  /**
   * "true" serves MDClub's own front ends (its admin panel): errors as HTTP 200 as LEGACY_ERROR_STATUS does, and the
   * settings read and written under MDClub's original names and values (docs/options.md#mdclub-compatibility).
   */
  MDCLUB_COMPAT?: string;
  /** "false" writes no per-request log line (a 500's error is still logged): http/middleware/request-log.ts. */
  REQUEST_LOG?: string;
  /** The first administrator, created when the users table is empty. */
  ADMIN_USERNAME?: string;
  ADMIN_EMAIL?: string;
  ADMIN_PASSWORD?: string;
  /** Secret mixed into every password hash (HMAC before PBKDF2), so a leaked database alone cannot be cracked. */
  PASSWORD_PEPPER?: string;
  /**
   * "true" writes each mail to the log instead of sending it when no `smtp_host` is set: for `npm run dev` only
   * (`.dev.vars.example`), since a mail holds codes that reset accounts (docs/stats-captcha-mail.md#transport).
   */
  MAIL_TO_LOG?: string;
  /** Comma-separated origins, besides the API's own, whose cookie-authenticated writes are accepted. */
  TRUSTED_ORIGINS?: string;
  /** Write limits (lib/rate-limit.ts), `[[ratelimits]]` in wrangler.toml; a missing one counts nothing. */
  LIMIT_CONTENT_USER?: RateLimit;
  LIMIT_CONTENT_IP?: RateLimit;
  LIMIT_COMMENTS_USER?: RateLimit;
  LIMIT_COMMENTS_IP?: RateLimit;
  LIMIT_VOTES_USER?: RateLimit;
  LIMIT_VOTES_IP?: RateLimit;
  LIMIT_FOLLOWS_USER?: RateLimit;
  LIMIT_FOLLOWS_IP?: RateLimit;
  LIMIT_REPORTS_USER?: RateLimit;
  LIMIT_REPORTS_IP?: RateLimit;
  LIMIT_IMAGES_USER?: RateLimit;
  LIMIT_IMAGES_IP?: RateLimit;
  LIMIT_CAPTCHAS_IP?: RateLimit;
  LIMIT_MAILS_IP?: RateLimit;
  LIMIT_SEARCH_USER?: RateLimit;
  LIMIT_SEARCH_IP?: RateLimit;
  LIMIT_WRITES_USER?: RateLimit;
  LIMIT_WRITES_IP?: RateLimit;
  /** Private messages sent, and the other writes of a member's inbox and blocks (docs/messages.md#limits). */
  LIMIT_MESSAGES_USER?: RateLimit;
  LIMIT_MESSAGES_IP?: RateLimit;
  LIMIT_INBOX_USER?: RateLimit;
  LIMIT_INBOX_IP?: RateLimit;
  /** The live sockets' Durable Objects (modules/live/hub.ts); its RPC methods are typed where it is called. */
  LIVE: DurableObjectNamespace;
  /** How many of them share the sockets (docs/events.md#scaling-the-sockets); absent: one. */
  LIVE_SHARDS?: string;
  /** Webhook deliveries waiting for their attempt (modules/webhooks/delivery.ts). */
  WEBHOOK_QUEUE: Queue;
  /** "true" lets webhooks be sent over http to loopback and private addresses: `npm run dev` only (.dev.vars). */
  WEBHOOK_ALLOW_LOCAL?: string;
  /** Live tickets (POST /api/live/tickets), by one user and from one address. */
  LIMIT_LIVE_USER?: RateLimit;
  LIMIT_LIVE_IP?: RateLimit;
}

/** MDClub's own front ends are served: settings under their original names (docs/options.md#mdclub-compatibility). */
export const mdclubCompat = (env: Bindings): boolean => env.MDCLUB_COMPAT === "true";

/** Errors answer HTTP 200, as the original did (docs/errors.md): LEGACY_ERROR_STATUS or MDCLUB_COMPAT. */
export const errorsAsOk = (env: Bindings): boolean => env.LEGACY_ERROR_STATUS === "true" || mdclubCompat(env);

/** Mails go to the log when no SMTP host is set: a development switch (Bindings.MAIL_TO_LOG). */
export const mailToLog = (env: Bindings): boolean => env.MAIL_TO_LOG === "true";

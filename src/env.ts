import type { D1Meter, Db } from "./db/client";
import type { UserRow } from "./db/schema";
import type { SiteOptions } from "./modules/options/fields";

/** Bindings and variables of the Worker (wrangler.toml, secrets, `.dev.vars`). */
export interface Bindings {
  DB: D1Database;
  KV: KVNamespace;
  BUCKET: R2Bucket;
  /** "false" removes the Server-Timing header. */
  SERVER_TIMING?: string;
  /** "true" answers errors with HTTP 200 (the original's way) for front ends built on the MDClub SDK. */
  LEGACY_ERROR_STATUS?: string;
  /** The first administrator, created when the users table is empty. */
  ADMIN_USERNAME?: string;
  ADMIN_EMAIL?: string;
  ADMIN_PASSWORD?: string;
  /** Secret mixed into every password hash (HMAC before PBKDF2), so a leaked database alone cannot be cracked. */
  PASSWORD_PEPPER?: string;
  /** Comma-separated origins, besides the API's own, whose cookie-authenticated writes are accepted. */
  TRUSTED_ORIGINS?: string;
}

/** The logged-in user making the request (never carries the password hash). */
export type Caller = Omit<UserRow, "password">;

export interface AppEnv {
  Bindings: Bindings;
  Variables: {
    db: Db;
    meter: D1Meter;
    caller: Caller | null;
    /** SHA-256 of the presented token, when it is valid. */
    tokenHash: string | null;
    options: SiteOptions;
  };
}

/**
 * `system_info` of GET /stats: what this deployment runs on. MDClub's admin dashboard reads nine fields named after
 * a PHP server; each answers what stands in its place on Workers, as a string
 * (docs/stats-captcha-mail.md#system-information, docs/decisions.md#system-information-describes-the-platform).
 */
import { honoVersion, version } from "../../core/version";
import { formatBytes } from "../../lib/bytes";
import { USER_IMAGE_UPLOAD_LIMIT } from "../avatars/service";
import { IMAGE_UPLOAD_LIMIT } from "../images/routes";
import { TOPIC_COVER_LIMIT } from "../topics/cover";
import type { SystemInfo } from "./schema";

/** The largest file any upload route takes (images, avatars and covers, topic covers). */
const UPLOAD_LIMIT = Math.max(IMAGE_UPLOAD_LIMIT, USER_IMAGE_UPLOAD_LIMIT, TOPIC_COVER_LIMIT);

/** `databaseBytes`: the size D1 reported with this request's results (db/client.ts `reportedDatabaseSize`). */
export function systemInfo(databaseBytes: number | undefined): SystemInfo {
  return {
    mdclub_version: `mdclub-edge ${version}`,
    os_version: "Cloudflare Workers (workerd; no operating system is exposed)",
    php_version: "none (TypeScript on V8)",
    webserver_version: `Cloudflare Workers, Hono ${honoVersion}`,
    // D1's authorizer refuses sqlite_version(): the engine is SQLite, its release is D1's to choose.
    database_version: "Cloudflare D1 (SQLite)",
    upload_max_filesize: formatBytes(UPLOAD_LIMIT),
    // Workers bound CPU time, not wall time; wrangler.toml sets no `limits.cpu_ms`, so the plan's default holds.
    max_execution_time: "30 s of CPU time per request (Workers Paid default; 10 ms on Workers Free)",
    disk_free_space: "no local disk: files go to R2 (no fixed quota), data to D1 (up to 10 GiB per database)",
    database_size: databaseBytes === undefined ? "unknown" : formatBytes(databaseBytes),
    version,
    runtime: "Cloudflare Workers",
    database: "Cloudflare D1",
    storage: "Cloudflare R2",
    cache: "Cloudflare Workers KV",
  };
}

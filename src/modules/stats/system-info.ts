/**
 * `system_info` of GET /stats: what this deployment runs on. The original reported PHP, web server and disk
 * figures (docs/stats-captcha-mail.md#statistics), none of which exist on Workers
 * (docs/decisions.md#system-information-describes-the-platform).
 */
import { version } from "../../../package.json";
import type { SystemInfo } from "./schema";

export const systemInfo: SystemInfo = {
  version,
  runtime: "Cloudflare Workers",
  database: "Cloudflare D1",
  storage: "Cloudflare R2",
  cache: "Cloudflare Workers KV",
};

/**
 * `system_info` of GET /stats: what this deployment runs on. The original reported PHP, web server and disk
 * figures (behaviour.md section 8), none of which exist on Workers (section 11 item 28).
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

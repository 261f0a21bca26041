import type { D1Migration } from "cloudflare:test";
import type { Bindings } from "../src/core/env";

declare global {
  namespace Cloudflare {
    interface Env extends Bindings {
      TEST_MIGRATIONS: D1Migration[];
      TEST_SMTP_PORT: string;
      TEST_MAILBOX_URL: string;
      /** The loopback webhook receiver of test/global-setup.ts. */
      TEST_WEBHOOK_RECEIVER: string;
      /** Workers Static Assets (wrangler.toml [assets]): public/, filled by scripts/copy-assets.mjs. */
      ASSETS: Fetcher;
    }
    interface GlobalProps {
      mainModule: typeof import("../src/index");
    }
  }
}

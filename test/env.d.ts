import type { D1Migration } from "cloudflare:test";
import type { Bindings } from "../src/core/env";

declare global {
  namespace Cloudflare {
    interface Env extends Bindings {
      TEST_MIGRATIONS: D1Migration[];
      TEST_SMTP_PORT: string;
      TEST_MAILBOX_URL: string;
    }
    interface GlobalProps {
      mainModule: typeof import("../src/index");
    }
  }
}

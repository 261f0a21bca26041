import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { freePort } from "./scripts/lib/free-port.mjs";

export default defineConfig(async () => {
  const migrations = await readD1Migrations("./drizzle");
  // The ports of the test mail servers and of the webhook receiver (test/global-setup.ts), chosen here and handed to
  // both sides: the global setup (Node) listens on them, the Worker connects to them.
  process.env.TEST_SMTP_PORT ??= String(await freePort());
  process.env.TEST_MAILBOX_PORT ??= String(await freePort());
  process.env.TEST_WEBHOOK_PORT ??= String(await freePort());
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            TEST_SMTP_PORT: process.env.TEST_SMTP_PORT,
            TEST_MAILBOX_URL: `http://127.0.0.1:${process.env.TEST_MAILBOX_PORT}`,
            TEST_WEBHOOK_RECEIVER: `http://127.0.0.1:${process.env.TEST_WEBHOOK_PORT}`,
            ADMIN_USERNAME: "root",
            ADMIN_EMAIL: "root@example.test",
            ADMIN_PASSWORD: "root-password",
            PASSWORD_PEPPER: "test-pepper-not-a-secret",
            // Factories write straight into D1, behind the API's back: only test/edge-cache.test.ts turns it on.
            EDGE_CACHE_SECONDS: "0",
            // Tests restore KV between them behind the isolate's back: only test/options-held.test.ts holds settings.
            OPTIONS_CACHE_SECONDS: "0",
            // The tests decide where webhooks may go (test/helpers/webhooks.ts turns loopback on where it is
            // wanted), not a developer's .dev.vars, which `npm run dev` writes with it on
            // (docs/events.md#where-webhooks-may-go).
            WEBHOOK_ALLOW_LOCAL: "false",
          },
        },
      }),
    ],
    test: {
      include: ["test/**/*.test.ts"],
      globalSetup: ["./test/global-setup.ts"],
      setupFiles: ["./test/apply-migrations.ts"],
      // Files share a worker, so Miniflare, workerd and the app's modules start once per worker, not once per file;
      // storage is still reset after every test (docs/performance.md#test-suite-time).
      isolate: false,
      // Three workers on two cores: a worker waits on D1 and the pool's messages as much as it computes, so a third
      // fills the gaps (docs/performance.md#test-suite-time).
      maxWorkers: 3,
      // Every request writes its JSON log line (http/middleware/request-log.ts); test/request-log.test.ts reads them
      // through a spy. Printed, they would bury the suite's output.
      onConsoleLog: (log: string) => !log.startsWith('{"id":'),
    },
  };
});

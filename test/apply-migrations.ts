// Every test starts from migrated, empty storage with mail going to the local SMTP server of global-setup.ts.
import { applyD1Migrations, reset } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach } from "vitest";

beforeEach(async () => {
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
  const smtp = { smtp_host: "127.0.0.1", smtp_port: Number(env.TEST_SMTP_PORT), smtp_secure: "" };
  await env.DB.batch(
    Object.entries(smtp).map(([name, value]) =>
      env.DB.prepare("INSERT INTO options (name, value) VALUES (?, ?)").bind(name, JSON.stringify(value)),
    ),
  );
});

afterEach(async () => {
  await reset();
});

// Every test starts from migrated, empty storage with mail going to the local SMTP server of global-setup.ts.
import { reset } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach } from "vitest";

/**
 * The schema of every migration, its record in `d1_migrations` as `applyD1Migrations` of cloudflare:test writes it,
 * and the test mail settings, as ONE batch: one round trip to D1 instead of that function's two plus one per
 * migration, which made the setup the largest part of the suite's time (docs/performance.md#test-suite-time). The
 * first statement creates `d1_migrations` without IF NOT EXISTS, so the batch (a transaction) fails and writes
 * nothing when `reset()` left the last test's tables behind.
 */
function setupBatch(): D1PreparedStatement[] {
  const smtp = { smtp_host: "127.0.0.1", smtp_port: Number(env.TEST_SMTP_PORT), smtp_secure: "" };
  return [
    env.DB.prepare(
      `CREATE TABLE "d1_migrations" (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE,
        applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)`,
    ),
    ...env.TEST_MIGRATIONS.flatMap((migration) => [
      ...migration.queries.map((query) => env.DB.prepare(query)),
      env.DB.prepare('INSERT INTO "d1_migrations" (name) VALUES (?)').bind(migration.name),
    ]),
    ...Object.entries(smtp).map(([name, value]) =>
      env.DB.prepare("INSERT INTO options (name, value) VALUES (?, ?)").bind(name, JSON.stringify(value)),
    ),
  ];
}

beforeEach(async () => {
  try {
    await env.DB.batch(setupBatch());
  } catch {
    await dropWhatResetLeft();
    await env.DB.batch(setupBatch());
  }
});

/**
 * `reset()` deletes every Durable Object's storage, D1's included, but once in a while leaves D1 as it was: seen in
 * test/security-matrix.test.ts after the mass mail (`POST /api/emails`) when another operation followed it, where
 * the next test then met the last one's rows. Whatever D1 still holds after it is dropped, so that no test ever
 * starts from another's data (the migrations then run again, as on a new database).
 */
async function dropWhatResetLeft(): Promise<void> {
  const { results } = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE %' AND name NOT LIKE 'sqlite_%' " +
      "AND name NOT LIKE '_cf_%' ORDER BY sql LIKE 'CREATE VIRTUAL%' DESC",
  ).all<{ name: string }>();
  if (results.length === 0) return;
  const { results: shadows } = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL%'",
  ).all<{ name: string }>();
  // A virtual table's shadow tables go with it.
  const owned = (name: string) => shadows.some((virtual) => name.startsWith(`${virtual.name}_`));
  const drops = results.filter(({ name }) => !owned(name)).map(({ name }) => `DROP TABLE IF EXISTS "${name}"`);
  await env.DB.batch([
    env.DB.prepare("PRAGMA defer_foreign_keys = ON"),
    ...drops.map((statement) => env.DB.prepare(statement)),
  ]);
}

afterEach(async () => {
  await reset();
});

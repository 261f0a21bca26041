import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { now } from "../src/lib/time";

async function count(table: string): Promise<number> {
  return (await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>())!.n;
}

describe("scheduled clean-up (Cron Trigger)", () => {
  it("purges expired tokens and codes and old throttle events, and keeps live ones", async () => {
    const t = now();
    await env.DB.batch([
      env.DB.prepare("INSERT INTO tokens (token, user_id, expire_time) VALUES ('old', 1, ?), ('live', 1, ?)").bind(
        t - 1,
        t + 3600,
      ),
      env.DB.prepare(
        "INSERT INTO email_codes (purpose, email, code, expire_time) VALUES ('register', 'a@x.test', 'h', ?), ('register', 'b@x.test', 'h', ?)",
      ).bind(t - 1, t + 3600),
      env.DB.prepare(
        "INSERT INTO throttles (action, subject, create_time) VALUES ('login_ip', '1.2.3.4', ?), ('login_ip', '1.2.3.4', ?)",
      ).bind(t - 7200, t - 10),
    ]);
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "17 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await count("tokens")).toBe(1);
    expect(await count("email_codes")).toBe(1);
    expect(await count("throttles")).toBe(1);
    expect((await env.DB.prepare("SELECT token FROM tokens").first<{ token: string }>())!.token).toBe("live");
  });
});

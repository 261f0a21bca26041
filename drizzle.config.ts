import { defineConfig } from "drizzle-kit";

// The webhook tables have a file of their own (docs/events.md#webhooks), so that schema.ts stays within 400 lines.
export default defineConfig({
  dialect: "sqlite",
  schema: ["./src/db/schema.ts", "./src/db/webhook-tables.ts"],
  out: "./drizzle",
});

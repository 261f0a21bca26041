import { defineConfig } from "drizzle-kit";

// The bookmark and revision tables, and the webhook tables, have files of their own (docs/events.md#webhooks), so
// that schema.ts stays within 400 lines.
export default defineConfig({
  dialect: "sqlite",
  schema: ["./src/db/schema.ts", "./src/db/schema-bookmarks-revisions.ts", "./src/db/webhook-tables.ts"],
  out: "./drizzle",
});

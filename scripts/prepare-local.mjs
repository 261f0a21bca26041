// Runs before `npm run dev`: gives a fresh clone its local secrets and an up-to-date local D1.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync } from "node:fs";

if (!existsSync(".dev.vars")) {
  copyFileSync(".dev.vars.example", ".dev.vars");
  console.log("Created .dev.vars from .dev.vars.example (the first administrator's credentials: see README).");
}
execFileSync("wrangler", ["d1", "migrations", "apply", "DB", "--local"], {
  stdio: ["ignore", "inherit", "inherit"],
  env: { ...process.env, CI: "true" },
});

// Runs before `npm run dev`: gives a fresh clone its local secrets and an up-to-date local D1.
import { execFileSync } from "node:child_process";
import { appendFileSync, copyFileSync, existsSync, readFileSync } from "node:fs";

const names = (text) => new Set([...text.matchAll(/^([A-Z0-9_]+)=/gm)].map((match) => match[1]));

if (!existsSync(".dev.vars")) {
  copyFileSync(".dev.vars.example", ".dev.vars");
  console.log("Created .dev.vars from .dev.vars.example (the first administrator's credentials: see README).");
} else {
  // A checkout older than a required secret gets the example's value for it, not a broken login. Optional ones
  // (the ADMIN_* trio) may have been removed on purpose and are left alone.
  const required = new Set(["PASSWORD_PEPPER"]);
  const example = readFileSync(".dev.vars.example", "utf8");
  const present = names(readFileSync(".dev.vars", "utf8"));
  const missing = example
    .split("\n")
    .filter((line) => required.has(line.split("=")[0]) && !present.has(line.split("=")[0]));
  if (missing.length) {
    appendFileSync(".dev.vars", `\n${missing.join("\n")}\n`);
    console.log(`Added to .dev.vars from .dev.vars.example: ${missing.map((line) => line.split("=")[0]).join(", ")}`);
  }
}
execFileSync("wrangler", ["d1", "migrations", "apply", "DB", "--local"], {
  stdio: ["ignore", "inherit", "inherit"],
  env: { ...process.env, CI: "true" },
});

// Runs a TypeScript entry of this repository under Node (the MDClub importer's CLI): esbuild bundles it with the
// repository's own modules into .wrangler/tmp/ (one file per run, removed after it), packages stay external (loaded
// from the checkout's node_modules, hence inside the checkout), and what only workerd has (WebAssembly imports,
// `cloudflare:` modules) becomes stubs (lib/node-bundle.mjs).
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { basename } from "node:path";
import { build } from "esbuild";
import { workerOnly } from "./lib/node-bundle.mjs";

const [entry, ...args] = process.argv.slice(2);
const outfile = `.wrangler/tmp/${basename(entry, ".ts")}-${process.pid}.mjs`;
await build({
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22",
  packages: "external",
  logLevel: "warning",
  plugins: [workerOnly],
});
const run = spawnSync(process.execPath, [outfile, ...args], { stdio: "inherit" });
rmSync(outfile, { force: true });
process.exit(run.status ?? 1);

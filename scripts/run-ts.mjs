// Runs a TypeScript entry of this repository under Node (the MDClub importer's CLI, its benchmark): esbuild bundles
// it with the repository's own modules into .wrangler/tmp/, packages stay external (loaded from node_modules), and
// WebAssembly imports, which only the Worker uses (image resizing), become empty stubs.
import { spawnSync } from "node:child_process";
import { basename } from "node:path";
import { build } from "esbuild";

const [entry, ...args] = process.argv.slice(2);
const outfile = `.wrangler/tmp/${basename(entry, ".ts")}.mjs`;
await build({
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22",
  packages: "external",
  logLevel: "warning",
  plugins: [
    {
      name: "wasm-stub",
      setup(plugin) {
        plugin.onResolve({ filter: /\.wasm$/ }, (found) => ({ path: found.path, namespace: "wasm-stub" }));
        plugin.onLoad({ filter: /.*/, namespace: "wasm-stub" }, () => ({ contents: "export default undefined;" }));
      },
    },
  ],
});
const run = spawnSync(process.execPath, [outfile, ...args], { stdio: "inherit" });
process.exit(run.status ?? 1);

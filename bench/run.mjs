// `npm run bench [name …] [-- --option=value …]`: bundles each benchmark in bench/ (or the named ones) and runs it
// in Node. `content` and `html` measure the CPU milliseconds of the Worker's own source in Node (workerd's V8);
// `load` serves the project and a reference Worker under `wrangler dev` and loads both (minutes); `profile` runs
// both Workers in Node over the same data and profiles their requests. See each file's header. Options after `--`
// go to every benchmark run.
import { execFileSync } from "node:child_process";
import { readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";

const args = process.argv.slice(2);
const wanted = args.filter((arg) => !arg.startsWith("--"));
const options = args.filter((arg) => arg.startsWith("--"));
/**
 * Modules only workerd has (`cloudflare:sockets` for mail) and WebAssembly the Worker imports as modules (image
 * resizing) become stubs: no benchmarked path uses them, and Node could not load them.
 */
const workerOnly = {
  name: "worker-only-modules",
  setup(build) {
    build.onResolve({ filter: /^cloudflare:|\.wasm$/ }, (args) => ({ path: args.path, namespace: "worker-only" }));
    build.onLoad({ filter: /.*/, namespace: "worker-only" }, (args) => ({
      contents: `const missing = () => { throw new Error("${args.path} is not available in Node"); };
        export const connect = missing; export default undefined;`,
      loader: "js",
    }));
  },
};
const known = readdirSync("bench")
  .filter((file) => file.endsWith(".ts"))
  .map((file) => file.slice(0, -3));
const unknown = wanted.filter((name) => !known.includes(name));
if (unknown.length) {
  console.error(`No benchmark ${unknown.join(", ")}; there are: ${known.join(", ")}`);
  process.exit(1);
}
// A benchmark that started servers stops them on Ctrl-C itself; this process waits for it to finish doing so.
process.on("SIGINT", () => {});
// Outside the checkout (node_modules may be shared with other checkouts), one directory per run.
const out = join(tmpdir(), `mdclub-bench-build-${process.pid}`);
process.on("exit", () => rmSync(out, { recursive: true, force: true }));
for (const name of known.filter((name) => wanted.length === 0 || wanted.includes(name))) {
  const outfile = join(out, `${name}.mjs`);
  await build({
    entryPoints: [`bench/${name}.ts`],
    bundle: true,
    platform: "node",
    format: "esm",
    outfile,
    plugins: [workerOnly],
    logLevel: "warning",
  });
  console.log(`\n=== bench/${name}.ts`);
  try {
    execFileSync(process.execPath, [outfile, ...options], { stdio: "inherit" });
  } catch (error) {
    process.exitCode = error.status ?? 1;
    break;
  }
}

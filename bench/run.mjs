// `npm run bench [name …] [-- --option=value …]`: bundles each benchmark in bench/ (or the named ones) and runs it
// in Node. `content` and `html` measure the CPU milliseconds of the Worker's own source in Node (workerd's V8);
// `load` serves the project and a reference Worker under `wrangler dev` and loads both (minutes); `profile` runs
// both Workers in Node over the same data and profiles their requests. See each file's header. Options after `--`
// go to every benchmark run.
import { execFileSync } from "node:child_process";
import { readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundleForNode } from "../scripts/lib/node-bundle.mjs";

const args = process.argv.slice(2);
const wanted = args.filter((arg) => !arg.startsWith("--"));
const options = args.filter((arg) => arg.startsWith("--"));
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
  await bundleForNode(`bench/${name}.ts`, outfile);
  console.log(`\n=== bench/${name}.ts`);
  try {
    execFileSync(process.execPath, [outfile, ...options], { stdio: "inherit" });
  } catch (error) {
    process.exitCode = error.status ?? 1;
    break;
  }
}

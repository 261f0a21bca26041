// `npm run bench [name …]`: bundles each benchmark in bench/ (or the named ones) with the Worker's own source and
// runs it in Node, which has workerd's V8. Figures are CPU milliseconds; see each file's header.
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { build } from "esbuild";

const wanted = process.argv.slice(2);
const names = readdirSync("bench")
  .filter((file) => file.endsWith(".ts"))
  .map((file) => file.slice(0, -3))
  .filter((name) => wanted.length === 0 || wanted.includes(name));
for (const name of names) {
  const outfile = `node_modules/.cache/bench/${name}.mjs`;
  await build({
    entryPoints: [`bench/${name}.ts`],
    bundle: true,
    platform: "node",
    format: "esm",
    outfile,
    logLevel: "warning",
  });
  console.log(`\n=== bench/${name}.ts`);
  execFileSync(process.execPath, [outfile], { stdio: "inherit" });
}

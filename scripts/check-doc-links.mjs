// Every citation of the docs resolves: a `docs/<file>.md#<anchor>` in the code (src/, test/, bench/, scripts/,
// seed/, tools/ and the config files) and every relative link of the Markdown files names a file that exists and a
// heading of it. Anchors are GitHub's heading slugs (docs/README.md#citing-these-documents). Run by `npm run lint`.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

const CODE_ROOTS = ["src", "test", "bench", "scripts", "seed", "tools", ".ci"];
const CODE_FILES = ["wrangler.toml", "biome.json", "vitest.config.ts", "drizzle.config.ts", "package.json"];
const SKIP = new Set(["node_modules", "dist", "public", ".wrangler"]);

function walk(path, out = []) {
  if (!existsSync(path)) return out;
  if (!statSync(path).isDirectory()) {
    out.push(path);
    return out;
  }
  for (const name of readdirSync(path)) if (!SKIP.has(name)) walk(join(path, name), out);
  return out;
}

/** GitHub's slug of a heading: lower case, punctuation dropped (`-` and `_` kept), spaces to `-`. */
const slug = (heading) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");

const anchorCache = new Map();
function anchorsOf(file) {
  if (!anchorCache.has(file)) {
    const anchors = new Set();
    let fenced = false;
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (/^```/.test(line)) fenced = !fenced;
      const heading = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
      if (!heading) continue;
      const base = slug(heading[1]);
      let anchor = base;
      for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
      anchors.add(anchor);
    }
    anchorCache.set(file, anchors);
  }
  return anchorCache.get(file);
}

const problems = [];
function check(from, target, anchor) {
  const file = normalize(target);
  if (!existsSync(file)) problems.push(`${from}: ${target} does not exist`);
  else if (anchor && file.endsWith(".md") && !anchorsOf(file).has(anchor))
    problems.push(`${from}: ${target} has no heading #${anchor}`);
}

const codeFiles = [...CODE_ROOTS.flatMap((root) => walk(root)), ...CODE_FILES.filter((file) => existsSync(file))];
for (const file of codeFiles.filter((name) => !/\.(png|jpg|gif|webp|wasm|sql)$/.test(name))) {
  const text = readFileSync(file, "utf8");
  for (const match of text.matchAll(/(?<![\w/.-])docs\/([\w-]+\.md)(?:#([\w-]+))?/g)) {
    check(file, join("docs", match[1]), match[2]);
  }
}

const markdown = [...readdirSync(".").filter((name) => name.endsWith(".md")), ...walk("docs")].filter((name) =>
  name.endsWith(".md"),
);
for (const file of markdown) {
  let fenced = false;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (/^```/.test(line)) fenced = !fenced;
    if (fenced) continue;
    for (const match of line.matchAll(/\]\(([^)\s]*)\)/g)) {
      const link = match[1];
      if (/^[a-z]+:/.test(link)) continue;
      const [path, anchor] = link.split("#");
      check(file, path ? relative(".", join(dirname(file), path)) : file, anchor);
    }
  }
}

if (problems.length) {
  for (const problem of problems) console.error(problem);
  console.error(`${problems.length} citations of the docs do not resolve`);
  process.exit(1);
}

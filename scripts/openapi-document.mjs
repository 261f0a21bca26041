// Writes the app's OpenAPI document (the one GET /api/openapi.json answers) to a file, without a server: the app is
// bundled for Node, with the Workers-only modules (sockets, WebAssembly) stubbed, as building the document never
// calls them. Used by `npm run lint:openapi` and the typed client's generation (docs/api-reference.md#lint).
// Usage: node scripts/openapi-document.mjs [OUT] (default dist/openapi.json)
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

const out = resolve(process.argv[2] ?? "dist/openapi.json");
const bundle = resolve("dist/openapi-document/app.mjs");

await build({
  stdin: { contents: 'export { createApp, documentConfig } from "./src/app";', resolveDir: ".", loader: "ts" },
  bundle: true,
  platform: "node",
  format: "esm",
  outfile: bundle,
  logLevel: "warning",
  loader: { ".wasm": "empty" },
  plugins: [
    {
      name: "workers-only",
      setup(build) {
        build.onResolve({ filter: /^cloudflare:/ }, (args) => ({ path: args.path, namespace: "workers-only" }));
        build.onLoad({ filter: /.*/, namespace: "workers-only" }, () => ({ contents: "export default {};" }));
      },
    },
  ],
});

const { createApp, documentConfig } = await import(pathToFileURL(bundle).href);
// A reserved name (RFC 2606) stands for wherever the API is deployed; the served document names its own origin.
const document = createApp().getOpenAPIDocument(documentConfig("https://mdclub-api.invalid"));
rmSync(dirname(bundle), { recursive: true, force: true });
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(document, null, 2)}\n`);
console.log(`wrote ${out}`);

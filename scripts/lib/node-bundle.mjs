// Bundles the Worker's own TypeScript for Node (benchmarks, operations scripts). Modules only workerd has
// (`cloudflare:sockets` for mail) and WebAssembly the Worker imports as modules (image resizing) become stubs:
// nothing run this way uses them, and Node could not load them.
import { build } from "esbuild";

export const workerOnly = {
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

/** `entry` and what it imports as one ES module at `outfile`. */
export async function bundleForNode(entry, outfile) {
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "esm",
    outfile,
    plugins: [workerOnly],
    logLevel: "warning",
  });
}

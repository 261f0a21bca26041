// Fills public/ (Workers Static Assets, wrangler.toml [assets]) with files taken from installed packages rather
// than committed: Scalar's standalone script (~4.4 MB) for the API reference page at /api/docs, which must load
// nothing from a CDN (docs/api-reference.md#the-reference-page). Run by postinstall, predev, pretest, build, deploy and
// bundle-size.
import { copyFileSync, mkdirSync } from "node:fs";

// The package's exports map hides its dist/browser build from require.resolve: the path is the installed file's.
mkdirSync("public/scalar", { recursive: true });
copyFileSync("node_modules/@scalar/api-reference/dist/browser/standalone.js", "public/scalar/standalone.js");

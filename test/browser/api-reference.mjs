// `npm run test:browser`: the API reference page in a real browser (docs/api-reference.md#the-reference-page). Starts `wrangler dev` on
// a free port (or PORT) with a fresh local database, opens /api/docs in headless Chromium (Debian's `chromium`,
// driven by playwright-core) with every request off this machine refused, and checks that the title and every
// operation group render, that "Test Request" on GET /api/options shows the answer, and that the page asked nothing
// of the internet. Saves a screenshot to dist/api-reference.png, or to SCREENSHOT (e.g. docs/api-reference.png).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startDev } from "../../scripts/lib/dev-server.mjs";
import { freePort } from "../../scripts/lib/free-port.mjs";
import { CHROMIUM, CHROMIUM_ARGS } from "./chromium.mjs";

const TITLE = "MDClub-compatible community API";

function check(condition, message) {
  if (!condition) throw new Error(message);
}

const listen = process.env.PORT ? Number(process.env.PORT) : await freePort();
const state = mkdtempSync(join(tmpdir(), "mdclub-browser-"));
const env = { CI: "true" };
execFileSync("node", ["scripts/copy-assets.mjs"], { stdio: "inherit" });
execFileSync("wrangler", ["d1", "migrations", "apply", "DB", "--local", "--persist-to", state], {
  env: { ...process.env, ...env },
  stdio: "ignore",
});
let server;
let browser;
try {
  server = await startDev(listen, ["--persist-to", state, "--show-interactive-dev-session=false"], env);
  const { origin } = server;
  const document = await (await fetch(`${origin}/api/openapi.json`)).json();
  const groups = [
    ...new Set(Object.values(document.paths).flatMap((item) => Object.values(item).flatMap((op) => op.tags))),
  ];

  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  // The page must need nothing but this origin: anything else is refused and counted.
  const elsewhere = [];
  await page.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith(origin) || url.startsWith("data:") || url.startsWith("blob:")) return route.continue();
    elsewhere.push(url);
    return route.abort();
  });

  await page.goto(`${origin}/api/docs`);
  await page.getByRole("heading", { name: TITLE }).first().waitFor();
  // The tab names the release too (src/http/api-reference.ts): the document's version, package.json's.
  check((await page.title()) === `${TITLE} ${document.info.version}`, `title: ${await page.title()}`);
  for (const group of groups) await page.locator(`a[href="#tag/${group}"]`).first().waitFor();
  await page.screenshot({ path: process.env.SCREENSHOT ?? "dist/api-reference.png" });

  // "Try it": the operation's test request, sent from the page to this origin, and its answer shown.
  await page.goto(`${origin}/api/docs#tag/options/GET/api/options`);
  await page.getByRole("button", { name: "Test Request (get /api/options)" }).click();
  await page
    .getByRole("button", { name: /^Send get request to/ })
    .first()
    .click();
  const response = page.locator('section[aria-label="Response"]');
  await response.getByText("200 OK").waitFor();
  await page.waitForFunction(() => {
    const text = document.querySelector('section[aria-label="Response"]')?.textContent ?? "";
    return text.includes('"code": 0') && text.includes('"site_name"');
  });
  check(elsewhere.length === 0, `the page asked for other origins: ${elsewhere.join(", ")}`);
  console.log(`ok: ${TITLE} at ${origin}/api/docs, ${groups.length} operation groups, GET /api/options tried: 200`);
} finally {
  await browser?.close();
  await server?.stop();
  rmSync(state, { recursive: true, force: true });
}

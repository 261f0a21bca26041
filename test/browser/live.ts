// `npm run test:browser` (its second part): a member's browser shows a notification live
// (docs/events.md#what-a-front-end-does-to-stay-live). Starts `wrangler dev` with two members and a question
// (bench/lib/live-world.ts), opens a page of the API's own origin in headless Chromium as the asker, whose script gets
// a ticket and holds a live socket; then the answerer answers through the API, and the notification must appear in
// the page without a reload. Saves a screenshot to dist/live.png, or to SCREENSHOT.
import { chromium } from "playwright-core";
import { api } from "../../bench/lib/api";
import { liveWorld } from "../../bench/lib/live-world";
import { CHROMIUM, CHROMIUM_ARGS } from "./chromium.mjs";

/** What a front end does to stay live, in a page's few lines: ticket, socket, render what comes. */
const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Live</title></head>
<body>
<h1>Notifications</h1>
<p id="status">connecting</p>
<ul id="notifications"></ul>
<script>
  window.loadedOnce = Math.random();
  const token = "__TOKEN__";
  async function connect() {
    const res = await fetch("/api/live/tickets", { method: "POST", headers: { token } });
    const { data } = await res.json();
    const socket = new WebSocket("ws://" + location.host + "/api/live?ticket=" + data.ticket);
    socket.onclose = (event) => (document.getElementById("status").textContent = "closed " + event.code);
    socket.onmessage = (message) => {
      const event = JSON.parse(message.data);
      if (event.type === "live.ready") document.getElementById("status").textContent = "live";
      if (event.type !== "notification.created") return;
      const item = document.createElement("li");
      item.className = "notification";
      const sender = event.data.relationships.sender.username;
      item.textContent = sender + " answered " + event.data.relationships.question.title;
      document.getElementById("notifications").append(item);
    };
  }
  connect().catch((error) => (document.getElementById("status").textContent = "failed: " + error));
</script>
</body></html>`;

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

const world = await liveWorld("browser-live");
const { origin } = world.server;
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage({ viewport: { width: 900, height: 500 } });
  const elsewhere: string[] = [];
  await page.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith(origin)) return route.continue();
    elsewhere.push(url);
    return route.abort();
  });
  // The page is written into a document of the API's own origin (as a front end served from it would be): Chromium
  // lets only a page loaded from loopback open a socket to loopback.
  await page.goto(`${origin}/api/options`);
  await page.setContent(PAGE.replace("__TOKEN__", world.asker.token));
  let navigations = 0;
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) navigations += 1;
  });
  const status = page.locator("#status");
  await status.filter({ hasNotText: "connecting" }).waitFor({ timeout: 15_000 });
  check((await status.textContent()) === "live", `the socket did not open: ${await status.textContent()}`);
  const loadedOnce = () => page.evaluate("window.loadedOnce") as Promise<number>;
  const marker = await loadedOnce();

  const body = { content_markdown: "It arrives while you watch." };
  await api(origin, "POST", `/api/questions/${world.question}/answers`, world.answerer.token, body);
  const item = page.locator("li.notification");
  await item.waitFor({ timeout: 15_000 });
  check((await item.textContent()) === "answerer answered What changes live?", `shown: ${await item.textContent()}`);
  const after = await loadedOnce();
  check(after === marker && navigations === 0, `the page reloaded (navigations: ${navigations})`);
  check(elsewhere.length === 0, `the page asked for other origins: ${elsewhere.join(", ")}`);
  await page.screenshot({ path: process.env.SCREENSHOT ?? "dist/live.png" });
  console.log(`ok: a notification shown live in Chromium at ${origin}, without a reload`);
} finally {
  await browser.close();
  await world.server.stop();
}

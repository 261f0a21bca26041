// `npm run seed [-- --port N | --url URL]`: fills the local database with the demo community (seed/), through the
// API of the local server, and prints the logins. Uses the server already running on the port (`npm run dev`,
// 8787 by default); with none there, runs `wrangler dev` itself (on --port, or a free port) and stops it after.
// Registration codes are mailed: the script runs an SMTP server on loopback, points the site's `smtp_*` settings
// at it while it seeds, and puts them back after (README, Demo data).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import libqp from "libqp";
import { SMTPServer } from "smtp-server";
import { SeedError, seedCommunity } from "../seed/seed-community.ts";
import { answers, startDev } from "./lib/dev-server.mjs";
import { freePort } from "./lib/free-port.mjs";

const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : args.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1];
};

/** `wrangler dev` on `port`, as `npm run dev` runs it (its local state, `.dev.vars` made first). */
function startLocalDev(port) {
  execFileSync("node", ["scripts/prepare-local.mjs"], { stdio: ["ignore", "ignore", "inherit"] });
  return startDev(port);
}

/** An SMTP server on loopback that keeps the code of each registration mail, by recipient. */
async function startMailbox() {
  const codes = new Map();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks = [];
      stream.on("data", (chunk) => chunks.push(chunk));
      stream.on("end", () => {
        const code = /<strong>([a-z0-9]{6})<\/strong>/.exec(
          libqp.decode(Buffer.concat(chunks).toString()).toString("utf8"),
        );
        if (code) for (const to of session.envelope.rcptTo) codes.set(to.address.toLowerCase(), code[1]);
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  async function codeFor(email) {
    for (let waited = 0; waited < 15_000; waited += 100) {
      const code = codes.get(email.toLowerCase());
      if (code) {
        codes.delete(email.toLowerCase());
        return code;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new SeedError(`no registration mail reached the seed's SMTP server for ${email}`);
  }
  return { smtp: { host: "127.0.0.1", port }, codeFor, close: () => new Promise((resolve) => server.close(resolve)) };
}

function devVars() {
  const vars = {};
  if (!existsSync(".dev.vars")) return vars;
  for (const [, name, value] of readFileSync(".dev.vars", "utf8").matchAll(/^([A-Z0-9_]+)=(.*)$/gm)) {
    vars[name] = value.trim().replace(/^"(.*)"$/, "$1");
  }
  return vars;
}

async function main() {
  const port = Number(option("port") ?? 8787);
  let baseUrl = (option("url") ?? `http://127.0.0.1:${port}`).replace(/\/$/, "");
  // It seeds a local database only: the demo logins are public, and a production site's mail settings are not its to
  // touch.
  if (!["127.0.0.1", "localhost", "[::1]"].includes(new URL(baseUrl).hostname)) {
    throw new SeedError(`${baseUrl} is not a local server: npm run seed fills the local database only`);
  }
  let dev = null;
  if (!(await answers(baseUrl))) {
    if (option("url")) throw new Error(`nothing answers at ${baseUrl}/api/options`);
    const chosen = option("port") ? port : await freePort();
    console.log(`No server on ${baseUrl}: starting wrangler dev on port ${chosen} for the seed.`);
    dev = await startLocalDev(chosen);
    baseUrl = dev.origin;
  }
  const vars = { ...devVars(), ...process.env };
  if (!vars.ADMIN_USERNAME || !vars.ADMIN_PASSWORD) {
    throw new Error("ADMIN_USERNAME and ADMIN_PASSWORD are needed (.dev.vars, created by `npm run dev`)");
  }
  const mailbox = await startMailbox();
  try {
    const summary = await seedCommunity({
      fetch,
      baseUrl,
      admin: { name: vars.ADMIN_USERNAME, password: vars.ADMIN_PASSWORD },
      mailbox,
      log: (line) => console.log(`  ${line}`),
    });
    const counts = Object.entries(summary.counts).map(([kind, n]) => `${n} ${kind.replace("notif", "unread notif")}`);
    if (summary.seeded) console.log(`\nSeeded the demo community at ${baseUrl}: ${counts.join(", ")}.`);
    else {
      console.log(`\nThe database behind ${baseUrl} already holds the demo community (${counts.join(", ")}).`);
      console.log("Nothing was written. To start again: stop the server, delete .wrangler/state, run npm run seed.");
    }
    console.log(`\nLogins (POST /api/tokens {"name", "password"}):`);
    const width = Math.max(...summary.logins.map((login) => login.username.length)) + 2;
    for (const login of summary.logins) {
      const role = login.role === "admin" ? "  (administrator, from .dev.vars)" : "";
      console.log(`  ${login.username.padEnd(width)}${login.password}${role}`);
    }
  } finally {
    await mailbox.close();
    if (dev) await dev.stop();
  }
}

main().catch((error) => {
  console.error(`npm run seed failed: ${error instanceof SeedError ? error.message : (error.stack ?? error)}`);
  process.exitCode = 1;
});

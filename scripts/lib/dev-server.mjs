// `wrangler dev` started by a script (`npm run seed`, `npm run test:browser`): the server started as `npm run dev`
// runs it, ready once the API answers, and stopped with the workerd it runs.
import { spawn } from "node:child_process";

/** Whether the API at `origin` answers now. */
export async function answers(origin) {
  try {
    const res = await fetch(`${origin}/api/options`, { signal: AbortSignal.timeout(2000) });
    return res.ok;
  } catch {
    return false;
  }
}

/**
 * `wrangler dev` on `port` with `extra` arguments (`--persist-to DIR` …); resolves with its origin and `stop()` once
 * the API answers, or fails with the end of its output after 90 s or if it exits.
 */
export async function startDev(port, extra = [], env = {}) {
  const child = spawn("wrangler", ["dev", "--ip", "127.0.0.1", "--port", String(port), ...extra], {
    env: { ...process.env, X_LOCAL_OBSERVABILITY: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", ...env },
    // Its own process group: wrangler runs workerd as a child, and stop() ends both.
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const stop = () => {
    if (child.exitCode !== null) return Promise.resolve();
    const exited = new Promise((resolve) => child.once("exit", resolve));
    process.kill(-child.pid, "SIGTERM");
    return exited;
  };
  const origin = `http://127.0.0.1:${port}`;
  for (let waited = 0; waited < 90_000 && child.exitCode === null; waited += 500) {
    if (await answers(origin)) return { origin, stop };
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await stop();
  throw new Error(`wrangler dev did not start on port ${port}:\n${output.slice(-2000)}`);
}

/**
 * CPU time of the HTML path (htmlToMarkdown: bounds, parse5, sanitise, convert) on hostile HTML of up to
 * MAX_RENDERED_BYTES, in Node (same V8 as workerd). `npm run bench html`; best of RUNS per
 * input, in CPU milliseconds. Every input should stay well under 50 ms, or be refused.
 */
import { MAX_RENDERED_BYTES } from "../src/lib/content-limits";
import { htmlToMarkdown } from "../src/lib/html-to-markdown";
import { HOSTILE_HTML } from "../test/helpers/hostile-html";
import { bestCpuMs } from "./lib/cpu";

const RUNS = 5;

// Warm the JIT so the first input measured does not pay for it.
const warm = "<p>Hello <b>world</b></p><ul><li>a</li></ul><table><tr><td>1</td></tr></table>";
for (let i = 0; i < 20; i++) htmlToMarkdown(warm);

console.log(`limit ${MAX_RENDERED_BYTES} bytes\n${"input".padEnd(52)}   chars      ms  verdict`);
let worst = { name: "", ms: 0 };
for (const [name, html] of Object.entries(HOSTILE_HTML)) {
  let verdict = "";
  const ms = bestCpuMs(RUNS, () => {
    try {
      verdict = `${htmlToMarkdown(html).length} chars of markdown`;
    } catch (error) {
      verdict = `refused: ${(error as Error).message}`;
    }
  });
  if (ms > worst.ms) worst = { name, ms };
  console.log(`${name.padEnd(52)} ${String(html.length).padStart(7)} ${ms.toFixed(1).padStart(7)}  ${verdict}`);
}
console.log(`\nworst: ${worst.name}, ${worst.ms.toFixed(1)} ms of CPU`);

/**
 * CPU time of the HTML path of a content write (processContent with content_rendered: bounds, parse5, sanitise,
 * convert to markdown, then the markdown path) on hostile HTML of up to MAX_RENDERED_BYTES, in Node (same V8 as
 * workerd). `npm run bench html`; mean CPU milliseconds of the request's thread per input (bench/lib/cpu.ts).
 * Every input should stay under 50 ms, or be refused.
 */
import { MAX_RENDERED_BYTES } from "../src/lib/content-limits";
import { processContent } from "../src/lib/markdown";
import { HOSTILE_HTML } from "../test/helpers/hostile-html";
import { meanCpuMs } from "./lib/cpu";

// Warm the JIT so the first input measured does not pay for it.
const warm = "<p>Hello <b>world</b></p><ul><li>a</li></ul><table><tr><td>1</td></tr></table>";
for (let i = 0; i < 20; i++) processContent({ content_rendered: warm });

console.log(`limit ${MAX_RENDERED_BYTES} bytes\n${"input".padEnd(52)}   chars      ms  verdict`);
let worst = { name: "", ms: 0 };
for (const [name, html] of Object.entries(HOSTILE_HTML)) {
  let verdict = "";
  const ms = meanCpuMs(() => {
    const result = processContent({ content_rendered: html });
    verdict = result.ok
      ? `200, ${result.content.content_markdown.length} chars of markdown`
      : `200001: ${result.errors.content_rendered}`;
  });
  if (ms > worst.ms) worst = { name, ms };
  console.log(`${name.padEnd(52)} ${String(html.length).padStart(7)} ${ms.toFixed(1).padStart(7)}  ${verdict}`);
}
console.log(`\nworst: ${worst.name}, ${worst.ms.toFixed(1)} ms of CPU`);

/**
 * CPU time of the content pipeline (processContent: bounds, parse, scrub, render, sanitise) on every hostile
 * source of test/helpers/content-corpus.ts and on real long documents, in Node with the Worker's own source
 * (same V8 as workerd). `npm run bench content`; mean CPU milliseconds of the request's thread per input
 * (bench/lib/cpu.ts).
 */
import { processContent } from "../src/lib/markdown";
import { MARKDOWN_CORPUS, REAL_DOCUMENTS } from "../test/helpers/content-corpus";
import { meanCpuMs } from "./lib/cpu";

// Warm the JIT so the first input measured does not pay for it.
for (const markdown of Object.values(REAL_DOCUMENTS)) processContent({ content_markdown: markdown });

let worst = { name: "", ms: 0 };
for (const [group, corpus] of [
  ["hostile", MARKDOWN_CORPUS],
  ["real", REAL_DOCUMENTS],
] as const) {
  console.log(`\n${group} inputs${" ".repeat(40)}chars      ms  verdict`);
  for (const [name, markdown] of Object.entries(corpus)) {
    let verdict = "";
    const best = meanCpuMs(() => {
      const result = processContent({ content_markdown: markdown });
      verdict = result.ok
        ? `200, ${result.content.content_rendered.length} chars of HTML`
        : `200001: ${result.errors.content_markdown}`;
    });
    if (best > worst.ms) worst = { name, ms: best };
    console.log(`${name.padEnd(52)} ${String(markdown.length).padStart(7)} ${best.toFixed(1).padStart(7)}  ${verdict}`);
  }
}
console.log(`\nworst: ${worst.name}, ${worst.ms.toFixed(1)} ms of CPU`);

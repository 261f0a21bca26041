/**
 * V8 CPU profiles of this process (node:inspector), their self time summed by area of the code. A sample in the
 * bundle is placed in the module whose `// path` comment (esbuild's, unminified) comes before its line; a native
 * function counts for its JavaScript caller's area. JSON.stringify has no frame of its own: the functions that
 * write the body with it (the project's `json` in src/http/envelope.ts, Hono's `c.json`, the reference's `json`) are
 * the JSON area.
 */
import { readFileSync } from "node:fs";
import { Session } from "node:inspector/promises";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

export interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame; children?: number[] }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A profile of this process while `work` runs, sampled every `intervalUs` microseconds. */
export async function profileOf(work: () => Promise<void>, intervalUs: number): Promise<CpuProfile> {
  const session = new Session();
  session.connect();
  try {
    await session.post("Profiler.enable");
    await session.post("Profiler.setSamplingInterval", { interval: intervalUs });
    await session.post("Profiler.start");
    const stop = () => session.post("Profiler.stop");
    try {
      await work();
    } catch (error) {
      await stop();
      throw error;
    }
    const { profile } = await stop();
    return profile as unknown as CpuProfile;
  } finally {
    session.disconnect();
  }
}

/** The start lines of the bundle's modules and their paths (from `node_modules/`, `src/` or `bench/` on). */
class ModuleMap {
  private readonly starts: number[] = [];
  private readonly paths: string[] = [];

  constructor(source: string) {
    source.split("\n").forEach((line, index) => {
      const found = /^\/\/ (\S+\.(?:[cm]?js|ts|json))$/.exec(line);
      if (!found) return;
      const path = found[1] as string;
      const packaged = path.lastIndexOf("node_modules/");
      this.starts.push(index);
      this.paths.push(packaged >= 0 ? path.slice(packaged) : path.replace(/^(\.\.\/)+/, ""));
    });
  }

  at(line: number): string {
    let [low, high, found] = [0, this.starts.length - 1, "(bundle prelude)"];
    while (low <= high) {
      const middle = (low + high) >> 1;
      if ((this.starts[middle] as number) <= line) {
        found = this.paths[middle] as string;
        low = middle + 1;
      } else high = middle - 1;
    }
    return found;
  }
}

/** Areas of a request's work, in the terms of issue 10: routing, validation, SQL building, JSON, markdown ... */
const AREAS: [RegExp, string][] = [
  [/node_modules\/hono\/dist\/(router|hono-base|compose|hono\.js|utils\/url)/, "routing (Hono router, compose)"],
  [/node_modules\/hono\/dist\/middleware\/etag/, "ETag (Hono etag: body clone, SHA-1)"],
  [/node_modules\/hono\//, "Hono context, request, response"],
  [/node_modules\/(zod|@hono\/zod-|@asteasolutions|openapi3-ts)/, "validation (zod, zod-openapi)"],
  [/node_modules\/drizzle-orm\//, "Drizzle: building SQL, mapping rows"],
  [/node_modules\/(markdown-it|linkify|mdurl|uc\.micro|punycode|parse5|hast|mdast|micromark|entities)/, "markdown"],
  [/^src\/lib\/(markdown|sanitize|html-to)/, "markdown"],
  [/^src\/db\//, "app: metered D1 client, batch plan (src/db)"],
  [/^src\/(http|app|index)/, "app: middleware, handlers (src/http, app)"],
  [/^src\/(behaviours|modules|domain)\//, "app: queries, relations, records"],
  [/^src\//, "app: other (src/lib, core)"],
  [/^bench\/reference\//, "reference Worker's own code"],
  [/^bench\/lib\/in-process/, "D1: SQLite and D1's row objects"],
  [/^bench\//, "benchmark harness (sending, timing)"],
  [/^node:internal\/(deps\/undici|webstreams|streams|url|blob|encoding)/, "runtime: Request, Response, streams, URL"],
  [/^node:internal\/crypto/, "runtime: WebCrypto"],
  [/^node:/, "runtime: other"],
];

export const areaOf = (module: string) => AREAS.find(([pattern]) => pattern.test(module))?.[1] ?? `other: ${module}`;

export interface Summary {
  /** Sampled microseconds (idle left out) by area, and by function (`name module`). */
  areas: Map<string, number>;
  functions: Map<string, number>;
  busyUs: number;
}

/** Self time by area and by function; `bundle` is the file this process runs (for its module comments). */
export function summarise(profile: CpuProfile, bundle: string): Summary {
  const modules = new ModuleMap(readFileSync(bundle, "utf8"));
  const bundleUrl = new URL(`file://${bundle}`).href;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);

  const moduleOf = (frame: CallFrame) => (frame.url === bundleUrl ? modules.at(frame.lineNumber) : frame.url);
  /** The area of a node: its module's, or for a native function its nearest JavaScript caller's. */
  const placeOf = (id: number): { area: string; module: string } => {
    const frame = nodes.get(id)?.callFrame as CallFrame;
    if (frame.functionName === "(garbage collector)") return { area: "garbage collection", module: "" };
    if (frame.functionName === "(program)") return { area: "(program): V8 and Node outside JS", module: "" };
    if (!frame.url) {
      const parent = parents.get(id);
      return parent === undefined ? { area: "runtime: other", module: "" } : { ...placeOf(parent), module: "(native)" };
    }
    const module = moduleOf(frame);
    // JSON.stringify is a builtin with no frame of its own: its time is its caller's, the body writer.
    // (esbuild renames a second `json` in the bundle `json2`.)
    if (
      /^json\d*$/.test(frame.functionName) &&
      /hono\/dist\/context|src\/http\/envelope|bench\/reference/.test(module)
    ) {
      return { area: "JSON: the body's JSON.stringify", module };
    }
    return { area: areaOf(module), module };
  };

  const summary: Summary = { areas: new Map(), functions: new Map(), busyUs: 0 };
  const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);
  profile.samples.forEach((id, index) => {
    const frame = nodes.get(id)?.callFrame;
    // A sample lasts until the next one.
    const us = profile.timeDeltas[index + 1] ?? 0;
    if (!frame || frame.functionName === "(idle)" || frame.functionName === "(root)") return;
    const { area, module } = placeOf(id);
    summary.busyUs += us;
    add(summary.areas, area, us);
    add(summary.functions, `${frame.functionName || "(anonymous)"} ${module}`.trim(), us);
  });
  return summary;
}

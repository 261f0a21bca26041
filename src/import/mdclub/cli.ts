/**
 * `npm run import:mdclub -- DUMP.sql [--uploads DIR] [--prefix mc_] [--remote] [--force]`
 * (docs/migrating-from-mdclub.md).
 * The Node side of the importer, kept thin: it streams the file, picks the target, shows progress and the summary,
 * and copies files. Everything else is importer.ts, which the Workers test pool runs on `env.DB` as well.
 *
 * - Local (default): the D1, KV and R2 of `npm run dev` (.wrangler/state), opened with wrangler's `getPlatformProxy`
 *   and written through their bindings, as the tests write
 *   (docs/decisions.md#the-mdclub-importer-writes-through-a-d1-binding).
 * - `--remote`: the production database through `wrangler d1 execute --remote --file` on SQL files of at most a few
 *   megabytes, and files through `wrangler r2 object put --remote`.
 * - `--via-wrangler`: that same path against the local database, to rehearse a production import.
 * - `--persist-to DIR`: a local state other than `npm run dev`'s, as `wrangler dev --persist-to` takes it (the
 *   benchmark, bench/mdclub-import.ts, imports into a temporary one).
 */
import { execFile, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs, promisify } from "node:util";
import { inlineParams, type Statement } from "../../lib/sql-text";
import { d1Target } from "./d1-target";
import { type FileReference, forgetMissingFiles, type ImportReport, type ImportTarget, importDump } from "./importer";

const OPTIONS_KV_KEY = "options:v1";

// Node's WebCrypto has no MD5, which workerd offers and lib/storage.ts uses to place a user's files
// (docs/images.md#where-files-are-stored): the same digest from node:crypto, for this process only.
const digest = crypto.subtle.digest.bind(crypto.subtle);
crypto.subtle.digest = (async (algorithm: string | { name: string }, data: BufferSource) => {
  const name = typeof algorithm === "string" ? algorithm : algorithm.name;
  if (name.toUpperCase() !== "MD5") return digest(algorithm, data);
  const bytes = ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : data;
  return new Uint8Array(
    createHash("md5")
      .update(new Uint8Array(bytes as ArrayBuffer))
      .digest(),
  ).buffer;
}) as typeof crypto.subtle.digest;

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    uploads: { type: "string" },
    prefix: { type: "string", default: "mc_" },
    remote: { type: "boolean", default: false },
    "via-wrangler": { type: "boolean", default: false },
    "persist-to": { type: "string" },
    "files-in-r2": { type: "boolean", default: false },
    force: { type: "boolean", default: false },
  },
});
const dumpPath = positionals[0];
if (!dumpPath || !existsSync(dumpPath)) {
  console.error("usage: npm run import:mdclub -- DUMP.sql [--uploads DIR] [--prefix mc_] [--remote] [--force]");
  process.exit(2);
}

const persistTo = args["persist-to"];
/** Local commands take the state folder, when one is given. */
const local = persistTo ? ["--local", "--persist-to", persistTo] : ["--local"];

const wrangler = (...rest: string[]) =>
  execFileSync("wrangler", rest, {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, CI: "true" },
  });

interface Side {
  target: ImportTarget;
  /** Files copied at once. */
  copiesAtOnce: number;
  putFile(key: string, path: string, contentType: string): Promise<void>;
  forgetCachedSettings(): Promise<void>;
  close(): Promise<void>;
}

async function localSide(): Promise<Side> {
  const { getPlatformProxy } = await import("wrangler");
  // wrangler keeps its state under `<persist-to>/v3`.
  const persist = persistTo ? { path: join(persistTo, "v3") } : true;
  const proxy = await getPlatformProxy<{ DB: D1Database; KV: KVNamespace; BUCKET: R2Bucket }>({ persist });
  return {
    target: d1Target(proxy.env.DB),
    copiesAtOnce: 8,
    async putFile(key, path, contentType) {
      await proxy.env.BUCKET.put(key, readFileSync(path), {
        httpMetadata: { contentType, cacheControl: "public, max-age=31536000, immutable" },
      });
    },
    forgetCachedSettings: () => proxy.env.KV.delete(OPTIONS_KV_KEY),
    close: () => proxy.dispose(),
  };
}

/** The R2 bucket of the `BUCKET` binding in wrangler.toml (`wrangler r2 object put` takes a bucket name). */
function bucketName(): string {
  const config = readFileSync("wrangler.toml", "utf8");
  return /\[\[r2_buckets\]\][^[]*?bucket_name\s*=\s*"([^"]+)"/.exec(config)?.[1] ?? "app-bucket";
}

/** Statements inlined into SQL files for `wrangler d1 execute --file` (D1's import takes whole files). */
function wranglerSide(where: string[]): Side {
  const bucket = bucketName();
  const dir = mkdtempSync(join(tmpdir(), "mdclub-import-"));
  let file = 0;
  return {
    // A remote copy is one `wrangler` process per file, about 2 s each, mostly its start: eight at once. Local
    // `wrangler r2` processes at once fail on the shared state (tried: HTTP 500), so there one at a time.
    copiesAtOnce: where.includes("--remote") ? 8 : 1,
    target: {
      async execute(statements) {
        if (statements.length === 0) return;
        const path = join(dir, `${++file}.sql`);
        writeFileSync(path, `${statements.map(inlineParams).join(";\n")};\n`);
        wrangler("d1", "execute", "DB", ...where, "--yes", "--file", path);
        rmSync(path);
      },
      async query<T>(statement: Statement) {
        const out = wrangler("d1", "execute", "DB", ...where, "--json", "--command", inlineParams(statement));
        return (JSON.parse(out) as { results: T[] }[])[0]?.results ?? [];
      },
    },
    async putFile(key, path, contentType) {
      const put = ["r2", "object", "put", `${bucket}/${key}`, ...where, "--file", path, "--content-type", contentType];
      await promisify(execFile)("wrangler", put, { env: { ...process.env, CI: "true" } });
    },
    async forgetCachedSettings() {
      wrangler("kv", "key", "delete", "--binding", "KV", ...where, OPTIONS_KV_KEY);
    },
    async close() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
};
const typeOf = (key: string) => TYPES[key.slice(key.lastIndexOf(".") + 1).toLowerCase()] ?? "application/octet-stream";

function variant(path: string, size: string): string {
  const dot = path.lastIndexOf(".");
  return `${path.slice(0, dot)}_${size}${path.slice(dot)}`;
}

/** Copies each referenced file and its sizes from MDClub's upload folder; a missing size reuses the original. */
/** Copies each referenced file and its sizes from MDClub's upload folder; a missing size reuses the original. */
async function copyFiles(side: Side, files: FileReference[], uploads: string) {
  const result = { copied: 0, missing: [] as FileReference[] };
  let done = 0;
  const copy = async (file: FileReference) => {
    const found = file.candidates.find((candidate) => existsSync(join(uploads, candidate)));
    if (!found) {
      result.missing.push(file);
      return;
    }
    const original = join(uploads, found);
    await side.putFile(file.key, original, typeOf(file.key));
    for (const size of file.sizes) {
      const sized = join(uploads, variant(found, size));
      await side.putFile(variant(file.key, size), existsSync(sized) ? sized : original, typeOf(file.key));
    }
    result.copied++;
  };
  const queue = [...files];
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      await copy(file);
      done++;
      progress(`files ${done}/${files.length}`, done / files.length);
    }
  };
  await Promise.all(Array.from({ length: side.copiesAtOnce }, worker));
  process.stderr.write("\n");
  return result;
}

function progress(label: string, fraction: number) {
  const width = 30;
  const done = Math.round(Math.min(1, fraction) * width);
  process.stderr.write(
    `\r[${"#".repeat(done)}${".".repeat(width - done)}] ${(fraction * 100).toFixed(0)}% ${label}   `,
  );
}

function printSummary(report: ImportReport, files: string) {
  const rows = Object.entries(report.tables).map(([table, t]) => ({
    table,
    read: t.read,
    imported: t.imported,
    skipped: Object.entries(t.skipped)
      .map(([reason, n]) => `${n}: ${reason}`)
      .join("; "),
    notes: [
      ...Object.entries(t.notes).map(([note, n]) => `${n}: ${note}`),
      ...(t.unknownColumns.length ? [`unknown columns dropped: ${t.unknownColumns.join(", ")}`] : []),
    ].join("; "),
  }));
  console.log("\nTables");
  console.table(rows);
  if (Object.keys(report.unknownTables).length) {
    console.log("Tables this importer does not know (not imported):", report.unknownTables);
    const prefix = Object.keys(report.unknownTables)
      .find((table) => table.endsWith("user"))
      ?.slice(0, -"user".length);
    if (prefix && Object.keys(report.tables).length === 0) console.log(`Is the table prefix --prefix ${prefix} ?`);
  }
  console.log(`Settings: ${Object.keys(report.options.values).length} imported`);
  for (const [name, why] of Object.entries(report.options.refused)) console.log(`  not imported: ${name}: ${why}`);
  if (report.options.unknown.length) console.log(`  unknown to this API: ${report.options.unknown.join(", ")}`);
  console.log("Counters recounted from the imported rows; rows whose dumped value differed:");
  if (report.counters.length === 0) console.log("  none");
  for (const c of report.counters) console.log(`  ${c.counter}: ${c.rows}`);
  console.log(`Files: ${files}`);
  const documents = Object.entries(report.indexed).map(([type, n]) => `${n} ${type}`);
  console.log(`Search index: ${documents.join(", ") || "empty"} documents written`);
}

async function main() {
  const started = performance.now();
  const remote = args.remote ?? false;
  // The schema first: the importer writes into this API's tables.
  const where = remote ? ["--remote"] : local;
  wrangler("d1", "migrations", "apply", "DB", ...where);
  const side = remote || args["via-wrangler"] ? wranglerSide(where) : await localSide();
  try {
    const size = statSync(dumpPath as string).size;
    let bytes = 0;
    const stream = createReadStream(dumpPath as string, { highWaterMark: 1 << 20 });
    const chunks = (async function* () {
      const decoder = new TextDecoder("utf-8");
      for await (const chunk of stream) {
        bytes += (chunk as Buffer).length;
        // `stream: true` keeps a character cut by the chunk's end for the next one.
        yield decoder.decode(chunk as Buffer, { stream: true });
      }
      yield decoder.decode();
    })();
    const report = await importDump(chunks, side.target, {
      prefix: args.prefix,
      force: args.force,
      onProgress: (rowsRead) => progress(`${rowsRead} rows`, bytes / size),
      onIndexProgress: (kind, documents) => process.stderr.write(`\rsearch index: ${documents} ${kind} documents   `),
    });
    process.stderr.write("\n");
    await side.forgetCachedSettings();

    let files = `${report.files.length} referenced, none copied (no --uploads): avatars and covers show the default
  images; content image rows keep their keys and links, their URLs answer 404 until the files are copied`;
    let missing = report.files;
    if (args["files-in-r2"]) {
      files = `${report.files.length} referenced, kept as they are (--files-in-r2: copied to R2 beforehand)`;
      missing = [];
    } else if (args.uploads) {
      const copied = await copyFiles(side, report.files, args.uploads);
      missing = copied.missing;
      files = `${copied.copied} of ${report.files.length} copied to R2`;
      const names = missing.slice(0, 10).map((file) => file.key);
      if (missing.length) files += `; ${missing.length} missing in ${args.uploads} (${names.join(", ")} …)`;
    }
    await forgetMissingFiles(side.target, missing);
    printSummary(report, files);
    const peak = (process.resourceUsage().maxRSS / 1024).toFixed(0);
    console.log(`Done in ${((performance.now() - started) / 1000).toFixed(1)} s; this process peaked at ${peak} MB.`);
  } finally {
    await side.close();
  }
}

main().catch((error) => {
  console.error(`\n${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

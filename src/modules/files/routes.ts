/**
 * Stored files and default images, mounted at the root (docs/decisions.md#platform: `storage_url` defaults to this
 * Worker's `/upload`, `site_static_url` to its `/static`). A stored file never changes under its name, so it is
 * cached for a year; every answer carries an ETag and a matching If-None-Match gets 304.
 */
import type { Context, MiddlewareHandler } from "hono";
import { ApiError } from "../../core/errors";
import type { AppEnv } from "../../http/app-env";
import { createRouter } from "../../http/router";
import { etagMatches } from "../../lib/etag";
import { IMMUTABLE, PUBLIC_FOLDERS } from "../../lib/storage";
import { defaultImage } from "./defaults";

/** Defaults are no stored files: a new drawing would keep its name, so caches keep them a month, not a year. */
const DEFAULT_CACHE = "public, max-age=2592000";

interface FileHeaders {
  type: string;
  size: number;
  cacheControl: string;
  etag: string;
}

/** 304 when the client's copy is current, else the file (headers only for HEAD). */
function answer(c: Context<AppEnv>, body: ReadableStream | Uint8Array | null, file: FileHeaders): Response {
  const headers: Record<string, string> = { "Cache-Control": file.cacheControl, ETag: file.etag };
  if (etagMatches(c.req.header("if-none-match"), file.etag)) return new Response(null, { status: 304, headers });
  Object.assign(headers, { "Content-Type": file.type, "Content-Length": String(file.size) });
  return new Response(c.req.method === "HEAD" ? null : body, { headers });
}

const router = createRouter();

/**
 * Stored files are uploads, and a file a browser takes for HTML or SVG could run script on this origin: every
 * answer here, errors included, forbids sniffing a type and, should a page render anyway, loading or running
 * anything in it.
 */
const fileHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  c.res.headers.set("Content-Security-Policy", "default-src 'none'; sandbox");
  c.res.headers.set("X-Content-Type-Options", "nosniff");
};
router.use("/upload/*", fileHeaders);
router.use("/static/default/*", fileHeaders);

const stored = (object: R2Object): FileHeaders => ({
  type: object.httpMetadata?.contentType ?? "application/octet-stream",
  size: object.size,
  cacheControl: IMMUTABLE,
  etag: object.httpEtag,
});

router.get("/upload/*", async (c) => {
  const key = c.req.path.slice("/upload/".length);
  if (!PUBLIC_FOLDERS.includes(key.split("/")[0] as string)) throw new ApiError("IMAGE_NOT_FOUND");
  const bucket = c.env.BUCKET;
  // A HEAD or a revalidation needs no body (files never change, so a revalidation nearly always matches),
  // and R2's head reads none.
  const object =
    c.req.method === "HEAD" || c.req.header("if-none-match") !== undefined
      ? await bucket.head(key)
      : await bucket.get(key);
  if (!object) throw new ApiError("IMAGE_NOT_FOUND");
  if ("body" in object) return answer(c, (object as R2ObjectBody).body, stored(object));
  if (c.req.method === "HEAD" || etagMatches(c.req.header("if-none-match"), object.httpEtag))
    return answer(c, null, stored(object));
  const changed = await bucket.get(key);
  if (!changed) throw new ApiError("IMAGE_NOT_FOUND");
  return answer(c, changed.body, stored(changed));
});

router.get("/static/default/:name", async (c) => {
  const image = await defaultImage(c.req.param("name"));
  if (!image) throw new ApiError("IMAGE_NOT_FOUND");
  return answer(c, image.bytes, {
    type: image.mime,
    size: image.bytes.length,
    cacheControl: DEFAULT_CACHE,
    etag: image.etag,
  });
});

export default router;

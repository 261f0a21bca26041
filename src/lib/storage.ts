/**
 * Where stored files live in R2 (docs/images.md) and how an uploaded image becomes a set of files: the original
 * plus its derived sizes, `<dir>/<name>.<ext>` and `<dir>/<name>_<size>.<ext>`. Names are 32 random hex digits,
 * so a new upload always has new URLs and every stored file can be cached for a year (docs/decisions.md#platform).
 */
import { toHex } from "./crypto";
import { ImageError } from "./images/image-error";
import type { ImageType } from "./images/sniff";
import { type ImageSize, inspectImage, renderVariants } from "./images/variants";

export type { ImageSize };

/** Stored files never change under a name, so caches may keep them for a year without asking again. */
export const IMMUTABLE = "public, max-age=31536000, immutable";

/** Content images (POST /api/images). */
export const CONTENT_IMAGE_SIZES: readonly ImageSize[] = [
  { name: "thumb", width: 132, height: 88 },
  { name: "release", width: 702, height: 0 },
];
export const AVATAR_SIZES: readonly ImageSize[] = [
  { name: "small", width: 64, height: 64 },
  { name: "middle", width: 128, height: 128 },
  { name: "large", width: 256, height: 256 },
];
export const USER_COVER_SIZES: readonly ImageSize[] = [
  { name: "small", width: 600, height: 336 },
  { name: "middle", width: 1050, height: 588 },
  { name: "large", width: 1450, height: 812 },
];
export const TOPIC_COVER_SIZES: readonly ImageSize[] = [
  { name: "small", width: 360, height: 202 },
  { name: "middle", width: 720, height: 404 },
  { name: "large", width: 1080, height: 606 },
];

export type OwnerFolder = "user-avatar" | "user-cover" | "topic-cover";

/**
 * The top folders /upload/ serves (modules/files). A module that stores another kind of public file adds its
 * folder here; anything else in the bucket stays private.
 */
export const PUBLIC_FOLDERS: readonly string[] = ["image", "user-avatar", "user-cover", "topic-cover"];

/** A new file name: 32 random hex digits and the extension of the file's real type. */
function newFileName(ext: string): string {
  return `${toHex(crypto.getRandomValues(new Uint8Array(16)))}.${ext}`;
}

/** `image/<YYYY-MM>/<DD>/<first 2 characters of the name>/<name>`, dated (UTC) by the image's create_time. */
export function contentImagePath(name: string, createTime: number): string {
  const day = new Date(createTime * 1000).toISOString();
  return `image/${day.slice(0, 7)}/${day.slice(8, 10)}/${name.slice(0, 2)}/${name}`;
}

/** `<folder>/<md5(id)[0..2]>/<md5(id)[2..4]>`: the folder of a user's avatar or cover, or a topic's cover. */
export async function ownerFolder(folder: OwnerFolder, id: number): Promise<string> {
  // Workers' WebCrypto offers MD5 for interoperability; here it only spreads files over folders.
  const md5 = toHex(await crypto.subtle.digest("MD5", new TextEncoder().encode(String(id))));
  return `${folder}/${md5.slice(0, 2)}/${md5.slice(2, 4)}`;
}

/** `a/b/name.png` -> `a/b/name_thumb.png`. */
export function variantPath(path: string, size: string): string {
  const dot = path.lastIndexOf(".");
  return dot > path.lastIndexOf("/") ? `${path.slice(0, dot)}_${size}${path.slice(dot)}` : `${path}_${size}`;
}

/** Every file of a set: the original and one per size. */
function imageSetPaths(path: string, sizes: readonly ImageSize[]): string[] {
  return [path, ...sizes.map((size) => variantPath(path, size.name))];
}

export interface StoredImageSet {
  /** The file name, `<32 hex>.<ext>`. */
  key: string;
  /** Its R2 key, which is also its path under the storage URL. */
  path: string;
  type: ImageType;
  width: number;
  height: number;
}

/**
 * Checks an uploaded image by its bytes, makes its sizes and stores them all; `pathOf` places the new file name
 * (e.g. `(name) => contentImagePath(name, time)`). Nothing stays stored when any write fails. Throws an
 * ImageError (not an image, too many pixels, damaged) for the caller to answer with its own code.
 */
export async function storeImageSet(
  bucket: R2Bucket,
  pathOf: (name: string) => string,
  file: Uint8Array,
  sizes: readonly ImageSize[],
): Promise<StoredImageSet> {
  const info = inspectImage(file);
  const key = newFileName(info.ext);
  const path = pathOf(key);
  const files = [
    { path, bytes: file },
    ...renderVariants(file, info, sizes).map((v) => ({ path: variantPath(path, v.name), bytes: v.bytes })),
  ];
  const httpMetadata = { contentType: info.mime, cacheControl: IMMUTABLE };
  const written = await Promise.allSettled(files.map((f) => bucket.put(f.path, f.bytes, { httpMetadata })));
  const failed = written.find((result) => result.status === "rejected");
  if (failed) {
    await bucket.delete(files.map((f) => f.path));
    throw failed.reason;
  }
  return { key, path, type: info.type, width: info.width, height: info.height };
}

/** Removes sets stored by storeImageSet (one R2 call for up to 1000 files; missing files are no error). */
export async function deleteImageSet(
  bucket: R2Bucket,
  paths: string | readonly string[],
  sizes: readonly ImageSize[],
): Promise<void> {
  const all = (typeof paths === "string" ? [paths] : paths).flatMap((path) => imageSetPaths(path, sizes));
  for (let at = 0; at < all.length; at += 1000) await bucket.delete(all.slice(at, at + 1000));
}

export { ImageError };

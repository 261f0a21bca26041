/**
 * The Image record on the wire (docs/conventions.md#object-shapes) and the two forms of its key
 * (docs/decisions.md#platform).
 */
import type { View } from "../../http/view";
import { storageBase } from "../../lib/image-urls";
import { contentImagePath, variantPath } from "../../lib/storage";
import type { ImageRow } from "./repo";
import type { Image } from "./schema";

/** `<32 hex>.jpg` -> `<32 hex>_jpg`, the form every response uses. */
export const wireKey = (key: string): string => key.replaceAll(".", "_");

/** Either form -> the stored `<32 hex>.jpg`; a key that is neither is returned as it is (and found nowhere). */
export function storedKey(key: string): string {
  const wire = /^([^.]+)_(png|jpe?g|gif|webp)$/i.exec(key);
  return wire ? `${wire[1]}.${wire[2]}` : key;
}

/** R2 key of an image's original: its folder is the UTC date of its create_time (docs/images.md). */
export const imagePath = (row: Pick<ImageRow, "key" | "create_time">): string =>
  contentImagePath(row.key, row.create_time);

export function presentImage(row: ImageRow, view: View, relationships?: Image["relationships"]): Image {
  const path = imagePath(row);
  const base = storageBase(view);
  return {
    ...row,
    key: wireKey(row.key),
    urls: {
      original: `${base}/${path}`,
      thumb: `${base}/${variantPath(path, "thumb")}`,
      release: `${base}/${variantPath(path, "release")}`,
    },
    ...(relationships && { relationships }),
  };
}

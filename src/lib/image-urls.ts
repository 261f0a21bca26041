/**
 * URL sets of stored images (`{original, small, middle, large}`): the stored file and its size variants named
 * `<name>_<size>.<ext>` (behaviour.md 7), or the site's default image of that kind.
 */
import { staticBase, storageBase, type View } from "./view";

export interface ImageUrls {
  original: string;
  small: string;
  middle: string;
  large: string;
}

const SIZES = ["small", "middle", "large"] as const;

export function storedUrls(base: string, path: string): ImageUrls {
  const dot = path.lastIndexOf(".");
  const [stem, ext] = dot > 0 ? [path.slice(0, dot), path.slice(dot)] : [path, ""];
  const urls = { original: `${base}/${path}` } as ImageUrls;
  for (const size of SIZES) urls[size] = `${base}/${stem}_${size}${ext}`;
  return urls;
}

/** The uploaded file's URLs, or the default image `default/<fallback>` from the static base. */
export function imageUrls(stored: string, fallback: string, view: View): ImageUrls {
  return stored ? storedUrls(storageBase(view), stored) : storedUrls(`${staticBase(view)}/default`, fallback);
}

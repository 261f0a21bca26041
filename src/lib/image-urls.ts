/**
 * URL sets of stored images (`{original, small, middle, large}`): the stored file and its size variants named
 * `<name>_<size>.<ext>` (docs/images.md), or the site's default image of that kind.
 */
import { variantPath } from "./storage";

/** What the bases depend on: the settings that name them and the request's origin (an http View is one). */
export interface UrlSite {
  options: { site_static_url: string; storage_url: string };
  /** The request's origin, for default file URLs. */
  origin: string;
}

const trimSlash = (url: string) => url.replace(/\/+$/, "");

/** A site's bases, and the URL sets made from them: shared by every record that shows the same image. */
interface Site {
  origin: string;
  static: string;
  storage: string;
  urls: Map<string, ImageUrls>;
}

/**
 * A settings record's bases for an origin, and its URL sets, made once: a page presents hundreds of images. Kept by
 * the record, which a change of settings replaces (domain/site-options-store.ts), so neither outlives its setting.
 */
const sites = new WeakMap<object, Site>();

/** URL sets kept per site: beyond this many stored images, the set starts again. */
const MAX_URL_SETS = 2000;

function siteOf(site: UrlSite): Site {
  const options = site.options;
  let found = sites.get(options);
  if (found?.origin !== site.origin) {
    found = {
      origin: site.origin,
      static: trimSlash(options.site_static_url || `${site.origin}/static`),
      storage: trimSlash(options.storage_url || `${site.origin}/upload`),
      urls: new Map(),
    };
    sites.set(options, found);
  }
  return found;
}

/** Base URL of stored files: `storage_url`, or the Worker's own route that serves them from R2. */
export const storageBase = (site: UrlSite) => siteOf(site).storage;

export interface ImageUrls {
  original: string;
  small: string;
  middle: string;
  large: string;
}

/** The file at `path` and its size variants, named as they are stored (lib/storage.ts). */
const storedUrls = (base: string, path: string): ImageUrls => ({
  original: `${base}/${path}`,
  small: `${base}/${variantPath(path, "small")}`,
  middle: `${base}/${variantPath(path, "middle")}`,
  large: `${base}/${variantPath(path, "large")}`,
});

/**
 * The uploaded file's URLs, or the default image `default/<fallback>` from the static base. One frozen set per image
 * and site, made once: a page shows the same avatars and covers over and over (every record of a user's list has the
 * same author), and strings joined anew on each request are ropes that `JSON.stringify` must flatten first, which
 * measured slower than the whole rest of the body's serialisation (docs/performance.md#serialising-the-body).
 */
export function imageUrls(stored: string, fallback: string, site: UrlSite): ImageUrls {
  const found = siteOf(site);
  const key = stored || `\u0000${fallback}`;
  let urls = found.urls.get(key);
  if (!urls) {
    urls = Object.freeze(stored ? storedUrls(found.storage, stored) : storedUrls(`${found.static}/default`, fallback));
    if (found.urls.size >= MAX_URL_SETS) found.urls.clear();
    found.urls.set(key, urls);
  }
  return urls;
}

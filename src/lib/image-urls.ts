/**
 * URL sets of stored images (`{original, small, middle, large}`): the stored file and its size variants named
 * `<name>_<size>.<ext>` (docs/images.md), or the site's default image of that kind.
 */

/** What the bases depend on: the settings that name them and the request's origin (an http View is one). */
export interface UrlSite {
  options: { site_static_url: string; storage_url: string };
  /** The request's origin, for default file URLs. */
  origin: string;
}

const trimSlash = (url: string) => url.replace(/\/+$/, "");

/**
 * The two bases of a settings record and an origin, worked out once: a page presents hundreds of images. Kept by
 * the record, which a change of settings replaces (domain/site-options-store.ts), so a base never outlives its setting.
 */
const basesOf = new WeakMap<object, { origin: string; static: string; storage: string }>();

function bases(site: UrlSite) {
  const options = site.options;
  let found = basesOf.get(options);
  if (found?.origin !== site.origin) {
    found = {
      origin: site.origin,
      static: trimSlash(options.site_static_url || `${site.origin}/static`),
      storage: trimSlash(options.storage_url || `${site.origin}/upload`),
    };
    basesOf.set(options, found);
  }
  return found;
}

/** Base URL of static assets: `site_static_url`, or the Worker's own /static. */
export const staticBase = (site: UrlSite) => bases(site).static;

/** Base URL of stored files: `storage_url`, or the Worker's own route that serves them from R2. */
export const storageBase = (site: UrlSite) => bases(site).storage;

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
export function imageUrls(stored: string, fallback: string, site: UrlSite): ImageUrls {
  return stored ? storedUrls(storageBase(site), stored) : storedUrls(`${staticBase(site)}/default`, fallback);
}

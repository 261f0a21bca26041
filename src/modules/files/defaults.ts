/**
 * The site's default images, `/static/default/<name>`, which records without an upload point at (docs/images.md):
 * `avatar.png` (behaviours/content/present.ts) and `user_cover.jpg` / `topic_cover.jpg` (users/present.ts,
 * behaviours/content/present.ts), each with `_small`, `_middle` and `_large`; covers also as `.webp`, the form
 * the reference gives clients that accept WebP. Drawn in code, in the format their name says, once per isolate.
 */
import { toHex } from "../../lib/crypto";
import { type EncodedFormat, Photon } from "../../lib/images/photon";
import { AVATAR_SIZES, type ImageSize, TOPIC_COVER_SIZES, USER_COVER_SIZES } from "../../lib/storage";

type Rgb = readonly [number, number, number];

interface DefaultImage {
  /** The size of the file without a size suffix: the largest. */
  original: { width: number; height: number };
  sizes: readonly ImageSize[];
  extensions: Partial<Record<"png" | "jpg" | "webp", EncodedFormat>>;
  draw: (width: number, height: number) => Uint8Array;
}

export interface DefaultFile {
  bytes: Uint8Array;
  mime: string;
  etag: string;
}

/** A filled circle on a transparent square, its edge anti-aliased: a neutral face for users with no avatar. */
function circle([r, g, b]: Rgb) {
  return (width: number, height: number) => {
    const pixels = new Uint8Array(width * height * 4);
    const radius = Math.min(width, height) / 2;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const distance = Math.hypot(x + 0.5 - width / 2, y + 0.5 - height / 2);
        const coverage = Math.min(1, Math.max(0, radius - distance + 0.5));
        pixels.set([r, g, b, Math.round(coverage * 255)], (y * width + x) * 4);
      }
    }
    return pixels;
  };
}

/** One opaque colour. */
function flat([r, g, b]: Rgb) {
  return (width: number, height: number) => {
    const pixels = new Uint8Array(width * height * 4);
    for (let at = 0; at < pixels.length; at += 4) pixels.set([r, g, b, 255], at);
    return pixels;
  };
}

const DEFAULTS = new Map<string, DefaultImage>(
  Object.entries({
    avatar: {
      original: { width: 256, height: 256 },
      sizes: AVATAR_SIZES,
      extensions: { png: "png" },
      draw: circle([189, 189, 189]),
    },
    user_cover: {
      original: { width: 1450, height: 812 },
      sizes: USER_COVER_SIZES,
      extensions: { jpg: "jpeg", webp: "webp" },
      draw: flat([144, 164, 174]),
    },
    topic_cover: {
      original: { width: 1080, height: 606 },
      sizes: TOPIC_COVER_SIZES,
      extensions: { jpg: "jpeg", webp: "webp" },
      draw: flat([176, 190, 197]),
    },
  }),
);

const NAME = /^([a-z_]+?)(?:_(small|middle|large))?\.(png|jpg|webp)$/;

const made = new Map<string, Promise<DefaultFile>>();

async function make(
  image: DefaultImage,
  size: { width: number; height: number },
  format: EncodedFormat,
): Promise<DefaultFile> {
  const photon = new Photon();
  const bytes = photon.encode(photon.fromPixels(image.draw(size.width, size.height), size.width, size.height), format);
  return {
    bytes,
    mime: `image/${format}`,
    etag: `"${toHex(await crypto.subtle.digest("SHA-256", bytes)).slice(0, 32)}"`,
  };
}

/** The default image named `name` (e.g. `user_cover_small.jpg`), or null when there is none of that name. */
export function defaultImage(name: string): Promise<DefaultFile> | null {
  const [, base = "", sizeName, ext] = NAME.exec(name) ?? [];
  const image = DEFAULTS.get(base);
  const format = image?.extensions[ext as keyof DefaultImage["extensions"]];
  const size = sizeName ? image?.sizes.find((s) => s.name === sizeName) : image?.original;
  if (!image || !format || !size) return null;
  let file = made.get(name);
  if (!file) {
    file = make(image, size, format);
    made.set(name, file);
  }
  return file;
}

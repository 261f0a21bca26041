/**
 * What an uploaded file is, told by its bytes alone (docs/decisions.md#images-are-told-by-their-bytes: never by its
 * name or the client's MIME type), and its dimensions read from its header, so an oversized image is refused before any
 * pixel is decoded.
 */

export type ImageType = "png" | "jpeg" | "gif" | "webp";

export interface ImageInfo {
  type: ImageType;
  /** The extension stored files get (docs/images.md: `jpg`, not `jpeg`). */
  ext: "png" | "jpg" | "gif" | "webp";
  mime: `image/${ImageType}`;
  width: number;
  height: number;
}

const be16 = (b: Uint8Array, at: number) => ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0);
const le16 = (b: Uint8Array, at: number) => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
const le24 = (b: Uint8Array, at: number) => le16(b, at) | ((b[at + 2] ?? 0) << 16);
const be32 = (b: Uint8Array, at: number) => be16(b, at) * 0x10000 + be16(b, at + 2);
const ascii = (b: Uint8Array, at: number, text: string) => [...text].every((ch, i) => b[at + i] === ch.charCodeAt(0));
const startsWith = (b: Uint8Array, magic: number[]) => magic.every((byte, i) => b[i] === byte);

type Size = [width: number, height: number] | null;

/** IHDR must be the first chunk. */
function pngSize(b: Uint8Array): Size {
  return ascii(b, 12, "IHDR") ? [be32(b, 16), be32(b, 20)] : null;
}

/** The logical screen: frames are drawn inside it. */
function gifSize(b: Uint8Array): Size {
  return b.length >= 10 ? [le16(b, 6), le16(b, 8)] : null;
}

/** The first chunk says which of the three WebP forms this is, each with its own header layout. */
function webpSize(b: Uint8Array): Size {
  if (ascii(b, 12, "VP8 ") && startsWith(b.subarray(23), [0x9d, 0x01, 0x2a])) {
    return [le16(b, 26) & 0x3fff, le16(b, 28) & 0x3fff];
  }
  if (ascii(b, 12, "VP8L") && b[20] === 0x2f && b.length >= 25) {
    const bits = ((b[21] ?? 0) | ((b[22] ?? 0) << 8) | ((b[23] ?? 0) << 16) | ((b[24] ?? 0) << 24)) >>> 0;
    return [(bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1];
  }
  if (ascii(b, 12, "VP8X") && b.length >= 30) return [le24(b, 24) + 1, le24(b, 27) + 1];
  return null;
}

/** Walks the markers to the first start-of-frame (SOF0-SOF15 but DHT, JPG and DAC, which share the range). */
function jpegSize(b: Uint8Array): Size {
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return [be16(b, at + 7), be16(b, at + 5)];
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image, or scan data before any frame
    at += 2 + be16(b, at + 2);
  }
  return null;
}

const FORMATS: {
  type: ImageType;
  ext: ImageInfo["ext"];
  matches: (b: Uint8Array) => boolean;
  size: (b: Uint8Array) => Size;
}[] = [
  {
    type: "png",
    ext: "png",
    matches: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    size: pngSize,
  },
  { type: "jpeg", ext: "jpg", matches: (b) => startsWith(b, [0xff, 0xd8, 0xff]), size: jpegSize },
  { type: "gif", ext: "gif", matches: (b) => ascii(b, 0, "GIF87a") || ascii(b, 0, "GIF89a"), size: gifSize },
  { type: "webp", ext: "webp", matches: (b) => ascii(b, 0, "RIFF") && ascii(b, 8, "WEBP"), size: webpSize },
];

/** The file's type and size, or null when it is none of PNG, JPEG, GIF and WebP or its header is unreadable. */
export function sniffImage(bytes: Uint8Array): ImageInfo | null {
  const format = FORMATS.find((f) => f.matches(bytes));
  const size = format?.size(bytes);
  if (!format || !size || size[0] < 1 || size[1] < 1) return null;
  return { type: format.type, ext: format.ext, mime: `image/${format.type}`, width: size[0], height: size[1] };
}

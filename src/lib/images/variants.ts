/**
 * Derived sizes of an image (docs/images.md): centre-cropped to the size's proportions, then shrunk to it, never
 * enlarged; a size with height 0 keeps the image's proportions. A size that would equal the original reuses the
 * uploaded bytes, so a small animated GIF keeps its animation.
 */
import { encodeGif } from "./gif";
import { ImageError } from "./image-error";
import { type Bitmap, Photon } from "./photon";
import { type ImageInfo, type ImageType, sniffImage } from "./sniff";

/**
 * photon's decoding holds the file, the decoded pixels and two RGBA copies at once: its memory peaked at 71 MB
 * for a 4.1 MP JPEG, 87 MB at 5 MP, 100 MB at 6 MP and 156 MB at 12 MP (vitest pool, thumb and release made),
 * and a Worker isolate has 128 MB for everything, request bodies included. Refusing larger images from their
 * header, before any decoding, keeps an upload inside that and makes decompression bombs harmless.
 */
export const MAX_PIXELS = 4_200_000;

export interface ImageSize {
  /** The suffix of the stored name: `<name>_<size>.<ext>`. */
  name: string;
  width: number;
  /** 0: proportional to the width. */
  height: number;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Geometry {
  /** First shrink the whole image to this; absent when the image is not larger than the size. */
  scale?: { width: number; height: number };
  /** Then keep this box of the (shrunk) image. */
  crop: Box;
}

export interface Variant {
  name: string;
  bytes: Uint8Array;
  width: number;
  height: number;
}

const centred = (width: number, height: number, boxWidth: number, boxHeight: number): Box => ({
  x: Math.floor((width - boxWidth) / 2),
  y: Math.floor((height - boxHeight) / 2),
  width: boxWidth,
  height: boxHeight,
});

/**
 * Shrinking first and cropping after gives the same picture as the reference's crop-then-shrink, while the
 * only full-size bitmap is the decoded one (a crop of it would be a second).
 */
export function geometryOf(width: number, height: number, size: ImageSize): Geometry {
  const whole = { crop: centred(width, height, width, height) };
  if (!size.height) {
    if (width <= size.width) return whole;
    const scaled = { width: size.width, height: Math.max(1, Math.round((height * size.width) / width)) };
    return { scale: scaled, crop: centred(scaled.width, scaled.height, scaled.width, scaled.height) };
  }
  const ratio = Math.max(size.width / width, size.height / height);
  if (ratio < 1) {
    const scaled = {
      width: Math.max(size.width, Math.round(width * ratio)),
      height: Math.max(size.height, Math.round(height * ratio)),
    };
    return { scale: scaled, crop: centred(scaled.width, scaled.height, size.width, size.height) };
  }
  // Not larger than the size: cropped to its proportions at the image's own resolution, never enlarged.
  const cropWidth = Math.max(1, Math.min(width, Math.round((height * size.width) / size.height)));
  const cropHeight = Math.max(1, Math.min(height, Math.round((width * size.height) / size.width)));
  return { crop: centred(width, height, cropWidth, cropHeight) };
}

const isWhole = (geometry: Geometry, width: number, height: number) =>
  !geometry.scale && geometry.crop.width === width && geometry.crop.height === height;

/** The file's type and size; refused when it is not a PNG, JPEG, GIF or WebP, or has too many pixels. */
export function inspectImage(file: Uint8Array): ImageInfo {
  const info = sniffImage(file);
  if (!info) throw new ImageError("the file is not a PNG, JPEG, GIF or WebP image");
  if (info.width * info.height > MAX_PIXELS) {
    throw new ImageError(
      `the image is ${info.width}x${info.height}; at most ${MAX_PIXELS / 1_000_000} megapixels are accepted`,
      true,
    );
  }
  return info;
}

function encode(photon: Photon, image: Bitmap, type: ImageType): Uint8Array {
  if (type === "gif") return encodeGif(photon.pixels(image), photon.width(image), photon.height(image));
  return photon.encode(image, type);
}

function render(photon: Photon, image: Bitmap, geometry: Geometry, type: ImageType): Uint8Array {
  const { scale, crop } = geometry;
  const scaled = scale ? photon.resize(image, scale.width, scale.height) : image;
  // A proportional size is the shrunk image itself: no crop, no copy.
  if (scale && crop.width === scale.width && crop.height === scale.height) return encode(photon, scaled, type);
  const cropped = photon.crop(scaled, crop.x, crop.y, crop.width, crop.height);
  if (scaled !== image) photon.free(scaled);
  return encode(photon, cropped, type);
}

/**
 * Every size of the file, in the file's own format. Synchronous on purpose: the photon instance is garbage as
 * soon as this returns, before another request's job can start. A file that does not decode is an ImageError.
 */
export function renderVariants(file: Uint8Array, info: ImageInfo, sizes: readonly ImageSize[]): Variant[] {
  const whole = (size: ImageSize): Variant => ({
    name: size.name,
    bytes: file,
    width: info.width,
    height: info.height,
  });
  if (sizes.every((size) => isWhole(geometryOf(info.width, info.height, size), info.width, info.height)))
    return sizes.map(whole);

  const photon = new Photon();
  let image: Bitmap;
  try {
    image = photon.decode(file);
  } catch {
    throw new ImageError(`the ${info.type.toUpperCase()} file is damaged and cannot be decoded`);
  }
  // Plans come from the decoded size: crops outside the bitmap would abort photon.
  const width = photon.width(image);
  const height = photon.height(image);
  return sizes.map((size) => {
    const geometry = geometryOf(width, height, size);
    if (isWhole(geometry, width, height)) return whole(size);
    return {
      name: size.name,
      bytes: render(photon, image, geometry, info.type),
      width: geometry.crop.width,
      height: geometry.crop.height,
    };
  });
}

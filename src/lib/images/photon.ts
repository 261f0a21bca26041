/**
 * Pixel work in the Worker: photon (Rust `image` + photon-rs compiled to WebAssembly, npm @cf-wasm/photon),
 * which decodes PNG, JPEG, GIF and WebP and encodes PNG, JPEG and (lossless) WebP. GIF output is gifenc's (gif.ts).
 *
 * Chosen by measurement (vitest Workers pool, 2 cores; decode a 1600x1200 file, thumb 132x88 centre crop and
 * release 702 wide, encode both; warm runs; baseline bundle 855.2 KiB / 215.7 KiB gzip):
 *
 * | library                        | bundle added (raw / gzip) | JPEG   | PNG    | WebP   | GIF in |
 * |--------------------------------|---------------------------|--------|--------|--------|--------|
 * | @cf-wasm/photon 0.4.0          | +1548 / +616 KiB          | 130 ms | 125 ms | 190 ms | yes    |
 * | @jsquash png+jpeg+webp+resize  | +1164 / +419 KiB          | 270 ms | 160 ms | 285 ms | no     |
 * | wasm-image-optimization 2.0.9  | +6817 / +2238 KiB         | 104 ms | 410 ms | -      | yes    |
 *
 * (wasm-image-optimization 2.0.11 does not install: its dependency worker-lib 2.2.1 is not published.) With this
 * file's fresh instance per job (below) and variants.ts's shrink-then-crop, the same 1600x1200 work took 175-190 ms
 * (JPEG), 165-200 ms (PNG) and 195-260 ms (WebP); a whole POST /api/images 225-490 ms. GIF output (gif.ts) and
 * the rest of the feature add 22 KiB raw / 8 KiB gzip to the bundle.
 *
 * The package's own glue keeps ONE module-wide instance; this file instantiates the compiled module afresh for
 * each use and calls its exports directly, because:
 * - photon panics (a WebAssembly trap) on any file it cannot decode, and a trap skips the restoring of the
 *   instance's stack pointer and heap: measured, about 4,350 truncated PNGs left the shared instance failing
 *   every later call ("memory access out of bounds") for the isolate's life. A fresh instance per upload makes a
 *   bad file cost nothing but its own request.
 * - WebAssembly memory never shrinks: a shared instance would hold the peak of the largest image ever decoded
 *   (against the isolate's 128 MB); a dropped instance is garbage collected with its memory.
 * Instantiating the already compiled module takes about 2 ms.
 */
import photonModule from "@cf-wasm/photon/photon.wasm";

/** A PhotonImage inside one instance: a pointer into its memory. */
export type Bitmap = number & { readonly __bitmap: unique symbol };

export type EncodedFormat = "png" | "jpeg" | "webp";

interface PhotonExports {
  memory: WebAssembly.Memory;
  __wbindgen_externrefs: WebAssembly.Table;
  __wbindgen_start(): void;
  __wbindgen_malloc(size: number, align: number): number;
  __wbindgen_free(ptr: number, size: number, align: number): void;
  __wbg_photonimage_free(image: number, owned: number): void;
  photonimage_new(pixels: number, length: number, width: number, height: number): number;
  photonimage_new_from_byteslice(bytes: number, length: number): number;
  photonimage_get_width(image: number): number;
  photonimage_get_height(image: number): number;
  photonimage_get_raw_pixels(image: number): [number, number];
  photonimage_get_bytes(image: number): [number, number];
  photonimage_get_bytes_jpeg(image: number, quality: number): [number, number];
  photonimage_get_bytes_webp(image: number): [number, number];
  crop(image: number, x1: number, y1: number, x2: number, y2: number): number;
  resize(image: number, width: number, height: number, filter: number): number;
}

/** photon's SamplingFilter.Triangle: bilinear with the support widened when shrinking, so no aliasing. */
const TRIANGLE = 2;
const JPEG_QUALITY = 85;

const decoder = new TextDecoder();

/**
 * The module's imports are wasm-bindgen's browser bindings (canvas, DOM); only the externref table set-up and
 * `throw` are reached by what this file calls, so every other import throws. A panic then surfaces as a JS
 * error or a trap, both of which only end this instance.
 */
function instantiate(): PhotonExports {
  let wasm: PhotonExports | undefined;
  const own: Record<string, (...args: number[]) => void> = {
    __wbindgen_init_externref_table() {
      const table = (wasm as PhotonExports).__wbindgen_externrefs;
      const offset = table.grow(4);
      table.set(0, undefined);
      table.set(offset, undefined);
      table.set(offset + 1, null);
      table.set(offset + 2, true);
      table.set(offset + 3, false);
    },
  };
  const imports: Record<string, Record<string, (...args: number[]) => void>> = {};
  for (const { module, name } of WebAssembly.Module.imports(photonModule)) {
    const isThrow = name.startsWith("__wbg___wbindgen_throw_");
    imports[module] ??= {};
    imports[module][name] =
      own[name] ??
      ((...args: number[]) => {
        const memory = (wasm as PhotonExports).memory.buffer;
        throw new Error(
          isThrow ? decoder.decode(new Uint8Array(memory, args[0], args[1])) : `photon: ${name} is not available`,
        );
      });
  }
  wasm = new WebAssembly.Instance(photonModule, imports).exports as unknown as PhotonExports;
  wasm.__wbindgen_start();
  return wasm;
}

/** One photon instance: create one per image job and drop it afterwards (see the file comment). */
export class Photon {
  private readonly wasm = instantiate();

  private copyIn(bytes: Uint8Array): number {
    const ptr = this.wasm.__wbindgen_malloc(bytes.length, 1) >>> 0;
    new Uint8Array(this.wasm.memory.buffer, ptr, bytes.length).set(bytes);
    return ptr;
  }

  private copyOut([ptr, length]: [number, number]): Uint8Array {
    const bytes = new Uint8Array(this.wasm.memory.buffer, ptr >>> 0, length).slice();
    this.wasm.__wbindgen_free(ptr, length, 1);
    return bytes;
  }

  /** Decodes a PNG, JPEG, GIF (first frame) or WebP file; throws when the file is corrupt. */
  decode(file: Uint8Array): Bitmap {
    return this.wasm.photonimage_new_from_byteslice(this.copyIn(file), file.length) as Bitmap;
  }

  /** A bitmap from RGBA pixels, row by row. */
  fromPixels(rgba: Uint8Array, width: number, height: number): Bitmap {
    return this.wasm.photonimage_new(this.copyIn(rgba), rgba.length, width, height) as Bitmap;
  }

  width(image: Bitmap): number {
    return this.wasm.photonimage_get_width(image) >>> 0;
  }

  height(image: Bitmap): number {
    return this.wasm.photonimage_get_height(image) >>> 0;
  }

  /** RGBA pixels, row by row. */
  pixels(image: Bitmap): Uint8Array {
    return this.copyOut(this.wasm.photonimage_get_raw_pixels(image));
  }

  crop(image: Bitmap, x: number, y: number, width: number, height: number): Bitmap {
    return this.wasm.crop(image, x, y, x + width, y + height) as Bitmap;
  }

  resize(image: Bitmap, width: number, height: number): Bitmap {
    return this.wasm.resize(image, width, height, TRIANGLE) as Bitmap;
  }

  encode(image: Bitmap, format: EncodedFormat): Uint8Array {
    if (format === "png") return this.copyOut(this.wasm.photonimage_get_bytes(image));
    if (format === "jpeg") return this.copyOut(this.wasm.photonimage_get_bytes_jpeg(image, JPEG_QUALITY));
    return this.copyOut(this.wasm.photonimage_get_bytes_webp(image));
  }

  /** Gives a bitmap's memory back early, to keep the peak of a job low. */
  free(image: Bitmap): void {
    this.wasm.__wbg_photonimage_free(image, 0);
  }
}

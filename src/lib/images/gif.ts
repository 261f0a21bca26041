/**
 * One-frame GIFs for the derived sizes of GIF uploads: photon decodes GIF but cannot write it, and a `_thumb.gif`
 * must hold GIF bytes. Pixels whose alpha is below half become the transparent index, 255; the others get an exact
 * palette when they use at most 255 colours, else gifenc's (pairwise nearest-neighbour quantisation), and gifenc
 * writes the file. Why the library and what it costs: docs/images.md#gif-output.
 */
import { applyPalette, GIFEncoder, type Palette, quantize } from "gifenc";

const MAX_COLOURS = 255;
const TRANSPARENT = 255;
const opaque = (rgba: Uint8Array, i: number) => (rgba[i + 3] as number) >= 128;

/** Each pixel's palette index when the opaque pixels use at most 255 colours, else null. */
function exactColours(rgba: Uint8Array): { palette: Palette; index: Uint8Array } | null {
  const indices = new Map<number, number>();
  const index = new Uint8Array(rgba.length / 4);
  for (let p = 0, i = 0; i < rgba.length; p++, i += 4) {
    if (!opaque(rgba, i)) continue;
    const colour = ((rgba[i] as number) << 16) | ((rgba[i + 1] as number) << 8) | (rgba[i + 2] as number);
    let found = indices.get(colour);
    if (found === undefined) {
      if (indices.size === MAX_COLOURS) return null;
      found = indices.size;
      indices.set(colour, found);
    }
    index[p] = found;
  }
  const palette = [...indices.keys()].map((colour) => [colour >> 16, (colour >> 8) & 255, colour & 255]);
  return { palette, index };
}

/** The opaque pixels alone: transparent ones would take colours of the palette. */
function opaquePixels(rgba: Uint8Array): Uint8Array {
  let count = 0;
  for (let i = 0; i < rgba.length; i += 4) if (opaque(rgba, i)) count++;
  if (count * 4 === rgba.length) return rgba;
  const kept = new Uint8Array(count * 4);
  for (let i = 0, at = 0; i < rgba.length; i += 4) {
    if (!opaque(rgba, i)) continue;
    for (let c = 0; c < 4; c++) kept[at++] = rgba[i + c] as number;
  }
  return kept;
}

/**
 * gifenc's palette of the opaque pixels, and each pixel's nearest entry. Colours are binned at 4 bits a channel
 * (rgb444): its quantiser's time grows with the square of the bins used, and at 5-6-5 bits a photograph's tens of
 * thousands of bins took seconds (docs/images.md#gif-output).
 */
function quantizedColours(rgba: Uint8Array): { palette: Palette; index: Uint8Array } {
  // gifenc reads pixels as a Uint32Array over the whole buffer: each array passed to it owns its buffer.
  const whole = rgba.byteOffset === 0 && rgba.byteLength === rgba.buffer.byteLength ? rgba : rgba.slice();
  const palette = quantize(opaquePixels(whole), MAX_COLOURS, { format: "rgb444" });
  return { palette, index: applyPalette(whole, palette, "rgb565") };
}

/** RGBA pixels, row by row, as a GIF file. */
export function encodeGif(rgba: Uint8Array, width: number, height: number): Uint8Array {
  const { palette, index } = exactColours(rgba) ?? quantizedColours(rgba);
  let transparent = false;
  for (let p = 0, i = 0; p < index.length; p++, i += 4) {
    if (opaque(rgba, i)) continue;
    index[p] = TRANSPARENT;
    transparent = true;
  }
  // A full table of 256 entries, so that the transparent index always has one.
  const table = Array.from({ length: 256 }, (_, i) => palette[i] ?? [0, 0, 0]);
  const gif = GIFEncoder({ initialCapacity: index.length });
  // repeat -1: no looping extension, which a still image does not need.
  gif.writeFrame(index, width, height, { palette: table, transparent, transparentIndex: TRANSPARENT, repeat: -1 });
  gif.finish();
  return gif.bytesView();
}

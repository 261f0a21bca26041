/** gifenc ships no types: the part of its API that lib/images/gif.ts uses. */
declare module "gifenc" {
  export type Palette = number[][];
  export function quantize(rgba: Uint8Array, maxColors: number, options?: { format?: "rgb565" | "rgb444" }): Palette;
  export function applyPalette(rgba: Uint8Array, palette: Palette, format?: "rgb565" | "rgb444"): Uint8Array;
  export interface Encoder {
    writeFrame(
      index: Uint8Array,
      width: number,
      height: number,
      options: { palette: Palette; transparent?: boolean; transparentIndex?: number; repeat?: number },
    ): void;
    finish(): void;
    bytesView(): Uint8Array;
  }
  export function GIFEncoder(options?: { initialCapacity?: number }): Encoder;
}

/**
 * A one-frame GIF89a encoder for the derived sizes of GIF uploads: photon decodes GIF but cannot write it, and
 * a `_thumb.gif` must hold GIF bytes. Pixels whose alpha is below half become the transparent index; the
 * others get an exact palette when they use at most 255 colours, else a median-cut palette over 5-bit buckets.
 */

const MAX_COLOURS = 255;
const TRANSPARENT = 255;

interface Palette {
  /** 256 RGB entries. */
  table: Uint8Array;
  indexOf: (r: number, g: number, b: number) => number;
}

/** The exact colours when there are few enough, else null. */
function exactPalette(rgba: Uint8Array): Palette | null {
  const indices = new Map<number, number>();
  for (let i = 0; i < rgba.length; i += 4) {
    if ((rgba[i + 3] as number) < 128) continue;
    const colour = ((rgba[i] as number) << 16) | ((rgba[i + 1] as number) << 8) | (rgba[i + 2] as number);
    if (!indices.has(colour)) {
      if (indices.size === MAX_COLOURS) return null;
      indices.set(colour, indices.size);
    }
  }
  const table = new Uint8Array(768);
  for (const [colour, index] of indices) table.set([colour >> 16, (colour >> 8) & 255, colour & 255], index * 3);
  return { table, indexOf: (r, g, b) => indices.get((r << 16) | (g << 8) | b) as number };
}

const bucketOf = (r: number, g: number, b: number) => ((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3);
const channel = (bucket: number, c: number) => (bucket >> (10 - 5 * c)) & 31;

interface Box {
  buckets: number[];
  /** Spread of each channel over the box's buckets. */
  ranges: number[];
}

function boxOf(buckets: number[]): Box {
  const ranges = [0, 1, 2].map((c) => {
    let lo = 31;
    let hi = 0;
    for (const bucket of buckets) {
      lo = Math.min(lo, channel(bucket, c));
      hi = Math.max(hi, channel(bucket, c));
    }
    return hi - lo;
  });
  return { buckets, ranges };
}

/** Median cut: split the box with the widest channel spread at its pixel-count median, until 255 boxes. */
function medianCutPalette(rgba: Uint8Array): Palette {
  const count = new Float64Array(32768);
  const sums = new Float64Array(32768 * 3);
  for (let i = 0; i < rgba.length; i += 4) {
    if ((rgba[i + 3] as number) < 128) continue;
    const bucket = bucketOf(rgba[i] as number, rgba[i + 1] as number, rgba[i + 2] as number);
    count[bucket] = (count[bucket] as number) + 1;
    for (let c = 0; c < 3; c++) sums[bucket * 3 + c] = (sums[bucket * 3 + c] as number) + (rgba[i + c] as number);
  }
  const used: number[] = [];
  for (let bucket = 0; bucket < 32768; bucket++) if ((count[bucket] as number) > 0) used.push(bucket);

  const boxes = [boxOf(used)];
  while (boxes.length < MAX_COLOURS) {
    let widest = -1;
    let axis = 0;
    let spread = 0;
    boxes.forEach((box, i) => {
      box.ranges.forEach((range, c) => {
        if (range > spread) [widest, axis, spread] = [i, c, range];
      });
    });
    if (widest < 0) break; // every box is a single bucket
    const buckets = (boxes[widest] as Box).buckets.sort((a, b) => channel(a, axis) - channel(b, axis));
    const half = buckets.reduce((n, bucket) => n + (count[bucket] as number), 0) / 2;
    let seen = 0;
    let cut = 0;
    while (cut < buckets.length - 1 && seen + (count[buckets[cut] as number] as number) <= half) {
      seen += count[buckets[cut] as number] as number;
      cut += 1;
    }
    cut = Math.max(cut, 1);
    boxes.splice(widest, 1, boxOf(buckets.slice(0, cut)), boxOf(buckets.slice(cut)));
  }

  const table = new Uint8Array(768);
  const indexOfBucket = new Uint8Array(32768);
  boxes.forEach(({ buckets }, index) => {
    let n = 0;
    const rgb = [0, 0, 0];
    for (const bucket of buckets) {
      indexOfBucket[bucket] = index;
      n += count[bucket] as number;
      for (let c = 0; c < 3; c++) rgb[c] = (rgb[c] as number) + (sums[bucket * 3 + c] as number);
    }
    table.set(
      rgb.map((sum) => Math.round(sum / n)),
      index * 3,
    );
  });
  return { table, indexOf: (r, g, b) => indexOfBucket[bucketOf(r, g, b)] as number };
}

/** GIF's variable-width LZW, packed into sub-blocks of at most 255 bytes. */
function lzw(indices: Uint8Array): number[] {
  const MIN_CODE_SIZE = 8;
  const CLEAR = 256;
  const END = 257;
  const out: number[] = [MIN_CODE_SIZE];
  const block: number[] = [];
  let bits = 0;
  let bitCount = 0;
  const emit = (code: number, size: number) => {
    bits |= code << bitCount;
    bitCount += size;
    while (bitCount >= 8) {
      block.push(bits & 255);
      bits >>>= 8;
      bitCount -= 8;
      if (block.length === 255) out.push(255, ...block.splice(0));
    }
  };

  let dictionary = new Map<number, number>();
  let next = END + 1;
  let size = MIN_CODE_SIZE + 1;
  emit(CLEAR, size);
  let prefix = indices[0] as number;
  for (let i = 1; i < indices.length; i++) {
    const index = indices[i] as number;
    const key = (prefix << 8) | index;
    const known = dictionary.get(key);
    if (known !== undefined) {
      prefix = known;
      continue;
    }
    emit(prefix, size);
    if (next === 4096) {
      // The table is full: start again, as decoders expect after a clear code.
      emit(CLEAR, size);
      dictionary = new Map();
      next = END + 1;
      size = MIN_CODE_SIZE + 1;
    } else {
      dictionary.set(key, next);
      if (next === 1 << size) size += 1;
      next += 1;
    }
    prefix = index;
  }
  emit(prefix, size);
  emit(END, size);
  if (bitCount > 0) emit(0, 8 - bitCount);
  if (block.length > 0) out.push(block.length, ...block);
  out.push(0);
  return out;
}

/** RGBA pixels, row by row, as a GIF file. */
export function encodeGif(rgba: Uint8Array, width: number, height: number): Uint8Array {
  const palette = exactPalette(rgba) ?? medianCutPalette(rgba);
  const indices = new Uint8Array(width * height);
  let transparent = false;
  for (let p = 0, i = 0; p < indices.length; p++, i += 4) {
    if ((rgba[i + 3] as number) < 128) {
      indices[p] = TRANSPARENT;
      transparent = true;
    } else {
      indices[p] = palette.indexOf(rgba[i] as number, rgba[i + 1] as number, rgba[i + 2] as number);
    }
  }
  const u16 = (n: number) => [n & 255, n >> 8];
  const header = [...[..."GIF89a"].map((ch) => ch.charCodeAt(0)), ...u16(width), ...u16(height), 0xf7, 0, 0];
  // Graphic control extension: only needed to name the transparent index.
  const control = transparent ? [0x21, 0xf9, 4, 1, 0, 0, TRANSPARENT, 0] : [];
  const descriptor = [0x2c, 0, 0, 0, 0, ...u16(width), ...u16(height), 0];
  const data = lzw(indices);
  const file = new Uint8Array(header.length + 768 + control.length + descriptor.length + data.length + 1);
  let at = 0;
  for (const part of [header, palette.table, control, descriptor, data, [0x3b]]) {
    file.set(part, at);
    at += part.length;
  }
  return file;
}

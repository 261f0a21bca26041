/**
 * The demo community's pictures, drawn from their names, so every run uploads the same bytes and nothing binary is
 * committed: GitHub-style identicon avatars and landscape covers (sky, sun, three ranges of hills), encoded as PNG
 * with the platform's own `CompressionStream` (Node and workerd both have it). Plain code, no image library.
 */

type Rgb = [number, number, number];

/** FNV-1a: a stable 32-bit number from a name, for colours and shapes. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  return h;
}

/** A colour of the given hue (0–360), saturation and lightness (0–1). */
function hsl(hue: number, s: number, l: number): Rgb {
  const k = (n: number) => (n + hue / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => Math.round(255 * (l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1))));
  return [f(0), f(8), f(4)];
}

const mix = ([r, g, b]: Rgb, [r2, g2, b2]: Rgb, t: number): Rgb => [
  Math.round(r + (r2 - r) * t),
  Math.round(g + (g2 - g) * t),
  Math.round(b + (b2 - b) * t),
];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** An RGB PNG of `width` × `height` whose pixel colours `paint` gives; each row filtered "Up" to compress well. */
async function png(width: number, height: number, paint: (x: number, y: number) => Rgb): Promise<Uint8Array> {
  const stride = width * 3;
  const raw = new Uint8Array((stride + 1) * height);
  let previous = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const row = new Uint8Array(stride);
    for (let x = 0; x < width; x++) row.set(paint(x, y), x * 3);
    raw[y * (stride + 1)] = 2;
    const filtered = row.map((value, i) => value - (previous[i] ?? 0));
    raw.set(filtered, y * (stride + 1) + 1);
    previous = row;
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8);
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", await deflate(raw)),
    chunk("IEND", new Uint8Array()),
  ];
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** A 256×256 identicon: a 5×5 grid mirrored left to right, in a colour of the name, on a light ground. */
export function avatar(name: string): Promise<Uint8Array> {
  const h = hash(name);
  const ink = hsl(h % 360, 0.55, 0.5);
  const ground: Rgb = [240, 240, 240];
  const cell = (col: number, row: number) => (h >>> ((row * 3 + Math.min(col, 4 - col)) % 32)) & 1;
  const size = 256;
  const unit = 42;
  const margin = (size - unit * 5) / 2;
  return png(size, size, (x, y) => {
    const col = Math.floor((x - margin) / unit);
    const row = Math.floor((y - margin) / unit);
    return col >= 0 && col < 5 && row >= 0 && row < 5 && cell(col, row) ? ink : ground;
  });
}

/** A 720×404 landscape: a sky fading to the horizon, a sun, and three ranges of hills, nearer ones darker. */
export function cover(name: string, width = 720, height = 404): Promise<Uint8Array> {
  const h = hash(name);
  // A blue sky over a warm horizon, and hills from green to blue-grey: colours a landscape may have.
  const [top, horizon] = [hsl(195 + (h % 35), 0.6, 0.55), hsl(15 + ((h >>> 4) % 35), 0.8, 0.82)];
  const hills = 90 + ((h >>> 6) % 110);
  const sun = { x: width * (0.2 + ((h >>> 8) % 60) / 100), y: height * 0.35, r: height * 0.09 };
  const ranges = [0, 1, 2].map((i) => ({
    colour: hsl(hills + i * 8, 0.35, 0.5 - i * 0.12),
    base: height * (0.55 + i * 0.13),
    amplitude: height * (0.08 - i * 0.015),
    wave: 0.004 + ((h >>> (i * 5)) % 7) / 1000,
    phase: (h >>> (i * 3)) % 100,
  }));
  const nearestFirst = [...ranges.entries()].reverse();
  return png(width, height, (x, y) => {
    for (const [i, r] of nearestFirst) {
      const ridge = r.base - r.amplitude * (Math.sin(x * r.wave + r.phase) + 0.5 * Math.sin(x * r.wave * 2.3 + i));
      if (y >= ridge) return r.colour;
    }
    if ((x - sun.x) ** 2 + (y - sun.y) ** 2 <= sun.r ** 2) return [255, 244, 214];
    return mix(top, horizon, y / (height * 0.7));
  });
}

/**
 * CPU time of the GIF encoder (src/lib/images/gif.ts) on the largest GIF the API ever writes, in Node with the
 * Worker's own source (same V8 as workerd). `npm run bench gif`; mean CPU milliseconds of the request's thread per
 * encode (bench/lib/cpu.ts) and the bytes written.
 *
 * The largest: a GIF of 703x5974 (4.2 megapixels, the most an upload may have, docs/images.md#upload-limits) gets
 * a `release` 702 wide, 702x5965; every other size is smaller (the largest cover is 1450x812). Each is encoded as a
 * photograph would be (a smooth gradient with noise: tens of thousands of colours, so the palette is computed) and
 * as a drawing (under 256 colours, with transparent pixels: the palette is exact).
 */
import { encodeGif } from "../src/lib/images/gif";
import { meanCpuMs } from "./lib/cpu";
import { random } from "./lib/random.mjs";

function photograph(width: number, height: number): Uint8Array {
  const next = random(1);
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0, i = 0; y < height; y++) {
    for (let x = 0; x < width; x++, i += 4) {
      const noise = () => Math.floor(next() * 24) - 12;
      const clamp = (n: number) => Math.max(0, Math.min(255, n));
      rgba[i] = clamp(Math.round((x * 255) / width) + noise());
      rgba[i + 1] = clamp(Math.round((y * 255) / height) + noise());
      rgba[i + 2] = clamp(128 + Math.round(64 * Math.sin((x + y) / 50)) + noise());
      rgba[i + 3] = 255;
    }
  }
  return rgba;
}

function drawing(width: number, height: number): Uint8Array {
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0, i = 0; y < height; y++) {
    for (let x = 0; x < width; x++, i += 4) {
      // 16 bands of 12 colours, and a transparent border.
      const colour = (Math.floor(y / 40) % 16) * 12 + (Math.floor(x / 60) % 12);
      const inside = x > 8 && y > 8 && x < width - 8 && y < height - 8;
      rgba.set(inside ? [colour, 255 - colour, (colour * 7) % 256, 255] : [0, 0, 0, 0], i);
    }
  }
  return rgba;
}

const CASES = [
  { name: "release of the largest upload, a photograph", width: 702, height: 5965, pixels: photograph },
  { name: "release of the largest upload, a drawing", width: 702, height: 5965, pixels: drawing },
  { name: "largest user cover, a photograph", width: 1450, height: 812, pixels: photograph },
];

console.log(`${"input".padEnd(48)} ${"size".padStart(10)} ${"bytes out".padStart(10)} ${"ms".padStart(7)}`);
for (const { name, width, height, pixels } of CASES) {
  const rgba = pixels(width, height);
  let bytes = 0;
  const ms = meanCpuMs(
    () => {
      bytes = encodeGif(rgba, width, height).length;
    },
    5,
    1000,
  );
  const size = `${width}x${height}`;
  console.log(`${name.padEnd(48)} ${size.padStart(10)} ${String(bytes).padStart(10)} ${ms.toFixed(1).padStart(7)}`);
}

/**
 * The generated default avatar (docs/images.md): a 256x256 PNG, transparent around a filled circle in a Material
 * Design colour, with the first character of the username upper-cased in white.
 *
 * Workers have no canvas and no font files, so the letter comes from a built-in 5x7 bitmap font (A-Z, 0-9) scaled
 * up; accents are dropped first (`é` draws `E`). Any other first character (CJK, symbols, emoji) gets the circle
 * alone: shipping a CJK font would cost megabytes of bundle for a placeholder.
 */
import { Photon } from "./photon";

export const DEFAULT_AVATAR_SIZE = 256;

/** Material Design 500 shades that keep white text readable (lime, yellow and amber are left out). */
const COLOURS: readonly (readonly [number, number, number])[] = [
  [0xf4, 0x43, 0x36], // red
  [0xe9, 0x1e, 0x63], // pink
  [0x9c, 0x27, 0xb0], // purple
  [0x67, 0x3a, 0xb7], // deep purple
  [0x3f, 0x51, 0xb5], // indigo
  [0x21, 0x96, 0xf3], // blue
  [0x03, 0xa9, 0xf4], // light blue
  [0x00, 0xbc, 0xd4], // cyan
  [0x00, 0x96, 0x88], // teal
  [0x4c, 0xaf, 0x50], // green
  [0x8b, 0xc3, 0x4a], // light green
  [0xff, 0x98, 0x00], // orange
  [0xff, 0x57, 0x22], // deep orange
  [0x79, 0x55, 0x48], // brown
  [0x60, 0x7d, 0x8b], // blue grey
];

const GLYPH_WIDTH = 5;
const GLYPH_HEIGHT = 7;

/** Each glyph: 7 rows of 5 bits (most significant bit on the left), as 14 hex digits. */
const FONT: Record<string, string> = {
  A: "0e11111f111111",
  B: "1e11111e11111e",
  C: "0e11101010110e",
  D: "1c12111111121c",
  E: "1f10101e10101f",
  F: "1f10101e101010",
  G: "0e11101711110f",
  H: "1111111f111111",
  I: "0e04040404040e",
  J: "0702020202120c",
  K: "11121418141211",
  L: "1010101010101f",
  M: "111b1515111111",
  N: "11111915131111",
  O: "0e11111111110e",
  P: "1e11111e101010",
  Q: "0e11111115120d",
  R: "1e11111e141211",
  S: "0f10100e01011e",
  T: "1f040404040404",
  U: "1111111111110e",
  V: "11111111110a04",
  W: "1111111515150a",
  X: "11110a040a1111",
  Y: "11110a04040404",
  Z: "1f01020408101f",
  "0": "0e11131519110e",
  "1": "040c040404040e",
  "2": "0e11010204081f",
  "3": "1f02040201110e",
  "4": "02060a121f0202",
  "5": "1f101e0101110e",
  "6": "0608101e11110e",
  "7": "1f010204080808",
  "8": "0e11110e11110e",
  "9": "0e11110f01020c",
};

/** FNV-1a: a stable colour per username, so regenerating keeps the user's colour. */
function colourOf(username: string): readonly [number, number, number] {
  let hash = 0x811c9dc5;
  for (const unit of new TextEncoder().encode(username)) hash = Math.imul(hash ^ unit, 0x01000193) >>> 0;
  return COLOURS[hash % COLOURS.length] as readonly [number, number, number];
}

/** The glyph rows of the username's first character, or null when the font has none. */
function glyphOf(username: string): number[] | null {
  const first = Array.from(username.trim())[0] ?? "";
  const base = first
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toUpperCase();
  const hex = FONT[base];
  if (!hex) return null;
  return Array.from({ length: GLYPH_HEIGHT }, (_, row) => parseInt(hex.slice(row * 2, row * 2 + 2), 16));
}

/** RGBA pixels of the avatar: an anti-aliased circle, then the glyph's cells in white. */
export function defaultAvatarPixels(username: string, size = DEFAULT_AVATAR_SIZE): Uint8Array {
  const [r, g, b] = colourOf(username);
  const rgba = new Uint8Array(size * size * 4);
  const centre = size / 2;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      // Coverage of the pixel by the circle, from its centre's distance to the edge: a one-pixel soft edge.
      const distance = Math.hypot(x + 0.5 - centre, y + 0.5 - centre);
      const alpha = Math.max(0, Math.min(1, centre - distance + 0.5));
      if (alpha > 0) rgba.set([r, g, b, Math.round(alpha * 255)], (y * size + x) * 4);
    }
  }
  const glyph = glyphOf(username);
  if (!glyph) return rgba;
  // The letter takes ~44% of the height, like a typeset initial; cells stay whole pixels so edges are crisp.
  const cell = Math.floor((size * 0.44) / GLYPH_HEIGHT);
  const left = Math.round(centre - (GLYPH_WIDTH * cell) / 2);
  const top = Math.round(centre - (GLYPH_HEIGHT * cell) / 2);
  glyph.forEach((bits, row) => {
    for (let column = 0; column < GLYPH_WIDTH; column++) {
      if (!((bits >> (GLYPH_WIDTH - 1 - column)) & 1)) continue;
      for (let y = top + row * cell; y < top + (row + 1) * cell; y++) {
        rgba.fill(255, (y * size + left + column * cell) * 4, (y * size + left + (column + 1) * cell) * 4);
      }
    }
  });
  return rgba;
}

/** The avatar as PNG bytes (the file stored as `<name>.png` must be a PNG, not an SVG). */
export function renderDefaultAvatar(username: string): Uint8Array {
  const photon = new Photon();
  return photon.encode(
    photon.fromPixels(defaultAvatarPixels(username), DEFAULT_AVATAR_SIZE, DEFAULT_AVATAR_SIZE),
    "png",
  );
}

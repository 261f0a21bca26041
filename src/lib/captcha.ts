/**
 * Captchas (behaviour.md 5.1): 5 characters drawn as an SVG data URI, kept in KV for 10 minutes, checked
 * case-insensitively and deleted on the first check, right or wrong. The characters are vector strokes from
 * the glyph table below, each jittered, scaled and rotated, with noise lines over them: the SVG holds no
 * <text> a bot could read back.
 */
import { randomString, randomToken } from "./crypto";

export interface Captcha {
  captcha_token: string;
  captcha_image: string;
}

/** No 0/O, 1/I/L, 2/Z, 5/S, 8/B, 6/G: pairs people confuse in a distorted image. */
const ALPHABET = "ACDEFHJKMNPQRTUVWXY34679";
const LENGTH = 5;
const TTL_SECONDS = 600;
const TOKEN_FORMAT = /^[0-9a-f]{64}$/;

type Stroke = number[];

/** Polylines on a 4 x 6 grid (y grows downwards), as flat x,y lists. */
const GLYPHS: Record<string, Stroke[]> = {
  A: [[0, 6, 2, 0, 4, 6], [0.7, 4, 3.3, 4]],
  C: [[4, 1, 3, 0, 1, 0, 0, 1, 0, 5, 1, 6, 3, 6, 4, 5]],
  D: [[0, 0, 0, 6, 2.5, 6, 4, 4.5, 4, 1.5, 2.5, 0, 0, 0]],
  E: [[4, 0, 0, 0, 0, 6, 4, 6], [0, 3, 3, 3]],
  F: [[4, 0, 0, 0, 0, 6], [0, 3, 3, 3]],
  H: [[0, 0, 0, 6], [4, 0, 4, 6], [0, 3, 4, 3]],
  J: [[4, 0, 4, 5, 3, 6, 1, 6, 0, 5]],
  K: [[0, 0, 0, 6], [4, 0, 0, 3.5], [1.4, 2.6, 4, 6]],
  M: [[0, 6, 0, 0, 2, 3, 4, 0, 4, 6]],
  N: [[0, 6, 0, 0, 4, 6, 4, 0]],
  P: [[0, 6, 0, 0, 3, 0, 4, 1, 4, 2, 3, 3, 0, 3]],
  Q: [[1, 0, 0, 1, 0, 5, 1, 6, 3, 6, 4, 5, 4, 1, 3, 0, 1, 0], [2.5, 4.5, 4, 6]],
  R: [[0, 6, 0, 0, 3, 0, 4, 1, 4, 2, 3, 3, 0, 3], [2, 3, 4, 6]],
  T: [[0, 0, 4, 0], [2, 0, 2, 6]],
  U: [[0, 0, 0, 5, 1, 6, 3, 6, 4, 5, 4, 0]],
  V: [[0, 0, 2, 6, 4, 0]],
  W: [[0, 0, 1, 6, 2, 3, 3, 6, 4, 0]],
  X: [[0, 0, 4, 6], [4, 0, 0, 6]],
  Y: [[0, 0, 2, 3, 4, 0], [2, 3, 2, 6]],
  "3": [[0, 1, 1, 0, 3, 0, 4, 1, 4, 2, 3, 3, 1.5, 3], [3, 3, 4, 4, 4, 5, 3, 6, 1, 6, 0, 5]],
  "4": [[3, 6, 3, 0, 0, 4, 4, 4]],
  "6": [[3.5, 0, 1, 0, 0, 1, 0, 5, 1, 6, 3, 6, 4, 5, 4, 4, 3, 3, 0, 3]],
  "7": [[0, 0, 4, 0, 1.5, 6]],
  "9": [[4, 3, 1, 3, 0, 2, 0, 1, 1, 0, 3, 0, 4, 1, 4, 5, 3, 6, 0.5, 6]],
};

const WIDTH = 130;
const HEIGHT = 44;

/** A uniform float in [min, max). */
function random(min: number, max: number): number {
  const [value = 0] = crypto.getRandomValues(new Uint32Array(1));
  return min + (value / 2 ** 32) * (max - min);
}

const fmt = (n: number) => n.toFixed(1);
const colour = () => `hsl(${Math.floor(random(0, 360))},${Math.floor(random(45, 75))}%,${Math.floor(random(20, 38))}%)`;

/** One character: each point jittered, then the glyph scaled, rotated about its centre and moved to its cell. */
function glyphPaths(char: string, cellX: number): string {
  const scale = random(3.6, 4.3);
  const angle = (random(-22, 22) * Math.PI) / 180;
  const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
  const centreX = cellX + random(-2, 2);
  const centreY = HEIGHT / 2 + random(-3, 3);
  const stroke = `stroke="${colour()}" stroke-width="${fmt(random(2, 2.8))}"`;
  return (GLYPHS[char] ?? [])
    .map((points) => {
      const commands: string[] = [];
      for (let i = 0; i + 1 < points.length; i += 2) {
        const x = ((points[i] as number) - 2 + random(-0.25, 0.25)) * scale;
        const y = ((points[i + 1] as number) - 3 + random(-0.25, 0.25)) * scale;
        commands.push(`${i === 0 ? "M" : "L"}${fmt(centreX + x * cos - y * sin)} ${fmt(centreY + x * sin + y * cos)}`);
      }
      return `<path d="${commands.join("")}" ${stroke}/>`;
    })
    .join("");
}

function noise(): string {
  const lines: string[] = [];
  for (let i = 0; i < 5; i++) {
    const d = `M${fmt(random(0, WIDTH / 3))} ${fmt(random(0, HEIGHT))}Q${fmt(random(0, WIDTH))} ${fmt(random(-HEIGHT, 2 * HEIGHT))} ${fmt(random((2 * WIDTH) / 3, WIDTH))} ${fmt(random(0, HEIGHT))}`;
    lines.push(`<path d="${d}" stroke="${colour()}" stroke-width="${fmt(random(1, 1.8))}"/>`);
  }
  for (let i = 0; i < 30; i++) {
    lines.push(`<circle cx="${fmt(random(0, WIDTH))}" cy="${fmt(random(0, HEIGHT))}" r="${fmt(random(0.5, 1.3))}" fill="${colour()}"/>`);
  }
  return lines.join("");
}

/** The image of `code` as an SVG document. */
export function renderCaptcha(code: string): string {
  const cell = WIDTH / (code.length + 1);
  const glyphs = [...code].map((char, i) => glyphPaths(char, cell * (i + 1))).join("");
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">` +
    `<rect width="100%" height="100%" fill="#f4f4f0"/>` +
    `<g fill="none" stroke-linecap="round" stroke-linejoin="round">${glyphs}${noise()}</g></svg>`
  );
}

const kvKey = (token: string) => `captcha:${token}`;

export async function createCaptcha(kv: KVNamespace): Promise<Captcha> {
  const code = randomString(LENGTH, ALPHABET);
  const token = randomToken();
  await kv.put(kvKey(token), code, { expirationTtl: TTL_SECONDS });
  return { captcha_token: token, captcha_image: `data:image/svg+xml;base64,${btoa(renderCaptcha(code))}` };
}

/** True when `code` answers the captcha `token`; the captcha is used up either way. */
export async function checkCaptcha(kv: KVNamespace, token: string | undefined, code: string | undefined): Promise<boolean> {
  // A malformed token could be an over-long KV key (an error, not a wrong answer); it matches nothing anyway.
  if (!token || !code || !TOKEN_FORMAT.test(token)) return false;
  const key = kvKey(token);
  const expected = await kv.get(key);
  if (expected === null) return false;
  await kv.delete(key);
  return expected.toUpperCase() === code.trim().toUpperCase();
}

/**
 * Captchas: 5 characters drawn as an SVG data URI, kept in D1 for 10 minutes, checked case-insensitively and
 * used up by the first check, right or wrong: the check is one `DELETE … RETURNING`, so two requests racing
 * with one captcha cannot both pass. The characters are vector strokes from the glyph table below, each
 * jittered, scaled and rotated, mixed with noise strokes of the same kind (docs/stats-captcha-mail.md#captchas): the
 * image is one path of straight polylines in random order, with the same number of strokes and points whatever the
 * answer.
 */
import { and, eq, gt } from "drizzle-orm";
import type { Db } from "../db/client";
import { captchas } from "../db/schema";
import { randomString, randomToken } from "./crypto";
import { now } from "./time";

export interface Captcha {
  captcha_token: string;
  captcha_image: string;
}

/** No 0/O, 1/I/L, 2/Z, 5/S, 8/B, 6/G: pairs people confuse in a distorted image. */
const ALPHABET = "ACDEFHJKMNPQRTUVWXY34679";
const LENGTH = 5;
const TTL_SECONDS = 600;
/** Strokes and points of every image: the glyphs' (at most 15 and 55) topped up with noise. */
const STROKES = 24;
const POINTS = 100;
const TOKEN_FORMAT = /^[0-9a-f]{64}$/;

type Stroke = number[];

/** Polylines on a 4 x 6 grid (y grows downwards), as flat x,y lists. */
const GLYPHS: Record<string, Stroke[]> = {
  A: [
    [0, 6, 2, 0, 4, 6],
    [0.7, 4, 3.3, 4],
  ],
  C: [[4, 1, 3, 0, 1, 0, 0, 1, 0, 5, 1, 6, 3, 6, 4, 5]],
  D: [[0, 0, 0, 6, 2.5, 6, 4, 4.5, 4, 1.5, 2.5, 0, 0, 0]],
  E: [
    [4, 0, 0, 0, 0, 6, 4, 6],
    [0, 3, 3, 3],
  ],
  F: [
    [4, 0, 0, 0, 0, 6],
    [0, 3, 3, 3],
  ],
  H: [
    [0, 0, 0, 6],
    [4, 0, 4, 6],
    [0, 3, 4, 3],
  ],
  J: [[4, 0, 4, 5, 3, 6, 1, 6, 0, 5]],
  K: [
    [0, 0, 0, 6],
    [4, 0, 0, 3.5],
    [1.4, 2.6, 4, 6],
  ],
  M: [[0, 6, 0, 0, 2, 3, 4, 0, 4, 6]],
  N: [[0, 6, 0, 0, 4, 6, 4, 0]],
  P: [[0, 6, 0, 0, 3, 0, 4, 1, 4, 2, 3, 3, 0, 3]],
  Q: [
    [1, 0, 0, 1, 0, 5, 1, 6, 3, 6, 4, 5, 4, 1, 3, 0, 1, 0],
    [2.5, 4.5, 4, 6],
  ],
  R: [
    [0, 6, 0, 0, 3, 0, 4, 1, 4, 2, 3, 3, 0, 3],
    [2, 3, 4, 6],
  ],
  T: [
    [0, 0, 4, 0],
    [2, 0, 2, 6],
  ],
  U: [[0, 0, 0, 5, 1, 6, 3, 6, 4, 5, 4, 0]],
  V: [[0, 0, 2, 6, 4, 0]],
  W: [[0, 0, 1, 6, 2, 3, 3, 6, 4, 0]],
  X: [
    [0, 0, 4, 6],
    [4, 0, 0, 6],
  ],
  Y: [
    [0, 0, 2, 3, 4, 0],
    [2, 3, 2, 6],
  ],
  "3": [
    [0, 1, 1, 0, 3, 0, 4, 1, 4, 2, 3, 3, 1.5, 3],
    [3, 3, 4, 4, 4, 5, 3, 6, 1, 6, 0, 5],
  ],
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
type Point = [number, number];

/** One character's strokes: each point jittered, the glyph scaled, rotated about its centre, moved to its cell. */
function glyphStrokes(char: string, cellX: number): Point[][] {
  const scale = random(3.6, 4.3);
  const angle = (random(-22, 22) * Math.PI) / 180;
  const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
  const centreX = cellX + random(-2, 2);
  const centreY = HEIGHT / 2 + random(-3, 3);
  return (GLYPHS[char] ?? []).map((points) => {
    const stroke: Point[] = [];
    for (let i = 0; i + 1 < points.length; i += 2) {
      const x = ((points[i] as number) - 2 + random(-0.25, 0.25)) * scale;
      const y = ((points[i + 1] as number) - 3 + random(-0.25, 0.25)) * scale;
      stroke.push([centreX + x * cos - y * sin, centreY + x * sin + y * cos]);
    }
    return random(0, 1) < 0.5 ? stroke : stroke.reverse();
  });
}

/** A noise stroke of `points` points: a walk of glyph-sized steps over the text band. */
function noiseStroke(points: number): Point[] {
  const stroke: Point[] = [[random(8, WIDTH - 8), random(8, HEIGHT - 8)]];
  while (stroke.length < points) {
    const [x, y] = stroke.at(-1) as Point;
    const [length, angle] = [random(4, 20), random(0, 2 * Math.PI)];
    const clamp = (value: number, size: number) => Math.min(size - 2, Math.max(2, value));
    stroke.push([clamp(x + length * Math.cos(angle), WIDTH), clamp(y + length * Math.sin(angle), HEIGHT)]);
  }
  return stroke;
}

/** The image of `code` as an SVG document. */
export function renderCaptcha(code: string): string {
  const cell = WIDTH / (code.length + 1);
  const strokes = [...code].flatMap((char, i) => glyphStrokes(char, cell * (i + 1)));
  const noiseCount = STROKES - strokes.length;
  // Every noise stroke has at least 2 points; the points left over go to noise strokes drawn at random.
  const sizes = Array.from({ length: noiseCount }, () => 2);
  for (let left = POINTS - strokes.flat().length - 2 * noiseCount; left > 0; left--) {
    const i = Math.floor(random(0, noiseCount));
    sizes[i] = (sizes[i] as number) + 1;
  }
  strokes.push(...sizes.map(noiseStroke));
  for (let i = strokes.length - 1; i > 0; i--) {
    const j = Math.floor(random(0, i + 1));
    [strokes[i], strokes[j]] = [strokes[j] as Point[], strokes[i] as Point[]];
  }
  const d = strokes.map((stroke) => stroke.map(([x, y], i) => `${i ? "L" : "M"}${fmt(x)} ${fmt(y)}`).join("")).join("");
  const colour = `hsl(${Math.floor(random(0, 360))},${Math.floor(random(45, 75))}%,${Math.floor(random(20, 38))}%)`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">` +
    `<rect width="100%" height="100%" fill="#f4f4f0"/>` +
    `<path d="${d}" fill="none" stroke="${colour}" stroke-width="${fmt(random(2, 2.6))}" ` +
    `stroke-linecap="round" stroke-linejoin="round"/></svg>`
  );
}

/** A new captcha, and the row to store for it (in the caller's batch). */
export function newCaptcha(): { captcha: Captcha; row: typeof captchas.$inferInsert } {
  const code = randomString(LENGTH, ALPHABET);
  const token = randomToken();
  return {
    captcha: { captcha_token: token, captcha_image: `data:image/svg+xml;base64,${btoa(renderCaptcha(code))}` },
    row: { token, code, expire_time: now() + TTL_SECONDS },
  };
}

export const insertCaptcha = (db: Db, row: typeof captchas.$inferInsert) => db.insert(captchas).values(row);

/** POST /api/captchas: one D1 round trip. */
export async function createCaptcha(db: Db): Promise<Captcha> {
  const { captcha, row } = newCaptcha();
  await insertCaptcha(db, row).run();
  return captcha;
}

/**
 * Uses up the captcha `token` (a statement for the caller's batch) and returns its code if it was still valid.
 * A missing or malformed token matches no row: the batch keeps its shape and the answer is simply wrong.
 */
export const takeCaptcha = (db: Db, token: string | undefined) =>
  db
    .delete(captchas)
    .where(and(eq(captchas.token, token && TOKEN_FORMAT.test(token) ? token : ""), gt(captchas.expire_time, now())))
    .returning({ code: captchas.code });

/** True when `answer` matches the code `takeCaptcha` returned. */
export const captchaSolved = (taken: { code: string }[], answer: string | undefined): boolean =>
  !!answer && taken[0]?.code.toUpperCase() === answer.trim().toUpperCase();

/**
 * Path id lists (`{ids}`): at most 100 positive integers, comma separated
 * (docs/decisions.md#id-lists-hold-at-most-100-ids).
 */
import { validationError } from "../core/errors";

export const MAX_IDS = 100;

export function isPositiveIntString(part: string): boolean {
  return /^[1-9]\d{0,15}$/.test(part) && Number.isSafeInteger(Number(part));
}

/** Parses `1,2,3`; a list with more than 100 ids or a part that is not an id is a 200001 on `field`. */
export function parseIdList(value: string, field: string): number[] {
  const parts = value.split(",").map((p) => p.trim());
  if (parts.length > MAX_IDS) throw validationError({ [field]: `at most ${MAX_IDS} ids` });
  if (!parts.every(isPositiveIntString))
    throw validationError({ [field]: "must be positive integers separated by commas" });
  return [...new Set(parts.map(Number))];
}

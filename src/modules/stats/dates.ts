/**
 * The day range of the `new_*` statistics. Days are whole UTC days counted from the Unix epoch
 * (docs/decisions.md#statistics-use-utc-days "Platform": statistics bucket by UTC day), so a day `d` holds the create
 * times `[d * 86400, (d + 1) * 86400)`.
 */
import { validationError } from "../../core/errors";
import { now } from "../../lib/time";

export const DAY_SECONDS = 86400;

/** One leap year: enough for a year-over-year chart, and it bounds the response size. */
export const MAX_RANGE_DAYS = 366;

/**
 * The default range when neither end is given: the last 7 days, today included (docs/stats-captcha-mail.md#statistics).
 */
const DEFAULT_RANGE_DAYS = 7;

export interface DayRange {
  /** First and last day, both included. */
  first: number;
  last: number;
}

export const todayUtc = (): number => Math.floor(now() / DAY_SECONDS);

/**
 * A `YYYY-MM-DD` date, month and day with or without the leading zero (the MDClub SDK's example is
 * `2020-5-12`), as a day number; null when it is not a real calendar date.
 */
export function parseDay(text: string): number | null {
  const match = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  if (!match) return null;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls 2021-02-30 over to March and maps years 0-99 onto 1900-1999: a real date reads back as given.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.getTime() / 1000 / DAY_SECONDS;
}

const formatDay = (day: number): string => new Date(day * DAY_SECONDS * 1000).toISOString().slice(0, 10);

/** Every day of the range as `YYYY-MM-DD`, in order. */
export function daysOf(range: DayRange): string[] {
  return Array.from({ length: range.last - range.first + 1 }, (_, i) => formatDay(range.first + i));
}

function dayParam(name: "start_date" | "end_date", text: string | undefined): number | undefined {
  // An empty value is a form field left blank: it means "not given", like the parameter's absence.
  if (text === undefined || text === "") return undefined;
  const day = parseDay(text);
  if (day === null) throw validationError({ [name]: "must be a date as YYYY-MM-DD" });
  return day;
}

/**
 * The requested range. `end_date` defaults to today (UTC) and `start_date` to 6 days before the end, so either
 * alone still means something. Unlike the original, which fell back to the default silently, an invalid date,
 * a start after the end or a range over MAX_RANGE_DAYS is a 200001 naming the field.
 */
export function resolveRange(startText: string | undefined, endText: string | undefined, today: number): DayRange {
  const start = dayParam("start_date", startText);
  const last = dayParam("end_date", endText) ?? today;
  const first = start ?? last - (DEFAULT_RANGE_DAYS - 1);
  if (first > last) throw validationError({ start_date: "must not be after end_date" });
  if (last - first + 1 > MAX_RANGE_DAYS)
    throw validationError({ start_date: `the range can span at most ${MAX_RANGE_DAYS} days` });
  return { first, last };
}

/**
 * What can be reported (behaviour.md 1 "report", 3.8) and how a target is named in a path. A reportable type
 * is one with a summary (content/summaries.ts): live content, or a user who exists.
 */
import type { reports } from "../../db/schema";
import { ApiError, validationError } from "../../lib/errors";
import { isPositiveIntString, MAX_IDS } from "../../lib/ids";
import { type Summarised, summaries } from "../content/summaries";

export type ReportableType = (typeof reports.$inferSelect)["reportable_type"];
export const REPORTABLE_TYPES = [
  "question",
  "answer",
  "article",
  "comment",
  "user",
] as const satisfies readonly ReportableType[];

/** Every kind that has a summary can be reported. */
export const reportables: Record<ReportableType, Summarised> = summaries;

export interface Target {
  type: ReportableType;
  id: number;
}

const isReportableType = (value: string): value is ReportableType =>
  (REPORTABLE_TYPES as readonly string[]).includes(value);

/**
 * One `{reportable_type}:{reportable_id}`. The type is checked first (207002, behaviour.md 3.8); a part without
 * a colon or with an id that is not a positive integer is a 200001 naming the path parameter.
 */
export function parseTarget(part: string, param: string): Target {
  const colon = part.indexOf(":");
  if (colon < 0) throw validationError({ [param]: "must be reportable_type:reportable_id" });
  const type = part.slice(0, colon);
  const id = part.slice(colon + 1);
  if (!isReportableType(type)) throw new ApiError("REPORT_TARGET_TYPE_INVALID");
  if (!isPositiveIntString(id)) throw validationError({ [param]: "reportable_id must be a positive integer" });
  return { type, id: Number(id) };
}

/** `type:id` or a comma list of at most 100 of them (DECISIONS.md: path lists hold at most 100). */
export function parseTargetList(value: string, param: string): Target[] {
  const parts = value.split(",");
  if (parts.length > MAX_IDS) throw validationError({ [param]: `at most ${MAX_IDS} targets` });
  return parts.map((part) => parseTarget(part.trim(), param));
}

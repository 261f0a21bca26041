/**
 * What can be reported (docs/data-model.md#reports, docs/operations.md#reports) and how a target is named in a path:
 * the reportable kinds of the entity model, each shown by its summary (behaviours/content/summaries.ts): live content,
 * or a user who exists.
 */
import { type Summarised, summaries } from "../../behaviours/content/summaries";
import { ApiError, validationError } from "../../core/errors";
import { reports } from "../../db/schema";
import type { ReportableKind } from "../../domain/entities";
import { isPositiveIntString, MAX_IDS } from "../../lib/ids";

/** The schema's enum, which the entity model checks names exactly the reportable kinds (a tuple, for zod). */
export const REPORTABLE_TYPES = reports.reportable_type.enumValues;

export const reportables: Record<ReportableKind, Summarised> = summaries;

/**
 * Kinds MDClub's own admin panel cannot show (it names each reported target by a table of the original five kinds):
 * under MDCLUB_COMPAT its list of reported targets leaves them out (docs/messages.md#moderation).
 */
export const UNKNOWN_TO_MDCLUB: readonly ReportableKind[] = ["message"];

export interface Target {
  type: ReportableKind;
  id: number;
}

const isReportableKind = (value: string): value is ReportableKind =>
  (REPORTABLE_TYPES as readonly string[]).includes(value);

/**
 * One `{reportable_type}:{reportable_id}`. The type is checked first (207002, docs/operations.md#reports); a part
 * without a colon or with an id that is not a positive integer is a 200001 naming the path parameter.
 */
export function parseTarget(part: string, param: string): Target {
  const colon = part.indexOf(":");
  if (colon < 0) throw validationError({ [param]: "must be reportable_type:reportable_id" });
  const type = part.slice(0, colon);
  const id = part.slice(colon + 1);
  if (!isReportableKind(type)) throw new ApiError("REPORT_TARGET_TYPE_INVALID");
  if (!isPositiveIntString(id)) throw validationError({ [param]: "reportable_id must be a positive integer" });
  return { type, id: Number(id) };
}

/**
 * `type:id` or a comma list of at most 100 of them (docs/decisions.md#id-lists-hold-at-most-100-ids: path lists hold at
 * most 100).
 */
export function parseTargetList(value: string, param: string): Target[] {
  const parts = value.split(",");
  if (parts.length > MAX_IDS) throw validationError({ [param]: `at most ${MAX_IDS} targets` });
  return parts.map((part) => parseTarget(part.trim(), param));
}

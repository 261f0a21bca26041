/** Turns zod failures into the 200001 body: `errors` names each failing field (first message per field). */
import type { z } from "zod";
import { type ApiError, validationError } from "../core/errors";

/**
 * `fallbackField` names an issue about the whole input (e.g. a body that is not an object); `nameOf` lets a
 * route report a field under the name the client used for it (options accept legacy MDClub names).
 */
export function zodToApiError(
  error: z.ZodError,
  fallbackField = "body",
  nameOf: (field: string) => string = (field) => field,
): ApiError {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = issue.path.length ? nameOf(issue.path.join(".")) : fallbackField;
    errors[field] ??= issue.message;
  }
  return validationError(errors);
}

/** Turns zod failures into the 200001 body: `errors` names each failing field (first message per field). */
import type { z } from "zod";
import { validationError, type ApiError } from "./errors";

export function zodToApiError(error: z.ZodError, fallbackField = "body"): ApiError {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = issue.path.length ? issue.path.join(".") : fallbackField;
    errors[field] ??= issue.message;
  }
  return validationError(errors);
}

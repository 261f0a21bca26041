/**
 * Whether an author may edit or delete their own question, answer, article or comment
 * (docs/permissions.md#author-edit-and-delete-rules): the checks run in the reference's order and the first refusal
 * wins. Administrators are exempt. Finding the item (and its NOT_FOUND) is the caller's job, before this.
 */
import type { CallerId } from "../core/caller";
import { ApiError, type ErrorName } from "../core/errors";
import type { ContentKind } from "./entities";

export type { ContentKind };
export type AuthorAction = "edit" | "delete";

export interface AuthoredItem {
  user_id: number;
  create_time: number;
  /** Stored counters, trashed children included (the reference counts them too). */
  comment_count?: number;
  answer_count?: number;
}

/** `options` are the site's: `{kind}_can_{action}` and its `_before`, `_only_no_comment`, `_only_no_answer`. */
export function authorRefusal(
  kind: ContentKind,
  action: AuthorAction,
  item: AuthoredItem,
  caller: CallerId,
  options: Readonly<Record<string, unknown>>,
  time: number,
): ErrorName | null {
  if (caller.role === "admin") return null;
  const prefix = `${kind.toUpperCase()}_CANT_${action.toUpperCase()}`;
  const setting = (suffix: string) => options[`${kind}_can_${action}${suffix}`];
  if (item.user_id !== caller.user_id) return `${prefix}_NOT_AUTHOR` as ErrorName;
  if (setting("") !== true) return prefix as ErrorName;
  const before = Number(setting("_before") ?? 0);
  // Exactly at the limit is still allowed.
  if (before > 0 && item.create_time + before < time) return `${prefix}_TIMEOUT` as ErrorName;
  if (kind !== "comment" && setting("_only_no_comment") === true && (item.comment_count ?? 0) > 0) {
    return `${prefix}_HAS_COMMENT` as ErrorName;
  }
  if (kind === "question" && setting("_only_no_answer") === true && (item.answer_count ?? 0) > 0) {
    return `${prefix}_HAS_ANSWER` as ErrorName;
  }
  return null;
}

/** Throws the refusal, if any. */
export function assertAuthorMay(...args: Parameters<typeof authorRefusal>): void {
  const refusal = authorRefusal(...args);
  if (refusal) throw new ApiError(refusal);
}

/**
 * Whether the caller may choose a question's accepted answer: its author or an administrator
 * (docs/permissions.md#accepted-answers). Unlike an edit, no site setting limits it.
 */
export function assertMayAccept(question: { user_id: number }, caller: CallerId): void {
  if (caller.role !== "admin" && question.user_id !== caller.user_id) throw new ApiError("ACCEPT_NOT_ASKER");
}

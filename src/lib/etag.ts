/** Conditional requests (RFC 9110 13.1.2), for the answers that hono/etag does not make. */

/** Whether `If-None-Match` names `etag`: weak comparison, a list of tags, or `*`. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, "");
  return ifNoneMatch.trim() === "*" || ifNoneMatch.split(",").some((tag) => bare(tag) === bare(etag));
}

/** `include` parsing: a comma list checked against the route's allowed names; unknown names are ignored. */
export function parseInclude<T extends string>(value: string | undefined, allowed: readonly T[]): Set<T> {
  const wanted = new Set<T>();
  if (!value) return wanted;
  for (const part of value.split(",")) {
    const name = part.trim() as T;
    if (allowed.includes(name)) wanted.add(name);
  }
  return wanted;
}

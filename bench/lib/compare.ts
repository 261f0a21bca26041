/**
 * The project's and the reference's answers to the same request, compared: their JSON must be equal once each
 * server's own origin (in default image URLs) is written as `<origin>`; the headers one sends and the other does
 * not are named (the reference's required shape sends the project's: session bookmark, ETag, CORS, request id), and
 * so are those both send with other values, besides the ones that name this answer alone. The reference writes the
 * project's CORS values out by hand (it imports nothing of the project): this is where a change to them shows.
 */

/** Headers whose values belong to one answer or one server: its bytes, its id, its bookmark, its timings. */
const OWN_VALUES = new Set(["content-length", "date", "etag", "server-timing", "x-d1-bookmark", "x-request-id"]);

import { type BenchRoute, send } from "./load";

/** The first place two JSON values differ, as a path and both values; null when equal. */
function firstDifference(a: unknown, b: unknown, path = "$"): string | null {
  if (typeof a !== typeof b || Array.isArray(a) !== Array.isArray(b) || (a === null) !== (b === null)) {
    return `${path}: ${JSON.stringify(a)?.slice(0, 120)} vs ${JSON.stringify(b)?.slice(0, 120)}`;
  }
  if (a && typeof a === "object" && b && typeof b === "object") {
    const keysA = Object.keys(a);
    const keysB = Object.keys(b);
    if (keysA.join() !== keysB.join()) return `${path}: keys [${keysA}] vs [${keysB}]`;
    for (const key of keysA) {
      const found = firstDifference(
        (a as Record<string, unknown>)[key],
        (b as Record<string, unknown>)[key],
        `${path}.${key}`,
      );
      if (found) return found;
    }
    return null;
  }
  return a === b ? null : `${path}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
}

/** Sends call `k` of the route to both servers; answers "equal" or where they differ. */
export async function compareAnswers(
  route: BenchRoute,
  k: number,
  project: { origin: string },
  reference: { origin: string },
): Promise<{ equal: boolean; detail: string }> {
  const read = async (origin: string) => {
    const response = await send(origin, route.call(k));
    const text = (await response.text()).replaceAll(origin, "<origin>");
    return { status: response.status, text, headers: new Map(response.headers) };
  };
  const [mine, theirs] = [await read(project.origin), await read(reference.origin)];
  const only = (a: Map<string, string>, b: Map<string, string>) =>
    [...a.keys()].filter((name) => !b.has(name)).join(", ") || "none";
  const otherValues = [...mine.headers]
    .filter(([name, value]) => !OWN_VALUES.has(name) && theirs.headers.has(name) && theirs.headers.get(name) !== value)
    .map(([name]) => name);
  const headers =
    `; headers only the project sends: ${only(mine.headers, theirs.headers)}; ` +
    `only the reference: ${only(theirs.headers, mine.headers)}; other values: ${otherValues.join(", ") || "none"}`;
  if (mine.status !== theirs.status) return { equal: false, detail: `status ${mine.status} vs ${theirs.status}` };
  if (mine.text === theirs.text) return { equal: true, detail: `equal bytes (${mine.text.length} bytes)${headers}` };
  const difference = firstDifference(JSON.parse(mine.text), JSON.parse(theirs.text));
  return difference
    ? { equal: false, detail: `differ at ${difference}` }
    : { equal: true, detail: `equal JSON, other bytes (${mine.text.length} vs ${theirs.text.length})${headers}` };
}

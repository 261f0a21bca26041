/** Calls to the API's JSON envelope, and a pool that runs tasks over a few concurrent connections. */

/** How requests reach a server: Node's fetch, or a Worker called in this process (bench/lib/in-process.ts). */
export type Fetch = (url: string, init?: RequestInit) => Promise<Response>;

/** `{code: 0, data}` → data; anything else throws with the answer. */
export async function api<T>(
  origin: string,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
  fetcher: Fetch = fetch,
): Promise<T> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token) headers.token = token;
  const response = await fetcher(`${origin}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: { code?: number; data?: T } = {};
  try {
    parsed = JSON.parse(text);
  } catch {
    // reported below
  }
  if (parsed.code !== 0) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return parsed.data as T;
}

/** A token from `POST /api/tokens`, and its user's id. */
export async function login(origin: string, name: string, password: string, fetcher: Fetch = fetch) {
  const body = { name, password, device: "bench" };
  const token = await api<{ token: string; user_id: number }>(origin, "POST", "/api/tokens", undefined, body, fetcher);
  return { token: token.token, userId: token.user_id };
}

/** Runs `run` on every item, at most `concurrency` at a time; results keep the items' order. */
export async function pool<T, R>(
  items: readonly T[],
  concurrency: number,
  run: (item: T, index: number) => Promise<R>,
) {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await run(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

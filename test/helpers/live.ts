/**
 * Live sockets as a client holds them (docs/events.md#live-updates): opened through the Worker's GET /api/live,
 * every message kept, and waits that end on a message, never on a clock. `settle()` proves the hub has sent all it
 * had: its answer to a message comes after anything the hub sent before it on the same socket.
 */
import { env } from "cloudflare:workers";
import { BASE, fetchWorker, post } from "./api";

export interface LiveMessage {
  id: string | null;
  type: string;
  time: number;
  // Event data of every type, read by property access in the tests.
  // biome-ignore lint/suspicious/noExplicitAny: see above
  data: any;
}

export interface LiveSocket {
  socket: WebSocket;
  messages: LiveMessage[];
  /** Events only (the hub's own `live.*` notices left out). */
  events(): LiveMessage[];
  /** The first message (from now on, or already received) that `match` accepts. */
  next(match?: (message: LiveMessage) => boolean): Promise<LiveMessage>;
  /** Resolves once the hub has answered a message sent now: everything sent before has arrived. */
  settle(): Promise<void>;
  send(message: unknown): void;
  closed: Promise<{ code: number; reason: string }>;
}

/** How long a wait may take before the test fails (the hub answers in milliseconds). */
const GIVE_UP_MS = 10_000;

export async function ticketFor(token: string): Promise<string> {
  const res = await post("/api/live/tickets", { token });
  if (res.status !== 200) throw new Error(`POST /api/live/tickets answered ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.ticket;
}

/** The upgrade's answer, for tests of refusals. */
export function upgrade(query: Record<string, string> = {}, headers: Record<string, string> = {}): Promise<Response> {
  const url = new URL("/api/live", BASE);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  return fetchWorker(new Request(url, { headers: { upgrade: "websocket", ...headers } }));
}

export async function openLive(query: Record<string, string> = {}, bindings = env): Promise<LiveSocket> {
  const url = new URL("/api/live", BASE);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  const res = await fetchWorker(new Request(url, { headers: { upgrade: "websocket" } }), bindings);
  const socket = res.webSocket;
  if (res.status !== 101 || !socket) throw new Error(`GET /api/live answered ${res.status}: ${await res.text()}`);
  socket.accept();
  const messages: LiveMessage[] = [];
  const waiters = new Set<() => void>();
  socket.addEventListener("message", (event) => {
    const text = event.data as string;
    // Every message is JSON but the platform's answer to a keep-alive (`pong`), kept as a `text` message.
    messages.push(text.startsWith("{") ? JSON.parse(text) : { id: null, type: "text", time: 0, data: text });
    for (const waiter of [...waiters]) waiter();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.addEventListener("close", (event) => resolve({ code: event.code, reason: event.reason })),
  );
  let seen = 0;
  const next = (match: (message: LiveMessage) => boolean = () => true) =>
    new Promise<LiveMessage>((resolve, reject) => {
      const check = () => {
        const found = messages.slice(seen).find(match);
        if (!found) return;
        seen = messages.indexOf(found) + 1;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no such message; got ${JSON.stringify(messages.slice(seen))}`));
      }, GIVE_UP_MS);
      waiters.add(check);
      check();
    });
  const send = (message: unknown) => socket.send(typeof message === "string" ? message : JSON.stringify(message));
  return {
    socket,
    messages,
    events: () => messages.filter((message) => !message.type.startsWith("live.")),
    next,
    async settle() {
      send({ subscribe: [] });
      await next((message) => message.type === "live.subscribed");
    },
    send,
    closed,
  };
}

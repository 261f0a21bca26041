/**
 * `npm run bench live`: how long a notification takes from the write's answer to the member's socket
 * (docs/performance.md#live-notification-latency). Serves the project with `wrangler dev` as `npm run dev` runs it
 * (bench/lib/live-world.ts, on `--port=8804`), holds a socket as the asker, and has the answerer answer the asker's
 * question `--writes=200` times, one at a time, after `--warmup=10`: for each, the milliseconds from the answer to
 * the POST arriving at the client to the `notification.created` naming that answer arriving on the socket, and from
 * the POST being sent. Prints p50, p99 and the largest of both. Both clients are this process, on loopback.
 */
import { api } from "./lib/api";
import { liveWorld, ticket } from "./lib/live-world";
import { percentile } from "./lib/load";
import { option } from "./lib/options";

const WRITES = option("writes", 200);
const WARMUP = option("warmup", 10);
const PORT = option("port", 8804);

const world = await liveWorld("live", { port: PORT });
const { origin } = world.server;
try {
  const socket = new WebSocket(
    `${origin.replace("http", "ws")}/api/live?ticket=${await ticket(origin, world.asker.token)}`,
  );
  /** When each answer's notification arrived (performance.now()), by answer id. */
  const arrived = new Map<number, number>();
  const waiting = new Map<number, (time: number) => void>();
  socket.addEventListener("message", (message) => {
    const time = performance.now();
    const event = JSON.parse(String(message.data));
    if (event.type !== "notification.created") return;
    const answerId = event.data.answer_id as number;
    arrived.set(answerId, time);
    waiting.get(answerId)?.(time);
  });
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve);
    socket.addEventListener("error", reject);
  });

  const fromAnswer: number[] = [];
  const fromRequest: number[] = [];
  for (let i = 0; i < WARMUP + WRITES; i++) {
    const sent = performance.now();
    const body = { content_markdown: `Answer ${i}: the notification should reach the asker at once.` };
    const answer = await api<{ answer_id: number }>(
      origin,
      "POST",
      `/api/questions/${world.question}/answers`,
      world.answerer.token,
      body,
    );
    const answered = performance.now();
    const seen =
      arrived.get(answer.answer_id) ?? (await new Promise<number>((resolve) => waiting.set(answer.answer_id, resolve)));
    waiting.delete(answer.answer_id);
    if (i < WARMUP) continue;
    fromAnswer.push(seen - answered);
    fromRequest.push(seen - sent);
  }
  socket.close();

  const line = (name: string, values: number[]) =>
    `${name.padEnd(34)} p50 ${percentile(values, 50).toFixed(1).padStart(6)} ms   ` +
    `p99 ${percentile(values, 99).toFixed(1).padStart(6)} ms   max ${Math.max(...values)
      .toFixed(1)
      .padStart(6)} ms`;
  console.log(`${WRITES} answers (after ${WARMUP} to warm up), one at a time, wrangler dev on ${origin}`);
  console.log(line("answer received -> socket message", fromAnswer));
  console.log(line("request sent -> socket message", fromRequest));
  const early = fromAnswer.filter((ms) => ms < 0).length;
  console.log(`${early} of ${WRITES} notifications arrived before their write's answer had`);
} finally {
  await world.server.stop();
}

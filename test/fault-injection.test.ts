/**
 * Fault injection: each write is first run healthy, counting its D1 round trips; then, from the same database,
 * once with each of those round trips failing. Every failing run answers 500 with 100000, and leaves the
 * database as it was before, or (when the failure came after the write committed) as the healthy run left it:
 * never half a write, such as a question without its topic links or its author's question_count.
 */
import { describe, expect, it } from "vitest";
import { picture } from "./fixtures/pictures";
import { type ApiResponse, call, post, type RequestOptions } from "./helpers/api";
import { createTopic } from "./helpers/content";
import { changedTables, comparable, restore, snapshot } from "./helpers/db-state";
import { DEFAULT_PASSWORD, uniqueName } from "./helpers/factories";
import { faultyEnv } from "./helpers/faulty-db";
import { codeFromMail } from "./helpers/mailbox";
import { type Access, documentAtCollection, fillPath, operations, sampleBody } from "./helpers/openapi-doc";
import { buildWorld, type World } from "./helpers/world";

const doc = await documentAtCollection();

type Role = "user" | "other" | "admin";

interface Case {
  /** Method and path; `{question}`, `{user}`, ... are the world's. A note in brackets may follow. */
  name: string;
  as: Role;
  /** The JSON body, or a function building it once the world exists (it may set up what it needs). */
  body?: Record<string, unknown> | ((world: World) => Promise<Record<string, unknown>>);
  /** A multipart upload of a small PNG under this field. */
  upload?: string;
  /** A write done first, through the API with the real database (e.g. trash before untrash). */
  given?: string;
}

const write = (name: string, as: Role = "admin", body?: Case["body"], extra: Partial<Case> = {}): Case => ({
  name,
  as,
  body,
  ...extra,
});

/** Trash, untrash and the three kinds of hard delete of a kind of content. */
const lifecycle = (kind: string, id: string): Case[] => [
  write(`POST /api/${kind}/{${id}}/trash`),
  write(`POST /api/${kind}/{${id}}/untrash`, "admin", undefined, { given: `POST /api/${kind}/{${id}}/trash` }),
  write(`DELETE /api/${kind}/{${id}} (administrator)`),
  write(`DELETE /api/${kind}/{${id}} (author)`, "user"),
  write(`DELETE /api/${kind}/{${id}},999 (list)`),
];

async function registration(): Promise<Record<string, unknown>> {
  const email = `${uniqueName("r")}@example.test`;
  await post("/api/user/register/email", { body: { email } });
  return { email, email_code: await codeFromMail(email), username: uniqueName("n"), password: "pw-long-enough" };
}

async function passwordReset(world: World): Promise<Record<string, unknown>> {
  const email = world.user.email;
  await post("/api/user/password/email", { body: { email } });
  return { email, email_code: await codeFromMail(email), password: "another-long-password" };
}

const cases: Case[] = [
  write("POST /api/users (register)", "admin", registration),
  write("POST /api/tokens (login)", "admin", async (w) => ({ name: w.user.username, password: DEFAULT_PASSWORD })),
  write("DELETE /api/tokens/current", "user"),
  write("PUT /api/user/password (reset)", "other", passwordReset),
  write("PATCH /api/user", "user", { headline: "new headline" }),
  write("POST /api/questions", "user", async (w) => ({ title: "Asked", content_markdown: "q", topic_ids: [w.topic] })),
  write("PATCH /api/questions/{question}", "user", async () => ({ title: "Edited", topic_ids: [await createTopic()] })),
  ...lifecycle("questions", "question"),
  write("POST /api/questions/{question}/answers", "other", { content_markdown: "an answer" }),
  write("PATCH /api/answers/{answer}", "user", { content_markdown: "edited" }),
  ...lifecycle("answers", "answer"),
  write("POST /api/articles", "user", async (w) => ({ title: "Article", content_markdown: "a", topic_ids: [w.topic] })),
  write("PATCH /api/articles/{article}", "user", { title: "Edited article" }),
  ...lifecycle("articles", "article"),
  write("POST /api/questions/{question}/comments", "other", { content: "a comment" }),
  write("POST /api/comments/{comment}/replies", "admin", { content: "a reply" }),
  write("PATCH /api/comments/{comment}", "user", { content: "edited" }),
  ...lifecycle("comments", "comment"),
  write("POST /api/answers/{answer}/voters (changing a vote)", "other", { type: "down" }),
  write("POST /api/questions/{question}/voters", "admin", { type: "up" }),
  write("DELETE /api/questions/{question}/voters", "other"),
  write("POST /api/questions/{question}/followers"),
  write("DELETE /api/questions/{question}/followers", "other"),
  write("POST /api/users/{user}/followers"),
  write("DELETE /api/users/{user}/followers", "other"),
  write("POST /api/topics/{topic}/followers", "other"),
  write("POST /api/reports/answer:{answer}", "other", { reason: "spam spam" }),
  write("DELETE /api/reports/question:{question}"),
  write("POST /api/notifications/read", "user"),
  write("POST /api/notifications/{notification}/read", "user"),
  write("DELETE /api/notifications/{notification}", "user"),
  write("DELETE /api/notifications", "user"),
  write("POST /api/topics", "admin", async () => ({ name: uniqueName("t"), description: "new" })),
  write("PATCH /api/topics/{topic}", "admin", { description: "edited" }),
  write("POST /api/topics/{topic}/trash"),
  write("DELETE /api/topics/{topic}"),
  write("POST /api/images", "user", undefined, { upload: "image" }),
  write("PATCH /api/images/{image}", "admin", { filename: "b.png" }),
  write("DELETE /api/images/{image}"),
  write("POST /api/user/avatar", "user", undefined, { upload: "avatar" }),
  write("DELETE /api/user/avatar", "user"),
  write("POST /api/user/cover", "user", undefined, { upload: "cover" }),
  write("PATCH /api/options", "admin", { site_name: "Renamed", smtp_port: 2525 }),
  write("POST /api/users/{user}/disable"),
  write("POST /api/users/{user}/enable", "admin", undefined, { given: "POST /api/users/{user}/disable" }),
  write("PATCH /api/users/{user}", "admin", { headline: "set by admin" }),
];

/** Method and path of a case's name, with the world's ids in place. */
function target(name: string, world: World): [string, string] {
  const [method, template] = name.split(" ") as [string, string];
  const { topic, question, answer, article, comment, notification, image } = world;
  const ids: Record<string, string | number> = { topic, question, answer, article, comment, notification, image };
  ids.user = world.user.user_id;
  return [method, template.replace(/\{(\w+)\}/g, (_, key: string) => String(ids[key]))];
}

function send(world: World, write: Case, body: unknown, env?: RequestOptions["env"]) {
  const [method, path] = target(write.name, world);
  let form: FormData | undefined;
  if (write.upload) {
    form = new FormData();
    form.set(write.upload, new File([picture("png", 40, 30)], "a.png", { type: "image/png" }));
  }
  return call(method, path, { token: world[write.as].token, body, rawBody: form, env });
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Records of attempts, written on purpose before the outcome is known, so that a flood of guesses is counted
 * whatever happens next: login failures (`throttles`, taken back by a success) and e-mail code tries. A fault
 * after them leaves a counted attempt, the safe side; they are left out of the comparison.
 */
function withoutAttempts(state: Record<string, string[]>): Record<string, string[]> {
  const codes = (state.email_codes ?? []).map((row) => row.replace(/"attempts":\d+/, '"attempts":"n"'));
  return { ...state, throttles: [], email_codes: codes };
}

type Send = (env?: RequestOptions["env"]) => Promise<ApiResponse>;

/**
 * Runs the write healthy, then once failing at each of its round trips, each time from the database as it was
 * before; the problems found, or null when the healthy run did not go through (nothing to tear).
 */
async function faultsOf(send: Send): Promise<string[] | null> {
  const before = await snapshot();
  const healthy = faultyEnv();
  const ok = await send(healthy.env);
  if (ok.body?.code !== 0) return null;
  const done = withoutAttempts(comparable(await snapshot()));
  const untouched = withoutAttempts(comparable(before));
  // The response's own round trips (Server-Timing); any after them run in the background (waitUntil).
  const onPath = ok.roundTrips;
  const trips = healthy.db.roundTrips;

  const problems: string[] = [];
  for (let failAt = 1; failAt <= trips; failAt++) {
    await restore(before);
    const res = await send(faultyEnv(failAt).env);
    if (failAt > onPath) {
      // Background work is best effort by design (logged, never failing the answer already sent).
      if (res.body?.code !== 0) problems.push(`background trip ${failAt}: answered ${res.status}`);
      continue;
    }
    if (res.status !== 500 || res.body?.code !== 100000) problems.push(`trip ${failAt}: answered ${res.status}`);
    const state = withoutAttempts(comparable(await snapshot()));
    if (same(state, untouched) || same(state, done)) continue;
    const partial = changedTables(untouched, state).map((table) =>
      same(state[table], done[table]) ? `${table} (written)` : `${table} (other)`,
    );
    problems.push(`trip ${failAt} of ${trips}: half a write, changed: ${partial.join(", ")}`);
  }
  return problems;
}

describe.each(cases.map((write) => [write.name, write] as const))("%s", (_name, write) => {
  it("leaves the database whole when any of its D1 round trips fails", async () => {
    const world = await buildWorld();
    if (write.given) {
      const [method, path] = target(write.given, world);
      expect((await call(method, path, { token: world.admin.token })).body.code).toBe(0);
    }
    const body = typeof write.body === "function" ? await write.body(world) : write.body;
    expect(await faultsOf((env) => send(world, write, body, env))).toEqual([]);
  });
});

/** A route's shape, ids and notes aside: `POST /api/questions/{}/answers`. */
const shape = (name: string) => name.split(" (")[0]!.replace(/\{[^}]*\}/g, "{}");
const named = new Set(cases.map((write) => shape(write.name)));
const CALLER: Record<Access, Role | null> = { public: null, login: "other", author: "user", admin: "admin" };

// Every other write of the document, with a sample body, so a new route is covered without a named case.
describe.each(
  operations(doc)
    .filter((operation) => operation.method !== "GET" && !named.has(shape(`${operation.method} ${operation.path}`)))
    .map((operation) => [`${operation.method} ${operation.path}`, operation] as const),
)("%s (from the document)", (_name, operation) => {
  it("leaves the database whole when any of its D1 round trips fails, if its sample request writes", async () => {
    const world = await buildWorld();
    const role = CALLER[operation.access];
    const token = role ? world[role].token : undefined;
    const body = operation.jsonBody ? sampleBody(doc, operation.jsonBody, world) : undefined;
    const path = fillPath(operation, world);
    // A sample the route refuses (a missing code, an upload it lacks) has nothing to tear: no problems then.
    expect((await faultsOf((env) => call(operation.method, path, { token, body, env }))) ?? []).toEqual([]);
  });
});

/**
 * Rows read per request (docs/data-model.md#indexes): `Server-Timing` reports what D1 says it read, beside the
 * round trips, and reading one record costs the same however large its table is.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type ApiResponse, get } from "./helpers/api";
import { createQuestion, createTopic } from "./helpers/content";
import { createUser } from "./helpers/factories";

const rowsRead = (res: ApiResponse) =>
  Number(/d1-rows;desc="(\d+) rows read"/.exec(res.headers.get("server-timing") ?? "")?.[1] ?? Number.NaN);

/** Questions written straight into D1, as many as a test needs around the one it reads. */
async function moreQuestions(userId: number, n: number): Promise<void> {
  const statement = env.DB.prepare(
    `INSERT INTO questions (user_id, title, content_markdown, content_rendered, create_time, update_time)
     VALUES (?, 'more', 'x', '<p>x</p>', 1, 1)`,
  );
  await env.DB.batch(Array.from({ length: n }, () => statement.bind(userId)));
}

describe("Server-Timing reports the rows D1 read", () => {
  it("beside the round trips", async () => {
    const res = await get("/api/options");
    expect(rowsRead(res)).toBeGreaterThan(0);
  });

  it("reads one question in as many rows whether its table holds 1 or 301 questions", async () => {
    const user = await createUser();
    const question = await createQuestion(user.user_id, { topic_ids: [await createTopic()] });
    const path = `/api/questions/${question}`;
    const query = { include: "user,topics,is_following,voting" };
    // The first request also loads the site settings into KV; measure after it.
    await get(path, { token: user.token, query });
    const alone = await get(path, { token: user.token, query });
    expect(alone.status).toBe(200);
    expect(rowsRead(alone)).toBeGreaterThan(0);
    await moreQuestions(user.user_id, 300);
    const among = await get(path, { token: user.token, query });
    expect(among.body.data.question_id).toBe(question);
    expect(rowsRead(among)).toBe(rowsRead(alone));
  });
});

/**
 * Accepted answers (docs/operations.md#accepted-answer, docs/notifications.md#kinds-beyond-the-spec,
 * docs/deletion.md#cascade), through HTTP: who may accept and withdraw, the order of the checks and each error code,
 * the `answer_accepted` notification and the unread counter, what trash, untrash and delete do to the choice, the
 * `-accepted` order of a question's answers, MDCLUB_COMPAT, and the round-trip budget.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { now } from "../src/lib/time";
import { type ApiResponse, del, get, post, put } from "./helpers/api";
import { createAnswer, createQuestion, row } from "./helpers/content";
import { createAdmin, createUser, setOptions, type TestUser } from "./helpers/factories";

const COMPAT = { ...env, MDCLUB_COMPAT: "true" };
const PAST = now() - 5000;

const accepted = (questionId: number) => `/api/questions/${questionId}/accepted_answer`;
const accept = (questionId: number, answerId: unknown, token?: string, options: { env?: typeof env } = {}) =>
  put(accepted(questionId), { token, body: { answer_id: answerId }, ...options });
const withdraw = (questionId: number, token?: string) => del(accepted(questionId), { token });

async function stored(questionId: number): Promise<number> {
  return Number((await row("questions", "question_id", questionId)).accepted_answer_id);
}

async function notificationsOf(user: TestUser) {
  const { results } = await env.DB.prepare(
    "SELECT type, sender_id, question_id, answer_id, article_id, comment_id, reply_id FROM notifications WHERE receiver_id = ? ORDER BY notification_id",
  )
    .bind(user.user_id)
    .all();
  return results;
}

const unread = async (user: TestUser) => Number((await row("users", "user_id", user.user_id)).notification_unread);

/** A question by `asker`, asked long ago, with one answer by each of `answerers` (oldest first). */
async function askedAndAnswered(asker: TestUser, ...answerers: TestUser[]) {
  const question = await createQuestion(asker.user_id, { create_time: PAST });
  const answers: number[] = [];
  for (const [i, answerer] of answerers.entries()) {
    answers.push(await createAnswer(answerer.user_id, question, { create_time: PAST + i + 1 }));
  }
  return { question, answers };
}

function expectError(res: ApiResponse, status: number, code: number) {
  expect(res.status).toBe(status);
  expect(res.body.code).toBe(code);
}

describe("PUT /api/questions/{question_id}/accepted_answer", () => {
  it("lets the asker accept an answer: the record says so, the answer's author is told, update_time stays", async () => {
    const [asker, answerer] = [await createUser(), await createUser()];
    const { question, answers } = await askedAndAnswered(asker, answerer);
    const before = await row("questions", "question_id", question);

    const res = await accept(question, answers[0], asker.token);

    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body.data).toMatchObject({ question_id: question, accepted_answer_id: answers[0] });
    expect(res.body.data.update_time).toBe(before.update_time);
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    expect(await stored(question)).toBe(answers[0]);
    expect(await notificationsOf(answerer)).toEqual([
      {
        type: "answer_accepted",
        sender_id: asker.user_id,
        question_id: question,
        answer_id: answers[0],
        article_id: 0,
        comment_id: 0,
        reply_id: 0,
      },
    ]);
    expect(await unread(answerer)).toBe(1);
    expect(await notificationsOf(asker)).toEqual([]);
    // The question is shown with its choice everywhere it is listed.
    const listed = await get("/api/questions", { query: { question_id: question } });
    expect(listed.body.data[0].accepted_answer_id).toBe(answers[0]);
  });

  it("shows the notification in the answerer's list with its relationships, and filters on its type", async () => {
    const [asker, answerer] = [await createUser(), await createUser()];
    const { question, answers } = await askedAndAnswered(asker, answerer);
    await accept(question, answers[0], asker.token);

    const res = await get("/api/notifications", {
      token: answerer.token,
      query: { type: "answer_accepted", include: "sender,question,answer" },
    });

    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({ type: "answer_accepted", question_id: question, answer_id: answers[0] });
    expect(res.body.data[0].relationships.sender.user_id).toBe(asker.user_id);
    expect(res.body.data[0].relationships.question.question_id).toBe(question);
    expect(res.body.data[0].relationships.answer.answer_id).toBe(answers[0]);
    const count = await get("/api/notifications/count", { token: answerer.token });
    expect(count.body.data).toEqual({ notification_count: 1 });
  });

  it("replaces an accepted answer with another, telling only the new answer's author", async () => {
    const [asker, first, second] = [await createUser(), await createUser(), await createUser()];
    const { question, answers } = await askedAndAnswered(asker, first, second);
    await accept(question, answers[0], asker.token);

    const res = await accept(question, answers[1], asker.token);

    expect(res.status).toBe(200);
    expect(res.body.data.accepted_answer_id).toBe(answers[1]);
    expect((await notificationsOf(first)).length).toBe(1);
    expect((await notificationsOf(second)).map((n) => n.type)).toEqual(["answer_accepted"]);
  });

  it("changes nothing when the answer is already the accepted one", async () => {
    const [asker, answerer] = [await createUser(), await createUser()];
    const { question, answers } = await askedAndAnswered(asker, answerer);
    await accept(question, answers[0], asker.token);

    const again = await accept(question, answers[0], asker.token);

    expect(again.status).toBe(200);
    expect(again.body.data.accepted_answer_id).toBe(answers[0]);
    expect((await notificationsOf(answerer)).length).toBe(1);
    expect(await unread(answerer)).toBe(1);
  });

  it("tells nobody when the asker accepts their own answer", async () => {
    const asker = await createUser();
    const { question, answers } = await askedAndAnswered(asker, asker);

    const res = await accept(question, answers[0], asker.token);

    expect(res.body.data.accepted_answer_id).toBe(answers[0]);
    expect(await notificationsOf(asker)).toEqual([]);
    expect(await unread(asker)).toBe(0);
  });

  it("lets an administrator accept for the asker; the notification names the administrator", async () => {
    const [asker, answerer, admin] = [await createUser(), await createUser(), await createAdmin()];
    const { question, answers } = await askedAndAnswered(asker, answerer);

    const res = await accept(question, answers[0], admin.token);

    expect(res.status).toBe(200);
    expect(res.body.data.accepted_answer_id).toBe(answers[0]);
    expect((await notificationsOf(answerer))[0]).toMatchObject({ type: "answer_accepted", sender_id: admin.user_id });
  });

  it("is not an edit: the site's edit settings do not limit it", async () => {
    await setOptions({ question_can_edit: false });
    const [asker, answerer] = [await createUser(), await createUser()];
    const { question, answers } = await askedAndAnswered(asker, answerer);

    const res = await accept(question, answers[0], asker.token);

    expect(res.status).toBe(200);
    expect(await stored(question)).toBe(answers[0]);
  });

  it("refuses another member with 210001 and writes nothing", async () => {
    const [asker, answerer, other] = [await createUser(), await createUser(), await createUser()];
    const { question, answers } = await askedAndAnswered(asker, answerer);

    // The refusal comes before the body is looked at.
    for (const body of [answers[0], "not an id"]) {
      expectError(await accept(question, body, other.token), 403, 210001);
    }
    expect(await stored(question)).toBe(0);
    expect(await notificationsOf(answerer)).toEqual([]);
  });

  it("refuses an anonymous caller and a disabled member with 201001", async () => {
    const [asker, answerer] = [await createUser(), await createUser()];
    const { question, answers } = await askedAndAnswered(asker, answerer);
    const disabled = await createUser();
    await env.DB.prepare("UPDATE users SET disable_time = ? WHERE user_id = ?").bind(now(), disabled.user_id).run();

    expectError(await accept(question, answers[0]), 401, 201001);
    expectError(await accept(question, answers[0], disabled.token), 401, 201001);
    expect(await stored(question)).toBe(0);
  });

  it("answers 202001 for a missing or trashed question, administrators too, before the body", async () => {
    const [asker, answerer, admin] = [await createUser(), await createUser(), await createAdmin()];
    const { question, answers } = await askedAndAnswered(asker, answerer);
    await post(`/api/questions/${question}/trash`, { token: admin.token });

    expectError(await accept(question, answers[0], asker.token), 404, 202001);
    expectError(await accept(question, answers[0], admin.token), 404, 202001);
    expectError(await accept(987654, "bad", asker.token), 404, 202001);
  });

  it("answers 200001 naming answer_id for a body without a valid one", async () => {
    const asker = await createUser();
    const { question } = await askedAndAnswered(asker);

    for (const body of [{}, { answer_id: "3" }, { answer_id: 0 }, { answer_id: 1.5 }]) {
      const res = await put(accepted(question), { token: asker.token, body });
      expectError(res, 400, 200001);
      expect(Object.keys(res.body.errors)).toEqual(["answer_id"]);
    }
  });

  it("answers 203001 for a missing or trashed answer and 210002 for another question's", async () => {
    const [asker, answerer, admin] = [await createUser(), await createUser(), await createAdmin()];
    const { question, answers } = await askedAndAnswered(asker, answerer, answerer);
    const elsewhere = await askedAndAnswered(await createUser(), answerer);
    await post(`/api/answers/${answers[1]}/trash`, { token: admin.token });

    expectError(await accept(question, 987654, asker.token), 404, 203001);
    expectError(await accept(question, answers[1], asker.token), 404, 203001);
    expectError(await accept(question, elsewhere.answers[0], asker.token), 400, 210002);
    expect(await stored(question)).toBe(0);
    // The trash told the answerer of their answer_deleted, and nothing else.
    expect((await notificationsOf(answerer)).map((n) => n.type)).toEqual(["answer_deleted"]);
  });

  it("writes no answer_accepted under MDCLUB_COMPAT, and the unread counter stays exact", async () => {
    const [asker, answerer] = [await createUser(), await createUser()];
    const { question, answers } = await askedAndAnswered(asker, answerer);

    const res = await accept(question, answers[0], asker.token, { env: COMPAT });

    expect(res.status).toBe(200);
    expect(res.body.data.accepted_answer_id).toBe(answers[0]);
    expect(await notificationsOf(answerer)).toEqual([]);
    expect(await unread(answerer)).toBe(0);
  });
});

describe("DELETE /api/questions/{question_id}/accepted_answer", () => {
  it("lets the asker or an administrator withdraw the choice, telling nobody", async () => {
    const [asker, answerer, admin] = [await createUser(), await createUser(), await createAdmin()];
    const { question, answers } = await askedAndAnswered(asker, answerer);
    for (const caller of [asker, admin]) {
      await accept(question, answers[0], asker.token);

      const res = await withdraw(question, caller.token);

      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ question_id: question, accepted_answer_id: 0 });
      expect(res.roundTrips).toBeLessThanOrEqual(2);
      expect(await stored(question)).toBe(0);
    }
    // Accepting the same answer again after a withdrawal tells its author again.
    expect((await notificationsOf(answerer)).length).toBe(2);
  });

  it("changes nothing when no answer is accepted", async () => {
    const asker = await createUser();
    const { question } = await askedAndAnswered(asker);

    const res = await withdraw(question, asker.token);

    expect(res.status).toBe(200);
    expect(res.body.data.accepted_answer_id).toBe(0);
  });

  it("refuses another member (210001), anonymous callers (201001), and answers 202001 for a missing question", async () => {
    const [asker, answerer, other] = [await createUser(), await createUser(), await createUser()];
    const { question, answers } = await askedAndAnswered(asker, answerer);
    await accept(question, answers[0], asker.token);

    expectError(await withdraw(question, other.token), 403, 210001);
    expectError(await withdraw(question), 401, 201001);
    expectError(await withdraw(987654, asker.token), 404, 202001);
    expect(await stored(question)).toBe(answers[0]);
  });
});

describe("trash, untrash and delete of the accepted answer", () => {
  async function acceptedSetup() {
    const [asker, answerer, admin] = [await createUser(), await createUser(), await createAdmin()];
    const { question, answers } = await askedAndAnswered(asker, answerer, answerer);
    await accept(question, answers[0], asker.token);
    return { asker, answerer, admin, question, answers };
  }

  it("clears the choice when the answer is trashed, and untrash does not bring it back", async () => {
    const { admin, asker, question, answers } = await acceptedSetup();

    await post(`/api/answers/${answers[0]}/trash`, { token: admin.token });
    expect(await stored(question)).toBe(0);
    expect((await get(`/api/questions/${question}`)).body.data.accepted_answer_id).toBe(0);

    await post(`/api/answers/${answers[0]}/untrash`, { token: admin.token });
    expect(await stored(question)).toBe(0);
    // The asker accepts it again if they still want it.
    expect((await accept(question, answers[0], asker.token)).body.data.accepted_answer_id).toBe(answers[0]);
  });

  it("clears the choice when the answer is trashed in a batch, and leaves it when another answer goes", async () => {
    const { admin, question, answers } = await acceptedSetup();

    await post(`/api/answers/${answers[1]}/trash`, { token: admin.token });
    expect(await stored(question)).toBe(answers[0]);
    await post(`/api/answers/${answers[1]}/untrash`, { token: admin.token });

    await post(`/api/answers/${answers[1]},${answers[0]}/trash`, { token: admin.token });
    expect(await stored(question)).toBe(0);
  });

  it("clears the choice when the answer is deleted, by its author or an administrator", async () => {
    await setOptions({ answer_can_delete: true, answer_can_delete_only_no_comment: false });
    const { answerer, admin, question, answers } = await acceptedSetup();

    expect((await del(`/api/answers/${answers[0]}`, { token: answerer.token })).status).toBe(200);
    expect(await stored(question)).toBe(0);

    await accept(question, answers[1], admin.token);
    await del(`/api/answers/${answers[1]}`, { token: admin.token });
    expect(await stored(question)).toBe(0);
  });

  it("keeps the choice when only the question is trashed, and shows it again on untrash", async () => {
    const { admin, question, answers } = await acceptedSetup();

    await post(`/api/questions/${question}/trash`, { token: admin.token });
    await post(`/api/questions/${question}/untrash`, { token: admin.token });

    expect((await get(`/api/questions/${question}`)).body.data.accepted_answer_id).toBe(answers[0]);
  });
});

describe("GET /api/questions/{question_id}/answers?order=-accepted", () => {
  it("puts the accepted answer first (-accepted) or last (accepted), the others newest first", async () => {
    const [asker, answerer] = [await createUser(), await createUser()];
    const { question, answers } = await askedAndAnswered(asker, answerer, answerer, answerer);
    const [oldest, middle, newest] = answers as [number, number, number];
    await accept(question, middle, asker.token);
    const ids = (res: ApiResponse) => res.body.data.map((a: { answer_id: number }) => a.answer_id);

    const first = await get(`/api/questions/${question}/answers`, { query: { order: "-accepted" } });
    const last = await get(`/api/questions/${question}/answers`, { query: { order: "accepted" } });
    const paged = await get(`/api/questions/${question}/answers`, {
      query: { order: "-accepted", per_page: 2, page: 2 },
    });

    expect(first.status).toBe(200);
    expect(ids(first)).toEqual([middle, newest, oldest]);
    expect(first.body.pagination.total).toBe(3);
    expect(first.roundTrips).toBe(1);
    expect(ids(last)).toEqual([newest, oldest, middle]);
    expect(ids(paged)).toEqual([oldest]);
  });

  it("is the default order when no answer is accepted, and 202001 for a missing question", async () => {
    const [asker, answerer] = [await createUser(), await createUser()];
    const { question, answers } = await askedAndAnswered(asker, answerer, answerer);

    const res = await get(`/api/questions/${question}/answers`, { query: { order: "-accepted" } });

    expect(res.body.data.map((a: { answer_id: number }) => a.answer_id)).toEqual([...answers].reverse());
    expectError(await get("/api/questions/987654/answers", { query: { order: "-accepted" } }), 404, 202001);
  });

  it("is not an order of other answer lists, which fall back to their default", async () => {
    const [asker, answerer] = [await createUser(), await createUser()];
    const { question, answers } = await askedAndAnswered(asker, answerer, answerer);
    await accept(question, answers[0], asker.token);

    const res = await get(`/api/users/${answerer.user_id}/answers`, { query: { order: "-accepted" } });

    expect(res.body.data.map((a: { answer_id: number }) => a.answer_id)).toEqual([...answers].reverse());
  });
});

/**
 * The notifications of accepted answers and @mentions on a member's own stream (docs/events.md#a-members-own-stream):
 * they reach the member told, as the spec's kinds do, and no one else.
 */
import { describe, expect, it } from "vitest";
import { patch, post, put } from "./helpers/api";
import { createAnswer, createQuestion, createTopic } from "./helpers/content";
import { createUser, setOptions, type TestUser } from "./helpers/factories";
import { type LiveSocket, openLive, ticketFor } from "./helpers/live";

async function memberSocket(user: TestUser): Promise<LiveSocket> {
  const live = await openLive({ ticket: await ticketFor(user.token) });
  await live.next((message) => message.type === "live.ready");
  return live;
}

const notified = (live: LiveSocket) => live.next((message) => message.type === "notification.created");

describe("notifications beyond the spec, live", () => {
  it("tells an answer's author it was accepted, on their socket only", async () => {
    const [asker, answerer, bystander] = [await createUser(), await createUser(), await createUser()];
    const question = await createQuestion(asker.user_id);
    const answer = await createAnswer(answerer.user_id, question);
    const [theirs, other] = [await memberSocket(answerer), await memberSocket(bystander)];
    const res = await put(`/api/questions/${question}/accepted_answer`, {
      token: asker.token,
      body: { answer_id: answer },
    });
    expect(res.status).toBe(200);
    const event = await notified(theirs);
    expect(event.data).toMatchObject({
      receiver_id: answerer.user_id,
      sender_id: asker.user_id,
      type: "answer_accepted",
      question_id: question,
      answer_id: answer,
    });
    expect((await theirs.next((message) => message.type === "unread.updated")).data.notification_unread).toBe(1);
    await other.settle();
    expect(other.events()).toEqual([]);
  });

  it("tells a member mentioned in a new answer, and only the newly mentioned on an edit", async () => {
    const [asker, author, first, second] = [
      await createUser(),
      await createUser(),
      await createUser(),
      await createUser(),
    ];
    await setOptions({ answer_can_edit: true });
    const question = await createQuestion(asker.user_id);
    const [firstLive, secondLive] = [await memberSocket(first), await memberSocket(second)];
    const res = await post(`/api/questions/${question}/answers`, {
      token: author.token,
      body: { content_markdown: `thanks @${first.username}` },
    });
    expect([res.status, res.body.code]).toEqual([200, 0]);
    const answerId = res.body.data.answer_id;
    const event = await notified(firstLive);
    expect(event.data).toMatchObject({ receiver_id: first.user_id, type: "user_mentioned", answer_id: answerId });

    const edited = await patch(`/api/answers/${answerId}`, {
      token: author.token,
      body: { content_markdown: `thanks @${first.username} and @${second.username}` },
    });
    expect(edited.status).toBe(200);
    const second_ = await notified(secondLive);
    expect(second_.data).toMatchObject({ receiver_id: second.user_id, type: "user_mentioned", answer_id: answerId });
    await firstLive.settle();
    expect(firstLive.events().filter((message) => message.type === "notification.created")).toHaveLength(1);
  });

  it("tells a member mentioned in a question and in a reply, naming the item", async () => {
    const [author, mentioned] = [await createUser(), await createUser()];
    const live = await memberSocket(mentioned);
    const created = await post("/api/questions", {
      token: author.token,
      body: {
        title: "A question for a friend",
        content_markdown: `what do you think, @${mentioned.username}?`,
        topic_ids: [await createTopic()],
      },
    });
    expect(created.status).toBe(200);
    const question = created.body.data.question_id;
    expect((await notified(live)).data).toMatchObject({ type: "user_mentioned", question_id: question });

    const comment = await post(`/api/questions/${question}/comments`, {
      token: author.token,
      body: { content: "bump" },
    });
    const reply = await post(`/api/comments/${comment.body.data.comment_id}/replies`, {
      token: author.token,
      body: { content: `@${mentioned.username} see above` },
    });
    expect(reply.status).toBe(200);
    expect((await notified(live)).data).toMatchObject({
      type: "user_mentioned",
      comment_id: comment.body.data.comment_id,
      reply_id: reply.body.data.comment_id,
    });
  });
});

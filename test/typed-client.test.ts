/**
 * The typed client (docs/api-reference.md#typed-client): openapi-fetch over the types openapi-typescript generated from the
 * document (clients/typescript/schema.d.ts), calling the Worker. `npm run typecheck` checks this file against the
 * generated types, so a document change that breaks client code fails CI; `npm run client:check` fails when the
 * committed types are older than the document.
 */
import createClient from "openapi-fetch";
import { describe, expect, it } from "vitest";
import type { paths } from "../clients/typescript/schema";
import { BASE, fetchWorker } from "./helpers/api";
import { createQuestion, createTopic } from "./helpers/content";
import { createUser, DEFAULT_PASSWORD } from "./helpers/factories";

/** The URLs the client asked for, as it built them from the path templates. */
const requested: string[] = [];
const api = createClient<paths>({
  baseUrl: BASE,
  fetch: (request) => {
    requested.push(request.url);
    return fetchWorker(request);
  },
});

describe("a client generated from the document", () => {
  it("reads the settings with a typed answer", async () => {
    const { data, error, response } = await api.GET("/api/options");
    expect(response.status).toBe(200);
    expect(error).toBeUndefined();
    expect(data?.code).toBe(0);
    expect(typeof data?.data.site_name).toBe("string");
  });

  it("logs in, asks a question with the token, and reads it back by its path parameter", async () => {
    const user = await createUser();
    const topic = await createTopic();
    const login = await api.POST("/api/tokens", { body: { name: user.username, password: DEFAULT_PASSWORD } });
    const token = login.data?.data.token;
    expect(typeof token).toBe("string");

    const asked = await api.POST("/api/questions", {
      headers: { token },
      body: { title: "Typed all the way?", content_markdown: "Asked by the generated client.", topic_ids: [topic] },
    });
    expect(asked.error).toBeUndefined();
    const questionId = asked.data?.data.question_id ?? 0;

    const read = await api.GET("/api/questions/{question_id}", { params: { path: { question_id: questionId } } });
    expect(read.data?.data).toMatchObject({
      question_id: questionId,
      title: "Typed all the way?",
      user_id: user.user_id,
    });
  });

  it("gets a refusal as the typed error body", async () => {
    const { data, error, response } = await api.GET("/api/questions/{question_id}", {
      params: { path: { question_id: 999_999 } },
    });
    expect(response.status).toBe(404);
    expect(data).toBeUndefined();
    expect(error).toEqual({ code: 202001, message: expect.any(String) });
  });

  it("fills the report routes' two path parameters of the spec's template", async () => {
    const [author, reporter] = [await createUser(), await createUser()];
    const question = await createQuestion(author.user_id);
    const { data, response } = await api.POST("/api/reports/{reportable_type}:{reportable_id}", {
      headers: { token: reporter.token },
      params: { path: { reportable_type: "question", reportable_id: question } },
      body: { reason: "typed spam" },
    });
    expect(response.status).toBe(200);
    expect(requested.at(-1)).toBe(`${BASE}/api/reports/question:${question}`);
    expect(data?.data).toMatchObject({ reportable_type: "question", reportable_id: question, reason: "typed spam" });
  });

  it("sends a private message and reads the inbox with typed records", async () => {
    const [sender, receiver] = [await createUser(), await createUser()];
    const sent = await api.POST("/api/inbox/{user_id}", {
      headers: { token: sender.token },
      params: { path: { user_id: receiver.user_id }, query: { include: "sender" } },
      body: { content_markdown: "typed *hello*" },
    });
    expect(sent.error).toBeUndefined();
    expect(sent.data?.data.relationships?.sender?.user_id).toBe(sender.user_id);
    const inbox = await api.GET("/api/inbox", { headers: { token: receiver.token } });
    const [conversation] = inbox.data?.data ?? [];
    expect(conversation).toMatchObject({ user_id: sender.user_id, unread_count: 1 });
    expect(conversation?.last_message?.content_rendered).toBe("<p>typed <em>hello</em></p>");
  });
});

/**
 * The official MDClub JS SDK (npm mdclub-sdk-js 1.0.5) against this API: its own request building, SHA-1
 * password digest and FetchAdapter, with `fetch` routed into the Worker. Existing front ends are built on it.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
// The adapter must be installed before the SDK modules load: a side-effect import keeps its place.
import "./helpers/sdk-adapter";
import * as ArticleApi from "mdclub-sdk-js/es/ArticleApi";
import * as NotificationApi from "mdclub-sdk-js/es/NotificationApi";
import * as OptionApi from "mdclub-sdk-js/es/OptionApi";
import * as QuestionApi from "mdclub-sdk-js/es/QuestionApi";
import * as TokenApi from "mdclub-sdk-js/es/TokenApi";
import * as UserApi from "mdclub-sdk-js/es/UserApi";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import worker from "../src/index";
import { createTopic } from "./helpers/content";
import { createUser, DEFAULT_PASSWORD } from "./helpers/factories";
import { defaults } from "./helpers/sdk-adapter";

// The SDK's browser adapters keep the token in window.localStorage.
const storage = new Map<string, string>();
const localStorage = {
  getItem: (key: string) => storage.get(key) ?? null,
  setItem: (key: string, value: string) => void storage.set(key, String(value)),
  removeItem: (key: string) => void storage.delete(key),
};

beforeEach(() => {
  storage.clear();
  vi.stubGlobal("window", { localStorage });
  // mdui.jq's type checks refer to these browser classes.
  vi.stubGlobal("Window", class {});
  vi.stubGlobal("Document", class {});
  vi.stubGlobal("HTMLElement", class {});
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    // The adapter sends `token: undefined` when logged out; a browser would drop such a header too.
    const headers = Object.fromEntries(
      Object.entries((init.headers ?? {}) as Record<string, string | undefined>).filter(([, v]) => v !== undefined),
    ) as Record<string, string>;
    const ctx = createExecutionContext();
    const res = await worker.fetch(new Request(url, { ...init, headers }), env, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  });
  defaults.methodOverride = false;
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the official MDClub SDK", () => {
  it("logs in with its SHA-1 digest, keeps the token, and reads the caller", async () => {
    const user = await createUser();
    const login = await TokenApi.login({ name: user.username, password: DEFAULT_PASSWORD });
    expect(login.code).toBe(0);
    expect(storage.get("token")).toBe(login.data.token);
    const mine = await UserApi.getMine({ include: ["is_me"] });
    expect(mine.data).toMatchObject({
      user_id: user.user_id,
      username: user.username,
      email: user.email,
      relationships: { is_me: true },
    });
  });

  it("gets the error body of a refused login: code and the field", async () => {
    const user = await createUser();
    await expect(TokenApi.login({ name: user.username, password: "wrong" })).rejects.toMatchObject({
      code: 200001,
      errors: { password: expect.any(String) },
    });
  });

  it("creates a question, answers it, comments on an article, and reads the notifications it caused", async () => {
    const asker = await createUser();
    const answerer = await createUser();
    const topic = await createTopic();
    await TokenApi.login({ name: asker.username, password: DEFAULT_PASSWORD });
    const question = await QuestionApi.create({
      title: "From the SDK",
      topic_ids: [topic],
      content_markdown: "**hi**",
      include: ["topics"],
    });
    expect(question.data).toMatchObject({ title: "From the SDK", content_rendered: "<p><strong>hi</strong></p>" });
    const article = await ArticleApi.create({ title: "An article", topic_ids: [topic], content_markdown: "text" });

    await TokenApi.login({ name: answerer.username, password: DEFAULT_PASSWORD });
    const answer = await QuestionApi.createAnswer({
      question_id: question.data.question_id,
      content_markdown: "an answer",
      include: ["user", "question", "voting"],
    });
    expect(answer.data.relationships).toMatchObject({
      user: { user_id: answerer.user_id },
      question: { question_id: question.data.question_id },
      voting: "",
    });
    const comment = await ArticleApi.createComment({ article_id: article.data.article_id, content: "nice" });
    expect(comment.data).toMatchObject({ commentable_type: "article", content: "nice", user_id: answerer.user_id });

    await TokenApi.login({ name: asker.username, password: DEFAULT_PASSWORD });
    const list = await NotificationApi.getList({ include: ["sender"] });
    expect(list.data.map((n: { type: string }) => n.type).sort()).toEqual(["article_commented", "question_answered"]);
    const ids = list.data.map((n: { notification_id: number }) => n.notification_id).join(",");
    const read = await NotificationApi.readMultiple({ notification_ids: ids });
    expect(read.pagination.total).toBe(2);
    expect(read.data.every((n: { read_time: number }) => n.read_time > 0)).toBe(true);
  });

  it("reads the public settings", async () => {
    const options = await OptionApi.get();
    expect(options.data.site_name).toBe("MDClub");
    expect(options.data).not.toHaveProperty("smtp_password");
  });

  it("works with methodOverride, which sends PATCH as POST and DELETE as GET with X-Http-Method-Override", async () => {
    const user = await createUser();
    defaults.methodOverride = true;
    await TokenApi.login({ name: user.username, password: DEFAULT_PASSWORD });
    const edited = await UserApi.updateMine({ headline: "edited through an override" });
    expect(edited.data.headline).toBe("edited through an override");
    const target = await createUser();
    await UserApi.addFollow({ user_id: target.user_id });
    const unfollowed = await UserApi.deleteFollow({ user_id: target.user_id });
    expect(unfollowed.data.follower_count).toBe(0);
  });
});

/**
 * Fills a running instance of the API with the demo community (seed/demo-community.ts), through its public routes
 * only, as its members would: each registers with an e-mail code, logs in, sets a profile and an avatar, then posts,
 * answers, comments, votes and follows. Notifications follow from those writes, as they would for real users.
 *
 * It takes the `fetch` to call the API with and its base URL, so that the CLI (scripts/seed.mjs) runs it against
 * `wrangler dev` and a test against the Worker itself; and a mailbox that reads the registration codes the API
 * mails (the CLI runs an SMTP server for it; README, Demo data).
 */
import * as demo from "./demo-community.ts";
import { avatar, cover } from "./pictures.ts";

export interface SeedMailbox {
  /** Where the API must send mail for the seed to read it; the site's SMTP settings are restored afterwards. */
  smtp?: { host: string; port: number };
  /** The code of the newest registration mail to `email`. */
  codeFor(email: string): Promise<string>;
}

export interface SeedOptions {
  fetch: (request: Request) => Promise<Response>;
  baseUrl: string;
  /** The administrator's login (`ADMIN_USERNAME`, `ADMIN_PASSWORD`): the first login creates it on an empty site. */
  admin: { name: string; password: string };
  mailbox: SeedMailbox;
  /** Progress lines. */
  log?: (line: string) => void;
}

export interface Login {
  username: string;
  password: string;
  role: "admin" | "user";
}

export interface SeedSummary {
  /** False when the community was already there: nothing was written. */
  seeded: boolean;
  logins: Login[];
  /** Records of each kind as the API counts them; `notifications`: the demo members' unread ones, summed. */
  counts: Record<string, number>;
}

/** The API refused a step: the method, path, status and the error body say which and why. */
export class SeedError extends Error {}

interface Envelope {
  code: number;
  // The seed reads a few fields of many record shapes; the API's own tests hold the shapes.
  // biome-ignore lint/suspicious/noExplicitAny: see above
  data: any;
  pagination?: { total: number };
}

const SMTP_FIELDS = ["smtp_host", "smtp_port", "smtp_secure", "smtp_username"] as const;

export async function seedCommunity(options: SeedOptions): Promise<SeedSummary> {
  const log = options.log ?? (() => undefined);
  const base = options.baseUrl.replace(/\/$/, "");

  async function call(
    method: string,
    path: string,
    { token, body, form }: { token?: string; body?: unknown; form?: FormData } = {},
  ): Promise<Envelope> {
    const headers = new Headers();
    if (token) headers.set("token", token);
    if (body !== undefined) headers.set("content-type", "application/json");
    const init = { method, headers, body: form ?? (body === undefined ? undefined : JSON.stringify(body)) };
    const res = await options.fetch(new Request(`${base}${path}`, init));
    const text = await res.text();
    let parsed: Envelope | undefined;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Reported below with the text.
    }
    if (!res.ok || parsed?.code !== 0) {
      throw new SeedError(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    }
    return parsed;
  }

  const picture = (field: string, bytes: Uint8Array, name: string) => {
    const form = new FormData();
    form.set(field, new File([bytes], name, { type: "image/png" }));
    return form;
  };

  const login = async (name: string, password: string): Promise<string> =>
    (await call("POST", "/api/tokens", { body: { name, password, device: "npm run seed" } })).data.token;

  const logins: Login[] = [
    { username: options.admin.name, password: options.admin.password, role: "admin" },
    ...demo.users.map((user) => ({ username: user.username, password: user.password, role: "user" as const })),
  ];

  const admin = await login(options.admin.name, options.admin.password).catch((error: unknown) => {
    throw new SeedError(`could not log in as the administrator "${options.admin.name}": ${String(error)}`);
  });
  const first = demo.users[0];
  if (!first) throw new SeedError("no demo users");
  const existing = await call("GET", `/api/users?username=${encodeURIComponent(first.username)}`, { token: admin });
  if (existing.pagination?.total) {
    log(`already seeded: user ${first.username} exists; nothing written`);
    return { seeded: false, logins, counts: await count(admin) };
  }

  const restore = await pointMailAt(admin);
  try {
    const ids = new Map<string, { kind: string; id: number }>();
    const tokens = new Map<string, { token: string }>();

    for (const user of demo.users) {
      await call("POST", "/api/user/register/email", { body: { email: user.email } });
      const email_code = await options.mailbox.codeFor(user.email);
      const { username, email, password } = user;
      const created = await call("POST", "/api/users", { body: { email, email_code, username, password } });
      const token = await login(username, password);
      tokens.set(user.key, { token });
      ids.set(user.key, { kind: "users", id: created.data.user_id });
      const { headline, bio, company, location, blog } = user;
      await call("PATCH", "/api/user", { token, body: { headline, bio, company, location, blog } });
      await call("POST", "/api/user/avatar", { token, form: picture("avatar", await avatar(username), "me.png") });
      if (user.cover) {
        await call("POST", "/api/user/cover", { token, form: picture("cover", await cover(username), "cover.png") });
      }
      log(`user ${username}`);
    }
    const as = (key: string) => {
      const member = tokens.get(key);
      if (!member) throw new SeedError(`unknown member ${key}`);
      return member;
    };
    const idOf = (key: string) => {
      const found = ids.get(key);
      if (!found) throw new SeedError(`unknown key ${key}`);
      return found;
    };

    for (const topic of demo.topics) {
      const form = picture("cover", await cover(topic.name), "cover.png");
      form.set("name", topic.name);
      form.set("description", topic.description);
      const created = await call("POST", "/api/topics", { token: admin, form });
      ids.set(topic.key, { kind: "topics", id: created.data.topic_id });
    }
    log(`${demo.topics.length} topics`);

    const post = async (kind: "questions" | "articles", item: demo.DemoPost) => {
      let markdown = item.markdown;
      if (item.picture) {
        const form = picture("image", await cover(item.picture), "photo.png");
        const image = await call("POST", "/api/images", { ...as(item.author), form });
        markdown += `\n\n![${item.picture}](${image.data.urls.release})`;
      }
      const body = { title: item.title, content_markdown: markdown, topic_ids: item.topics.map((t) => idOf(t).id) };
      const created = await call("POST", `/api/${kind}`, { ...as(item.author), body });
      ids.set(item.key, { kind, id: created.data[kind === "questions" ? "question_id" : "article_id"] });
    };
    for (const question of demo.questions) await post("questions", question);
    for (const answer of demo.answers) {
      const path = `/api/questions/${idOf(answer.question).id}/answers`;
      const created = await call("POST", path, { ...as(answer.author), body: { content_markdown: answer.markdown } });
      ids.set(answer.key, { kind: "answers", id: created.data.answer_id });
    }
    for (const article of demo.articles) await post("articles", article);
    log(`${demo.questions.length} questions, ${demo.answers.length} answers, ${demo.articles.length} articles`);

    for (const comment of demo.comments) {
      const target = idOf(comment.on);
      const path =
        target.kind === "comments" ? `/api/comments/${target.id}/replies` : `/api/${target.kind}/${target.id}/comments`;
      const created = await call("POST", path, { ...as(comment.author), body: { content: comment.content } });
      ids.set(comment.key, { kind: "comments", id: created.data.comment_id });
    }
    for (const [voter, key, type] of demo.votes) {
      const target = idOf(key);
      await call("POST", `/api/${target.kind}/${target.id}/voters`, { ...as(voter), body: { type } });
    }
    for (const [follower, key] of demo.follows) {
      const target = idOf(key);
      await call("POST", `/api/${target.kind}/${target.id}/followers`, as(follower));
    }
    log(`${demo.comments.length} comments, ${demo.votes.length} votes, ${demo.follows.length} follows`);
  } finally {
    await restore();
  }
  return { seeded: true, logins, counts: await count(admin) };

  /** Points the site's mail at the seed's mailbox, when it has one; returns how to put the settings back. */
  async function pointMailAt(token: string): Promise<() => Promise<void>> {
    const smtp = options.mailbox.smtp;
    if (!smtp) return async () => undefined;
    const current = (await call("GET", "/api/options", { token })).data;
    const saved = Object.fromEntries(SMTP_FIELDS.map((name) => [name, current[name]]));
    const body = { smtp_host: smtp.host, smtp_port: smtp.port, smtp_secure: "", smtp_username: "" };
    await call("PATCH", "/api/options", { token, body });
    return async () => {
      await call("PATCH", "/api/options", { token, body: saved });
    };
  }

  /** What the site holds now, as the API counts it. */
  async function count(token: string): Promise<Record<string, number>> {
    const total = async (path: string) =>
      (await call("GET", `${path}${path.includes("?") ? "&" : "?"}per_page=1`, { token })).pagination?.total ?? 0;
    const kinds = ["users", "topics", "questions", "answers", "articles", "comments"];
    const counts = Object.fromEntries(
      await Promise.all(kinds.map(async (kind) => [kind, await total(`/api/${kind}`)])),
    );
    // Unread notifications, which only their receivers may count; one login after another, as people would.
    let notifications = 0;
    for (const user of demo.users) {
      const own = await login(user.username, user.password).catch((error: unknown) => {
        log(`notifications of ${user.username} not counted: ${String(error)}`);
        return null;
      });
      if (own) notifications += (await call("GET", "/api/notifications/count", { token: own })).data.notification_count;
    }
    return { ...counts, notifications };
  }
}

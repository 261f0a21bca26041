/**
 * @mentions (docs/mentions.md), through HTTP for every kind of content that mentions: the link to the member by id
 * in rendered markdown, `user_mentioned` with the item's ids, once per member, never to the author or a disabled
 * member, at most 10 members an item, only the newly mentioned on an edit or a restore, CJK names, MDCLUB_COMPAT,
 * and the round-trip budget; and the pure rules of lib/mentions.ts.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { foldName, linkedMembers, MAX_MENTIONED, mentionCandidates, mentionedIn } from "../src/lib/mentions";
import { now } from "../src/lib/time";
import { type ApiResponse, del, get, patch, post, put } from "./helpers/api";
import { createAnswer, createArticle, createComment, createQuestion, createTopic, row } from "./helpers/content";
import { createAdmin, createUser, setOptions, type TestUser } from "./helpers/factories";

const COMPAT = { ...env, MDCLUB_COMPAT: "true" };

interface Notice {
  receiver_id: number;
  sender_id: number;
  type: string;
  question_id: number;
  answer_id: number;
  article_id: number;
  comment_id: number;
  reply_id: number;
}

async function mentionsOf(user?: TestUser): Promise<Notice[]> {
  const { results } = await env.DB.prepare(
    `SELECT receiver_id, sender_id, type, question_id, answer_id, article_id, comment_id, reply_id FROM notifications
     WHERE type = 'user_mentioned' ${user ? "AND receiver_id = ?" : ""} ORDER BY notification_id`,
  )
    .bind(...(user ? [user.user_id] : []))
    .all<Notice>();
  return results;
}

const unread = async (user: TestUser) => Number((await row("users", "user_id", user.user_id)).notification_unread);

/** What a write to one kind of content looks like, for the tests written once for every kind. */
interface Kind {
  type: "question" | "answer" | "article" | "comment";
  /** Rendered markdown links mentions; comments are plain text (docs/content.md#plain-text-fields). */
  rendered: boolean;
  /** Writes `text` as a new item by `author` through HTTP: its response and the ids a notification of it carries. */
  create(author: TestUser, text: string, options?: { env?: typeof env }): Promise<{ res: ApiResponse; ids: object }>;
  /** Edits the item's text through HTTP. */
  edit(author: TestUser, id: number, text: string): Promise<ApiResponse>;
  id(res: ApiResponse): number;
}

/** A question or an article: a titled post filed under a topic. */
function titled(type: "question" | "article", title: string): Kind {
  const resource = `${type}s`;
  const idOf = (res: ApiResponse): number => res.body.data?.[`${type}_id`];
  return {
    type,
    rendered: true,
    async create(author, text, options = {}) {
      const body = { title, content_markdown: text, topic_ids: [await createTopic()] };
      const res = await post(`/api/${resource}`, { token: author.token, body, ...options });
      return { res, ids: { [`${type}_id`]: idOf(res) } };
    },
    edit: (author, id, text) =>
      patch(`/api/${resource}/${id}`, { token: author.token, body: { content_markdown: text } }),
    id: idOf,
  };
}

const kinds: Kind[] = [
  titled("question", "A question"),
  {
    type: "answer",
    rendered: true,
    async create(author, text, options = {}) {
      const question = await createQuestion((await createUser()).user_id);
      const res = await post(`/api/questions/${question}/answers`, {
        token: author.token,
        body: { content_markdown: text },
        ...options,
      });
      return { res, ids: { question_id: question, answer_id: res.body.data?.answer_id } };
    },
    edit: (author, id, text) => patch(`/api/answers/${id}`, { token: author.token, body: { content_markdown: text } }),
    id: (res) => res.body.data.answer_id,
  },
  titled("article", "An article"),
  {
    type: "comment",
    rendered: false,
    async create(author, text, options = {}) {
      const article = await createArticle((await createUser()).user_id);
      const res = await post(`/api/articles/${article}/comments`, {
        token: author.token,
        body: { content: text },
        ...options,
      });
      return { res, ids: { article_id: article, comment_id: res.body.data?.comment_id } };
    },
    edit: (author, id, text) => patch(`/api/comments/${id}`, { token: author.token, body: { content: text } }),
    id: (res) => res.body.data.comment_id,
  },
];

const NO_IDS = { question_id: 0, answer_id: 0, article_id: 0, comment_id: 0, reply_id: 0 };

async function allowEdits() {
  await setOptions(
    Object.fromEntries(
      ["question", "answer", "article", "comment"].flatMap((k) => [
        [`${k}_can_edit`, true],
        [`${k}_can_edit_only_no_comment`, false],
        [`${k}_can_edit_only_no_answer`, false],
      ]),
    ),
  );
}

describe.each(kinds)("mentions in a new or edited $type", (kind) => {
  it("notifies each member mentioned once, with the item's ids, within the write budget", async () => {
    const [author, sam, frodo] = [await createUser(), await createUser({ username: "samwise42" }), await createUser()];

    const { res, ids } = await kind.create(author, `Thanks @samwise42, and @SamWise42 again, and @${frodo.username}!`);

    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    for (const member of [sam, frodo]) {
      expect(await mentionsOf(member)).toEqual([
        { receiver_id: member.user_id, sender_id: author.user_id, type: "user_mentioned", ...NO_IDS, ...ids },
      ]);
      expect(await unread(member)).toBe(1);
    }
    const listed = await get("/api/notifications", { token: sam.token, query: { type: "user_mentioned" } });
    expect(listed.body.data.map((n: Notice) => n.type)).toEqual(["user_mentioned"]);
  });

  it.runIf(kind.rendered)("renders each mention as a link to the member by id, through the sanitiser", async () => {
    const [author, sam] = [await createUser(), await createUser({ username: "samwise42" })];

    const { res } = await kind.create(author, "Ask @SamWise42, not `@samwise42` or @nobody99 or me@samwise42.com.");

    expect(res.body.data.content_markdown).toBe("Ask @SamWise42, not `@samwise42` or @nobody99 or me@samwise42.com.");
    expect(res.body.data.content_rendered).toBe(
      `<p>Ask <a href="/users/${sam.user_id}">@SamWise42</a>, not <code>@samwise42</code> or @nobody99 or ` +
        '<a href="mailto:me@samwise42.com">me@samwise42.com</a>.</p>',
    );
  });

  it.runIf(!kind.rendered)("keeps the text as written: a comment is plain text, which the client renders", async () => {
    const [author, sam] = [await createUser(), await createUser({ username: "samwise42" })];

    const { res } = await kind.create(author, "Ask @samwise42");

    expect(res.body.data.content).toBe("Ask @samwise42");
    expect(await mentionsOf(sam)).toHaveLength(1);
  });

  it("finds CJK names inside CJK text, and tells neither the author nor a disabled member", async () => {
    const [author, jing, gone] = [
      await createUser({ username: "李静" }),
      await createUser({ username: "李静怡" }),
      await createUser({ username: "gone42" }),
    ];
    await env.DB.prepare("UPDATE users SET disable_time = ? WHERE user_id = ?").bind(now(), gone.user_id).run();

    const { res } = await kind.create(author, "谢谢@李静怡的回答，@李静 也看看，还有 @gone42。");

    expect(res.status).toBe(200);
    expect((await mentionsOf()).map((n) => n.receiver_id)).toEqual([jing.user_id]);
    if (kind.rendered) {
      expect(res.body.data.content_rendered).toBe(
        `<p>谢谢<a href="/users/${jing.user_id}">@李静怡</a>的回答，<a href="/users/${author.user_id}">@李静</a> 也看看，` +
          `还有 <a href="/users/${gone.user_id}">@gone42</a>。</p>`,
      );
    }
  });

  it(`links and notifies at most ${MAX_MENTIONED} members an item`, async () => {
    const author = await createUser();
    const crowd: TestUser[] = [];
    for (let i = 0; i < MAX_MENTIONED + 2; i++) crowd.push(await createUser({ username: `crowd${i}x` }));

    const text = crowd.map((member) => `@${member.username}`).join(" ");
    const { res } = await kind.create(author, `${text} @crowd0x`);

    expect(res.status).toBe(200);
    const told = (await mentionsOf()).map((n) => n.receiver_id);
    expect(told).toEqual(crowd.slice(0, MAX_MENTIONED).map((member) => member.user_id));
    if (kind.rendered) {
      expect(linkedMembers(res.body.data.content_rendered)).toEqual(told);
      expect(res.body.data.content_rendered).toContain(" @crowd10x @crowd11x ");
    }
  });

  it("tells only the members an edit newly mentions; an administrator's edit is sent by them", async () => {
    await allowEdits();
    const [author, sam, frodo, pippin] = [
      await createUser(),
      await createUser({ username: "samwise42" }),
      await createUser({ username: "frodo42" }),
      await createUser({ username: "pippin42" }),
    ];
    const admin = await createAdmin();
    const { res } = await kind.create(author, "cc @samwise42");
    const id = kind.id(res);

    const edited = await kind.edit(author, id, "cc @samwise42 @frodo42, thanks");
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.roundTrips).toBeLessThanOrEqual(2);
    await kind.edit(admin, id, `cc @samwise42 @frodo42 @pippin42 @${author.username}`);

    expect((await mentionsOf(sam)).length).toBe(1);
    expect((await mentionsOf(frodo)).map((n) => n.sender_id)).toEqual([author.user_id]);
    expect((await mentionsOf(pippin)).map((n) => n.sender_id)).toEqual([admin.user_id]);
    // Nobody tells the author of a mention of them in their own item.
    expect(await mentionsOf(author)).toEqual([]);
  });

  it("tells no member who blocks the author, nor one who blocks the administrator whose edit mentions them", async () => {
    await allowEdits();
    const [author, sam, frodo, pippin] = [
      await createUser(),
      await createUser({ username: "samwise42" }),
      await createUser({ username: "frodo42" }),
      await createUser({ username: "pippin42" }),
    ];
    const admin = await createAdmin();
    expect((await put(`/api/user/blocks/${author.user_id}`, { token: sam.token })).status).toBe(200);
    expect((await put(`/api/user/blocks/${admin.user_id}`, { token: pippin.token })).status).toBe(200);

    const { res } = await kind.create(author, "cc @samwise42 @frodo42");
    expect(res.status).toBe(200);
    await kind.edit(admin, kind.id(res), "cc @samwise42 @frodo42 @pippin42");

    expect((await mentionsOf()).map((n) => n.receiver_id)).toEqual([frodo.user_id]);
    expect([await unread(sam), await unread(pippin)]).toEqual([0, 0]);
    // The block silences the notice, not the link: the text still names them.
    if (kind.rendered)
      expect(res.body.data.content_rendered).toContain(`<a href="/users/${sam.user_id}">@samwise42</a>`);

    // Unblocked, a member is told of the next write that newly mentions them.
    expect((await del(`/api/user/blocks/${author.user_id}`, { token: sam.token })).status).toBe(200);
    await kind.create(author, "again @samwise42");
    expect((await mentionsOf(sam)).length).toBe(1);
  });

  it("links mentions but writes no user_mentioned under MDCLUB_COMPAT, and the counters stay exact", async () => {
    const [author, sam] = [await createUser(), await createUser({ username: "samwise42" })];

    const { res } = await kind.create(author, "cc @samwise42", { env: COMPAT });

    expect(res.status).toBe(200);
    expect(await mentionsOf()).toEqual([]);
    expect(await unread(sam)).toBe(0);
    if (kind.rendered) expect(linkedMembers(res.body.data.content_rendered)).toEqual([sam.user_id]);
  });
});

describe("mentions in replies, answers' comments and restores", () => {
  it("a reply's notification names the comment replied to, the reply, and that comment's target", async () => {
    const [author, sam] = [await createUser(), await createUser({ username: "samwise42" })];
    const question = await createQuestion(author.user_id);
    const answer = await createAnswer(author.user_id, question);
    const comment = await createComment(author.user_id, "answer", answer);

    const onAnswer = await post(`/api/answers/${answer}/comments`, {
      token: author.token,
      body: { content: "@samwise42" },
    });
    const reply = await post(`/api/comments/${comment}/replies`, {
      token: author.token,
      body: { content: "@samwise42" },
    });

    expect(await mentionsOf(sam)).toEqual([
      {
        ...NO_IDS,
        receiver_id: sam.user_id,
        sender_id: author.user_id,
        type: "user_mentioned",
        question_id: question,
        answer_id: answer,
        comment_id: onAnswer.body.data.comment_id,
      },
      {
        ...NO_IDS,
        receiver_id: sam.user_id,
        sender_id: author.user_id,
        type: "user_mentioned",
        question_id: question,
        answer_id: answer,
        comment_id: comment,
        reply_id: reply.body.data.comment_id,
      },
    ]);
  });

  it("a restore renders the revision's mentions again and tells only those the item no longer mentioned", async () => {
    await allowEdits();
    const [author, sam, frodo] = [
      await createUser(),
      await createUser({ username: "samwise42" }),
      await createUser({ username: "frodo42" }),
    ];
    const topicId = await createTopic();
    const created = await post("/api/questions", {
      token: author.token,
      body: { title: "A question", content_markdown: "cc @samwise42 @frodo42", topic_ids: [topicId] },
    });
    const id = created.body.data.question_id;
    await patch(`/api/questions/${id}`, { token: author.token, body: { content_markdown: "cc @frodo42 only" } });

    const restored = await post(`/api/questions/${id}/revisions/1/restore`, { token: author.token });

    expect(restored.status).toBe(200);
    expect(restored.roundTrips).toBeLessThanOrEqual(2);
    expect(restored.body.data.content_rendered).toBe(
      `<p>cc <a href="/users/${sam.user_id}">@samwise42</a> <a href="/users/${frodo.user_id}">@frodo42</a></p>`,
    );
    expect((await mentionsOf(sam)).length).toBe(2);
    expect((await mentionsOf(frodo)).length).toBe(1);
  });
});

describe("lib/mentions.ts", () => {
  it("looks up each run after an @, and the beginnings of CJK runs, folded, never inside addresses or paths", () => {
    expect(mentionCandidates("hi @SamWise42, @sam @sam")).toEqual(["samwise42", "sam"]);
    expect(mentionCandidates("mail a@b.c, see /x/@y, or @@z, or @a")).toEqual([]);
    expect(mentionCandidates("@李静你好")).toEqual(["李静你好", "李静你", "李静"]);
    expect(mentionCandidates("@sam你好")).toEqual(["sam你好", "sam你", "sam"]);
    expect(mentionCandidates(`@${"a".repeat(25)}`)).toEqual([]);
    expect(foldName("SamWise42")).toBe("samwise42");
  });

  it("resolves the longest name a run begins with at a CJK boundary, ASCII names only as a whole run", () => {
    const members = new Map([
      ["sam", { user_id: 1, username: "sam" }],
      ["李静", { user_id: 2, username: "李静" }],
      ["李静怡", { user_id: 3, username: "李静怡" }],
    ]);
    expect(mentionedIn("@samwise42 @sam你好 @李静怡好 @李静好 @sam", members)).toEqual([1, 3, 2]);
  });
});

describe("mentions in private messages", () => {
  it("links the members a message names and tells nobody, neither them nor the receiver, within the write budget", async () => {
    const [sender, receiver, sam] = [
      await createUser(),
      await createUser({ username: "frodo42" }),
      await createUser({ username: "samwise42" }),
    ];

    const sent = await post(`/api/inbox/${receiver.user_id}`, {
      token: sender.token,
      body: { content_markdown: "ask @SamWise42 and @frodo42, not @nobody99" },
    });

    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.roundTrips).toBeLessThanOrEqual(2);
    const rendered =
      `<p>ask <a href="/users/${sam.user_id}">@SamWise42</a> and ` +
      `<a href="/users/${receiver.user_id}">@frodo42</a>, not @nobody99</p>`;
    expect(sent.body.data).toMatchObject({
      content_markdown: "ask @SamWise42 and @frodo42, not @nobody99",
      content_rendered: rendered,
    });
    // The receiver reads the same links; the member named outside the conversation learns nothing of it.
    const read = await get(`/api/inbox/${sender.user_id}`, { token: receiver.token });
    expect(read.body.data.map((m: { content_rendered: string }) => m.content_rendered)).toEqual([rendered]);
    const notices = await env.DB.prepare("SELECT count(*) AS n FROM notifications").first<{ n: number }>();
    expect(notices?.n).toBe(0);
    expect([await unread(sam), await unread(receiver)]).toEqual([0, 0]);
    expect((await get("/api/notifications", { token: sam.token })).body.data).toEqual([]);
    expect((await get("/api/inbox", { token: sam.token })).body.data).toEqual([]);
  });
});

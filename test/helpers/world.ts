/**
 * One of everything, built straight into D1 for the tests that walk every operation of the document: users in
 * every role, content owned by `user` (with an edit history and bookmarks), a notification and a report, an image,
 * and path parameters filled from it.
 */
import { env } from "cloudflare:workers";
import { now } from "../../src/lib/time";
import { createAnswer, createArticle, createComment, createQuestion, createTopic } from "./content";
import { createAdmin, createUser, setOptions, type TestUser } from "./factories";

export interface World {
  user: TestUser;
  other: TestUser;
  admin: TestUser;
  /** Disabled after its token was made: the token must not be honoured. */
  disabled: TestUser;
  topic: number;
  question: number;
  answer: number;
  article: number;
  comment: number;
  reply: number;
  notification: number;
  image: string;
  /** A private message from `other` to `user`, unread, reported by `user`. */
  message: number;
  webhook: number;
  delivery: number;
}

/** Authors may edit and delete their own content at any time, so only access decides an author route. */
const authorRules = Object.fromEntries(
  ["question", "answer", "article", "comment"].flatMap((kind) =>
    ["edit", "delete"].flatMap((action) => [
      [`${kind}_can_${action}`, true],
      [`${kind}_can_${action}_only_no_comment`, false],
      [`${kind}_can_${action}_only_no_answer`, false],
    ]),
  ),
);

export async function buildWorld(): Promise<World> {
  const [user, other, admin] = [await createUser(), await createUser(), await createAdmin()];
  const disabled = await createUser();
  // Disabled behind the API's back, so its token row survives: the caller lookup itself must refuse it.
  await env.DB.prepare("UPDATE users SET disable_time = ? WHERE user_id = ?").bind(now(), disabled.user_id).run();
  await setOptions(authorRules);
  const topic = await createTopic();
  const question = await createQuestion(user.user_id, { topic_ids: [topic] });
  const answer = await createAnswer(user.user_id, question);
  const article = await createArticle(user.user_id, { topic_ids: [topic] });
  const comment = await createComment(user.user_id, "question", question);
  const reply = await createComment(other.user_id, "comment", comment);
  const time = now();
  const notification = (await env.DB.prepare(
    `INSERT INTO notifications (receiver_id, sender_id, type, question_id, comment_id, reply_id, content_deleted,
     create_time, read_time) VALUES (?, ?, 'comment_replied', ?, ?, ?, '', ?, 0) RETURNING notification_id AS id`,
  )
    .bind(user.user_id, other.user_id, question, comment, reply, time)
    .first<{ id: number }>())!.id;
  await env.DB.prepare("UPDATE users SET notification_unread = 1 WHERE user_id = ?").bind(user.user_id).run();
  await env.DB.prepare(
    `INSERT INTO reports (reportable_id, reportable_type, user_id, reason, create_time)
     VALUES (?, 'question', ?, ?, ?)`,
  )
    .bind(question, other.user_id, "spam spam", time)
    .run();
  // Follows and votes both ways, so lists of followers, followees and voters hold someone else's record. Nothing
  // here reads their counters, so they are left alone.
  const follows = [
    [other.user_id, user.user_id, "user"],
    [user.user_id, other.user_id, "user"],
    [user.user_id, topic, "topic"],
    [other.user_id, question, "question"],
    [other.user_id, article, "article"],
  ] as const;
  const up = "INSERT INTO votes (user_id, votable_id, votable_type, type, create_time) VALUES (?, ?, ?, 'up', ?)";
  const votes = [
    [question, "question"],
    [answer, "answer"],
    [article, "article"],
    [comment, "comment"],
  ] as const;
  await env.DB.batch([
    ...follows.map(([follower, id, type]) =>
      env.DB.prepare(
        "INSERT INTO follows (user_id, followable_id, followable_type, create_time) VALUES (?, ?, ?, ?)",
      ).bind(follower, id, type, time),
    ),
    ...votes.map(([id, type]) => env.DB.prepare(up).bind(other.user_id, id, type, time)),
  ]);
  // Each revisable item was edited once by its author (revision 2 keeps what the edit replaced), and `other`
  // bookmarked each: the history and bookmark routes have something to answer and restore.
  await env.DB.batch(
    (
      [
        [question, "question"],
        [answer, "answer"],
        [article, "article"],
      ] as const
    ).flatMap(([id, type]) => [
      env.DB.prepare(
        `INSERT INTO revisions (revisable_type, revisable_id, revision, user_id, content_markdown, create_time)
         VALUES (?, ?, 2, ?, 'before the edit', ?)`,
      ).bind(type, id, user.user_id, time),
      env.DB.prepare(
        "INSERT INTO bookmarks (user_id, bookmarkable_type, bookmarkable_id, create_time) VALUES (?, ?, ?, ?)",
      ).bind(other.user_id, type, id, time),
    ]),
  );
  const image = `${"ab".repeat(16)}.png`;
  await env.DB.prepare(
    `INSERT INTO images (key, filename, width, height, create_time, item_type, item_id, user_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  )
    .bind(image, "a.png", 10, 20, time, "question", question, user.user_id)
    .run();
  const message = await insertMessage(other.user_id, user.user_id, "a private word", time);
  await env.DB.prepare(
    `INSERT INTO reports (reportable_id, reportable_type, user_id, reason, create_time) VALUES (?, 'message', ?, ?, ?)`,
  )
    .bind(message, user.user_id, "unwanted", time)
    .run();
  // A stopped endpoint with one logged attempt: what the webhook routes act on, and nothing is ever sent to it.
  const webhook = (await env.DB.prepare(
    `INSERT INTO webhooks (url, event_types, active, secret, create_time, update_time)
     VALUES ('https://hooks.example.com/world', '[]', 0, 'whsec_d29ybGQ=', ?, ?) RETURNING webhook_id AS id`,
  )
    .bind(time, time)
    .first<{ id: number }>())!.id;
  const delivery = (await env.DB.prepare(
    `INSERT INTO webhook_deliveries (webhook_id, event_id, event_type, attempt, status_code, create_time)
     VALUES (?, 'evt_world', 'question.created', 1, 500, ?) RETURNING delivery_id AS id`,
  )
    .bind(webhook, time)
    .first<{ id: number }>())!.id;
  await env.DB.prepare(
    "INSERT INTO webhook_events (event_id, event_type, body, create_time) VALUES ('evt_world', 'question.created', '{}', ?)",
  )
    .bind(time)
    .run();
  return {
    user,
    other,
    admin,
    disabled,
    topic,
    question,
    answer,
    article,
    comment,
    reply,
    notification,
    image,
    message,
    webhook,
    delivery,
  };
}

/**
 * A message written straight into D1 with its conversation and both inboxes, and the receiver's unread count set as
 * the API keeps it (docs/messages.md#model).
 */
export async function insertMessage(senderId: number, receiverId: number, text: string, time: number) {
  const conversation = (await env.DB.prepare(
    "INSERT INTO conversations (user_id, create_time) VALUES (?, ?) RETURNING conversation_id AS id",
  )
    .bind(senderId, time)
    .first<{ id: number }>())!.id;
  const member = `INSERT INTO conversation_members (user_id, other_user_id, conversation_id, update_time)
    VALUES (?, ?, ?, ?)`;
  await env.DB.batch([
    env.DB.prepare(member).bind(senderId, receiverId, conversation, time),
    env.DB.prepare(member).bind(receiverId, senderId, conversation, time),
  ]);
  const id = (await env.DB.prepare(
    `INSERT INTO messages (conversation_id, sender_id, receiver_id, content_markdown, content_rendered, create_time)
     VALUES (?, ?, ?, ?, ?, ?) RETURNING message_id AS id`,
  )
    .bind(conversation, senderId, receiverId, text, `<p>${text}</p>`, time)
    .first<{ id: number }>())!.id;
  await env.DB.prepare("UPDATE users SET inbox_unread = inbox_unread + 1 WHERE user_id = ?").bind(receiverId).run();
  return id;
}

/** A value for each path parameter the document names, from the world. */
export function pathValue(world: World, name: string): string {
  const ids: Record<string, string | number> = {
    user_id: world.user.user_id,
    topic_id: world.topic,
    question_id: world.question,
    answer_id: world.answer,
    article_id: world.article,
    comment_id: world.comment,
    notification_id: world.notification,
    // The report routes' one segment, `{reportable_type}:{reportable_id}` in the document.
    reportable_type: "question",
    reportable_id: world.question,
    key: world.image.replace(".", "_"),
    message_id: world.message,
    // The revision each revisable item had before its one edit.
    revision: 1,
    webhook_id: world.webhook,
    delivery_id: world.delivery,
  };
  const value = ids[name] ?? ids[name.replace(/_ids$/, "_id")];
  if (value === undefined) throw new Error(`no fixture for path parameter ${name}: add one to test/helpers/world.ts`);
  return String(value);
}

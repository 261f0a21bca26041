/**
 * The rules of content bodies beyond their zod schemas (docs/content.md#validation): the content pipeline's verdict
 * (lib/markdown.ts) and topics that must be live, reported together in one 200001; and the topic ids an edit
 * looks up before its body is validated.
 */
import { validationError } from "../../core/errors";
import { type Content, type ContentResult, processContent } from "../../lib/markdown";
import type { MentionMap } from "../../lib/mentions";
import { isTopicId, MAX_TOPICS } from "./schema";

interface ContentBody {
  title?: string;
  content_markdown?: string;
  content_rendered?: string;
  topic_ids?: number[];
}

/** Throws the 200001 naming the content fields and `topic_ids` (with the ids that are not live topics), if any fail. */
function assertValid(
  content: ContentResult | null,
  topicIds: number[] | undefined,
  liveTopics: { topic_id: number }[],
): asserts content is Extract<ContentResult, { ok: true }> | null {
  const live = new Set(liveTopics.map((row) => row.topic_id));
  const missing = (topicIds ?? []).filter((id) => !live.has(id));
  const errors = {
    ...(content?.ok === false && content.errors),
    ...(missing.length > 0 && { topic_ids: `no such topic: ${missing.join(", ")}` }),
  };
  if (Object.keys(errors).length > 0) throw validationError(errors);
}

/**
 * A create's content, which is required, checked with its topics, and the members of `members` it mentions
 * (docs/mentions.md).
 */
export function createdContent(
  body: ContentBody,
  liveTopics: { topic_id: number }[] = [],
  members?: MentionMap,
): { content: Content; mentioned: number[] } {
  const content = processContent(body, members);
  assertValid(content, body.topic_ids, liveTopics);
  return { content: content.content, mentioned: content.mentioned ?? [] };
}

/**
 * An edit's title and content changes, checked with its topics; the content only when a content field is sent, and
 * then the members of `members` it mentions (null when the content stays).
 */
export function editedFields(
  body: ContentBody,
  liveTopics: { topic_id: number }[] = [],
  members?: MentionMap,
): { changes: Partial<Content> & { title?: string }; mentioned: number[] | null } {
  const content =
    body.content_markdown !== undefined || body.content_rendered !== undefined ? processContent(body, members) : null;
  assertValid(content, body.topic_ids, liveTopics);
  return {
    changes: { ...(body.title !== undefined && { title: body.title }), ...content?.content },
    mentioned: content ? (content.mentioned ?? []) : null,
  };
}

/**
 * The topic ids a body seems to send, read before it is validated so that an edit looks its topics up in the
 * same round trip as the item. Validation decides later whether the list is acceptable: none are looked up for
 * a list it will refuse.
 */
export function topicIdsIn(body: unknown): number[] {
  const sent = (body as { topic_ids?: unknown } | null | undefined)?.topic_ids;
  if (!Array.isArray(sent)) return [];
  const ids = [...new Set(sent.filter(isTopicId))];
  return ids.length <= MAX_TOPICS ? ids : [];
}

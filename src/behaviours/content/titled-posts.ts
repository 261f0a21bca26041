/**
 * The rules shared by questions and articles, the titled, topic-linked posts (docs/operations.md#questions,
 * docs/operations.md#articles, docs/counters.md, docs/permissions.md#author-edit-and-delete-rules,
 * docs/content.md#validation): who sees trashed posts, the order of checks on an edit, the topic set and every counter
 * a write moves. A write is at most one read batch (what the checks need) and one write batch carrying the counters and
 * the record it answers with. Each module keeps its own writes (repo.ts) and records (records.ts).
 */
import type { z } from "@hono/zod-openapi";
import type { CallerId } from "../../core/caller";
import { ApiError } from "../../core/errors";
import { type BatchStatement, batch, type Db, writeThenRead } from "../../db/client";
import { entities, type TopicableKind } from "../../domain/entities";
import { assertAuthorMay } from "../../domain/permissions";
import { parseBody } from "../../http/late-body";
import type { View } from "../../http/view";
import type { Content } from "../../lib/markdown";
import { linkedMembers } from "../../lib/mentions";
import { now } from "../../lib/time";
import { recountStatements } from "../counters";
import { linkImages } from "../image-linking";
import { type MentionsSent, mentionMap, mentionSource, notifyMentioned, selectMentionable } from "../mentionable";
import { type EditSource, editedBody, editRead, recordRevision, revisionTargets } from "../revisable";
import { documentOf, indexNew, reindex } from "../searchable";
import { linkTopics, replaceTopics, selectLiveTopicIds } from "../topicable";
import { createdContent, editedFields, topicIdsIn } from "./body";
import { authoredPage, type ContentRecords, filteredPage, loadOne, oneRecord, type PageQuery, pageOf } from "./page";
import { followedBy, liveCheck, newestOf, selectLiveRow, userExists } from "./repo";

export interface TitledPostListQuery extends PageQuery {
  user_id?: number;
  topic_id?: number;
  trashed?: string;
}

interface TitledPostWrites {
  insert(db: Db, values: Content & { user_id: number; title: string; time: number }): BatchStatement;
  update(db: Db, id: number, changes: Partial<Content> & { title?: string }, time: number): BatchStatement;
}

/**
 * Where a committed create or edit is handed, by id, with the members it may have mentioned (the module's events:
 * docs/events.md#one-event-path).
 */
export interface PostCommitted {
  created(db: Db, id: number, mentions: MentionsSent): void;
  updated(db: Db, id: number, mentions: MentionsSent): void;
}

interface TitledPostBody {
  title?: string;
  content_markdown?: string;
  content_rendered?: string;
  topic_ids?: number[];
}

/** The list, read, create and edit rules of one titled post type over its records, writes and edit body. */
export function titledPosts<
  R extends Record<string, unknown> & { user_id: number; create_time: number },
  T,
  I extends string,
>(
  type: TopicableKind,
  records: ContentRecords<R, T, I>,
  writes: TitledPostWrites,
  editBody: z.ZodType<TitledPostBody>,
  committed: PostCommitted,
) {
  const kind = entities[type];
  const idFilter = `${type}_id` as const;
  /** A list filter; its column names are the post table's, which the generic row type R cannot show. */
  type Filter = Parameters<typeof filteredPage<R, T, I>>[3];

  /** An edit, of a body or of a revision restored: one read batch for the checks, one write batch. */
  async function change(db: Db, view: View, caller: CallerId, id: number, source: EditSource, include: Set<I>) {
    const wanted = "body" in source ? topicIdsIn(source.body) : [];
    const found = await batch(db, {
      post: selectLiveRow(db, kind, id),
      live: wanted.length ? selectLiveTopicIds(db, wanted) : undefined,
      edited: editRead(db, revisionTargets[type], id, source),
    });
    // R is what kind.columns selects, which the kinds' shared column record cannot show.
    const [post] = found.post as R[];
    if (!post) throw new ApiError(kind.notFound);
    const time = now();
    assertAuthorMay(type, "edit", post, caller, view.options, time);

    const body = parseBody(editBody, editedBody(source, found.edited.state));
    // A restore's topics are live ones only (behaviours/revisable.ts).
    const live = "body" in source ? found.live : body.topic_ids?.map((topic_id) => ({ topic_id }));
    const { changes, mentioned } = editedFields(body, live, mentionMap(found.edited.members));
    const before = linkedMembers((post as unknown as Content).content_rendered);
    const { title, content_markdown } = changes;
    const revised = { title, content_markdown, topic_ids: body.topic_ids, mentioned: before };
    const statements = recordRevision(db, revisionTargets[type], id, caller.user_id, revised, time);
    if (Object.keys(changes).length > 0) statements.push(writes.update(db, id, changes, time));
    if (body.topic_ids) statements.push(...replaceTopics(db, type, id, body.topic_ids, time));
    if (changes.content_markdown) {
      statements.push(...linkImages(db, type, id, post.user_id, changes.content_markdown));
    }
    if (changes.title !== undefined || changes.content_rendered !== undefined) {
      const text = post as unknown as { title: string; content_rendered: string };
      statements.push(...reindex(db, type, id, documentOf[type]({ ...text, ...changes })));
    }
    const mentions = notifyMentioned(db, view, mentioned, before, { type, id }, post.user_id, caller.user_id, time);
    statements.push(...mentions.statements);
    const record = await writeThenRead(db, statements, oneRecord(db, view, records, id, include));
    if (Object.keys(changes).length > 0 || body.topic_ids) committed.updated(db, id, mentions.sent);
    return record;
  }

  return {
    /** GET /questions, /articles: the filters; `trashed=true` lists only the trash, for administrators only. */
    list(db: Db, view: View, query: TitledPostListQuery & Partial<Record<typeof idFilter, number>>, include: Set<I>) {
      const { user_id, topic_id } = query;
      const filter = {
        [idFilter]: query[idFilter],
        user_id,
        inTopic: topic_id,
        trashed: view.isAdmin && query.trashed === "true",
      };
      return filteredPage(db, view, records, filter as Filter, query, include);
    },

    /** A user's live posts; 201003 when the user is missing. */
    listOfUser(db: Db, view: View, userId: number, query: PageQuery, include: Set<I>) {
      return authoredPage(db, view, records, userId, query, include);
    },

    /** The live posts of a live topic; 205001 otherwise. */
    listOfTopic(db: Db, view: View, topicId: number, query: PageQuery, include: Set<I>) {
      return filteredPage(
        db,
        view,
        records,
        { inTopic: topicId, trashed: false } as Filter,
        query,
        include,
        liveCheck(db, entities.topic, topicId),
      );
    },

    /** The live posts a user follows, newest follow first; 201003 when the user is missing. */
    listFollowed(db: Db, view: View, userId: number, query: PageQuery, include: Set<I>) {
      return pageOf(db, view, records, followedBy(type, userId), query, include, userExists(db, view, userId));
    },

    /** One post; the kind's NOT_FOUND when missing (or trashed, for non-administrators). */
    get(db: Db, view: View, id: number, include: Set<I>): Promise<T> {
      return loadOne(db, view, records, id, include);
    },

    /**
     * POST: the post, its topic links and its images, the counters it feeds (its author's, each topic's), and
     * the record with its relations, all in one write batch. No auto-follow.
     */
    async create(
      db: Db,
      view: View,
      userId: number,
      body: TitledPostBody & { title: string; topic_ids: number[] },
      include: Set<I>,
    ): Promise<T> {
      const found = await batch(db, {
        live: selectLiveTopicIds(db, body.topic_ids),
        members: selectMentionable(db, mentionSource(body)),
      });
      const { content, mentioned } = createdContent(body, found.live, mentionMap(found.members));
      const time = now();
      const created = newestOf(db, kind, userId);
      const mentions = notifyMentioned(db, view, mentioned, [], { type, id: created }, userId, userId, time);
      const statements = [
        writes.insert(db, { user_id: userId, title: body.title, ...content, time }),
        ...linkTopics(db, type, created, body.topic_ids, time),
        ...linkImages(db, type, created, userId, content.content_markdown),
        ...recountStatements(db, type, created),
        indexNew(db, type, created, documentOf[type]({ title: body.title, ...content })),
        // After the insert: the notifications name the new post.
        ...mentions.statements,
      ];
      const record = await writeThenRead(db, statements, oneRecord(db, view, records, created, include));
      committed.created(db, (record as Record<string, unknown>)[kind.id.name] as number, mentions.sent);
      return record;
    },

    /**
     * PATCH, in the reference's order: the kind's NOT_FOUND for a missing or trashed post (administrators too),
     * the author rule, then the body. Only the fields sent change. A title or content edit moves update_time;
     * `topic_ids` replaces the set of live topics, moving only the counters of topics removed or added, and
     * alone leaves update_time. What it replaces is kept as a revision (docs/revisions.md).
     */
    edit(db: Db, view: View, caller: CallerId, id: number, raw: unknown, include: Set<I>): Promise<T> {
      return change(db, view, caller, id, { body: raw }, include);
    },

    /**
     * POST .../revisions/{revision}/restore: an edit, under the same rules and in the same order, that sets the
     * fields the revision held where they differ from the post's; then REVISION_NOT_FOUND for a revision that is not
     * an earlier one still kept (docs/revisions.md#restore).
     */
    restore(db: Db, view: View, caller: CallerId, id: number, revision: number, include: Set<I>): Promise<T> {
      return change(db, view, caller, id, { revision }, include);
    },
  };
}

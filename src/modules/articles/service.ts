/**
 * Rules of articles (behaviour.md 3.3, 4.1, 4.6): content and topic validation, counters moved in the same
 * batch as the write, the author rule on edits, and who sees which articles. Reads are one batch; writes are
 * one read batch (topics, or the article and its topics) and one write batch that also reads the result.
 */
import { runBatch, type BatchStatement, type Db } from "../../db/client";
import type { Caller } from "../../env";
import { ApiError } from "../../lib/errors";
import { parseBody } from "../../lib/late-body";
import { assertAuthorMay } from "../../lib/permissions";
import { now } from "../../lib/time";
import type { View } from "../../lib/view";
import { createdContent, editedFields, topicIdsIn } from "../content/body";
import { contentKinds } from "../content/kinds";
import { filteredPage, loadOne, pageOf, type PageQuery } from "../content/page";
import type { ArticleRow } from "../content/present";
import { followedBy, liveCheck, newestOf, selectLiveRow } from "../content/repo";
import { linkTopics, replaceTopics, selectLiveTopicIds } from "../topics/repo";
import { userExists } from "../users/service";
import { articleRecords } from "./records";
import { countNewArticle, insertArticle, updateArticle } from "./repo";
import { ArticleEditBody, type Article, type ArticleCreate, type ArticleInclude } from "./schema";
import { linkImages } from "../images/linking";

export interface ArticleListQuery extends PageQuery {
  article_id?: number;
  user_id?: number;
  topic_id?: number;
  trashed?: string;
}

/** GET /articles: the filters; `trashed=true` lists the trash, for administrators only. */
export function listArticles(db: Db, view: View, query: ArticleListQuery, include: Set<ArticleInclude>) {
  const { article_id, user_id, topic_id } = query;
  const filter = { article_id, user_id, inTopic: topic_id, trashed: view.isAdmin && query.trashed === "true" };
  return filteredPage(db, view, articleRecords, filter, query, include);
}

/** A user's live articles (spec operation 8): 201003 when the user does not exist. */
export function listUserArticles(db: Db, view: View, userId: number, query: PageQuery, include: Set<ArticleInclude>) {
  return filteredPage(db, view, articleRecords, { user_id: userId, trashed: false }, query, include, userExists(db, view, userId));
}

/** GET /topics/{id}/articles: the live articles of a live topic; 205001 otherwise. */
export function listTopicArticles(db: Db, view: View, topicId: number, query: PageQuery, include: Set<ArticleInclude>) {
  return filteredPage(db, view, articleRecords, { inTopic: topicId, trashed: false }, query, include, liveCheck(db, contentKinds.topic, topicId));
}

/** The live articles a user follows, newest follow first; 201003 when the user does not exist. */
export function listFollowedArticles(db: Db, view: View, userId: number, query: PageQuery, include: Set<ArticleInclude>) {
  return pageOf(db, view, articleRecords, followedBy("article", userId), query, include, userExists(db, view, userId));
}

/** One article, after `writes` in the same batch; 206001 when missing (or trashed, for non-administrators). */
export function getArticle(db: Db, view: View, id: number, include: Set<ArticleInclude>, writes: BatchStatement[] = []): Promise<Article> {
  return loadOne(db, view, articleRecords, id, include, writes);
}

/**
 * POST /articles: the article, its topic links, the topics' and the author's article_count, in one batch
 * that also reads the new article back. No auto-follow (behaviour.md 3.3).
 */
export async function createArticle(db: Db, view: View, userId: number, body: ArticleCreate, include: Set<ArticleInclude>): Promise<Article> {
  const [liveTopics] = await runBatch(db, [selectLiveTopicIds(db, body.topic_ids)]);
  const content = createdContent(body, liveTopics as { topic_id: number }[]);
  const time = now();
  const created = newestOf(db, contentKinds.article, userId);
  const writes = [
    insertArticle(db, { user_id: userId, title: body.title, ...content, time }),
    ...linkTopics(db, "article", created, body.topic_ids, time),
    ...linkImages(db, "article", created, userId, content.content_markdown),
    countNewArticle(db, userId),
  ];
  return loadOne(db, view, articleRecords, created, include, writes);
}

/**
 * PATCH /articles/{id}, in the reference's order (behaviour.md 4.1): 206001 for a missing or trashed article
 * (administrators too), the author rule (206002-206005), then the body. Only the fields sent change. A title
 * or content edit moves update_time; topic_ids replaces the set of live topics, moving their article_count,
 * and alone leaves update_time (behaviour.md 3.1, 3.3).
 */
export async function editArticle(db: Db, view: View, caller: Caller, id: number, raw: unknown, include: Set<ArticleInclude>): Promise<Article> {
  const wanted = topicIdsIn(raw);
  const [rows, live = []] = await runBatch(db, [
    selectLiveRow(db, contentKinds.article, id),
    ...(wanted.length ? [selectLiveTopicIds(db, wanted)] : []),
  ]);
  const [article] = rows as ArticleRow[];
  if (!article) throw new ApiError(contentKinds.article.notFound);
  const time = now();
  assertAuthorMay("article", "edit", article, caller, view.options, time);

  const body = parseBody(ArticleEditBody, raw);
  const changes = editedFields(body, live as { topic_id: number }[]);
  const writes: BatchStatement[] = [];
  if (Object.keys(changes).length > 0) writes.push(updateArticle(db, id, changes, time));
  if (body.topic_ids) writes.push(...replaceTopics(db, "article", id, body.topic_ids, time));
  if (changes.content_markdown) writes.push(...linkImages(db, "article", id, article.user_id, changes.content_markdown));
  return getArticle(db, view, id, include, writes);
}

/**
 * Rules of articles (behaviour.md 3.3, 4.1, 4.6): content and topic validation, counters moved in the same
 * batch as the write, the author rule on edits, and who sees which articles. Reads are one batch; writes are
 * one read batch (topics, or the article and its topics) and one write batch that also reads the result.
 */
import { followTargets } from "../../behaviours/followable";
import type { IdSource } from "../../behaviours/id-source";
import { runBatch, type BatchStatement, type Db } from "../../db/client";
import { articles } from "../../db/schema";
import type { Caller } from "../../env";
import { ApiError, validationError, type FieldErrors } from "../../lib/errors";
import { processContent } from "../../lib/markdown";
import { parseOrder } from "../../lib/order";
import { parsePage } from "../../lib/pagination";
import { assertAuthorMay } from "../../lib/permissions";
import { now } from "../../lib/time";
import type { View } from "../../lib/view";
import { loadInserted, userCheck, type PageQuery } from "../comments/service";
import { contentKinds } from "../content/kinds";
import { loadByIds, loadPage, type ExistenceCheck, type ListSource } from "../content/page";
import { presentRecord, type ArticleRow, type Relationships } from "../content/present";
import { authorRelation, combineRelations, followingRelation, topicsRelation, votingRelation, type Relation } from "../content/relations";
import {
  articleColumns,
  articlesBy,
  articleSource,
  countNewArticle,
  filteredArticles,
  followedArticles,
  insertArticle,
  linkTopics,
  liveArticles,
  newArticleId,
  selectLiveArticle,
  selectLiveTopics,
  unlinkTopicsExcept,
  updateArticle,
  type ArticleChanges,
  type ArticleFilter,
} from "./repo";
import { ARTICLE_ORDER, type Article, type ArticleCreate, type ArticleEdit, type ArticleInclude } from "./schema";

/** The includes of a page of articles, in the page's batch; null when nothing is included. */
export function articleRelation(db: Db, view: View, include: Set<ArticleInclude>): ((ids: IdSource) => Relation) | null {
  if (include.size === 0) return null;
  return (ids) =>
    combineRelations([
      include.has("user") && authorRelation(db, view, articles, articles.article_id, articles.user_id, ids),
      include.has("topics") && topicsRelation(db, view, "article", ids),
      include.has("is_following") && followingRelation(db, view, followTargets.article, ids),
      include.has("voting") && votingRelation(db, view, "article", ids),
    ]);
}

/** The wire record of an article row (delete_time for administrators only). */
export const presentArticle = (view: View) => (row: ArticleRow, relationships?: Relationships) => presentRecord(row, view, relationships) as Article;

/** One page of articles from any source (e.g. a topic's), with its includes and existence check in one batch. */
export function pageOfArticles(db: Db, view: View, source: ListSource, query: PageQuery, include: Set<ArticleInclude>, check?: ExistenceCheck) {
  return loadPage(db, source, parsePage(query), articleRelation(db, view, include), presentArticle(view), check);
}

const orderOf = (view: View, query: PageQuery) => parseOrder(query.order, ARTICLE_ORDER, view.isAdmin);

/** GET /articles: the filters; `trashed=true` lists the trash, for administrators only. */
export function listArticles(db: Db, view: View, filter: ArticleFilter, query: PageQuery, include: Set<ArticleInclude>) {
  const where = filteredArticles({ ...filter, trashed: view.isAdmin && filter.trashed });
  return pageOfArticles(db, view, articleSource(where, orderOf(view, query)), query, include);
}

/** A user's live articles (spec operation 8): 201003 when the user does not exist. */
export function listUserArticles(db: Db, view: View, userId: number, query: PageQuery, include: Set<ArticleInclude>) {
  return pageOfArticles(db, view, articleSource(articlesBy(userId), orderOf(view, query)), query, include, userCheck(db, view, userId));
}

/** The live articles a user follows, newest follow first. */
export function listFollowedArticles(db: Db, view: View, userId: number, query: PageQuery, include: Set<ArticleInclude>) {
  return pageOfArticles(db, view, followedArticles(userId), query, include, userCheck(db, view, userId));
}

/** One article, after `writes` in the same batch; 206001 when missing (or trashed, for non-administrators). */
export async function getArticle(db: Db, view: View, id: number, include: Set<ArticleInclude>, writes: BatchStatement[] = []): Promise<Article> {
  // Administrators can read a trashed article (DECISIONS.md, content).
  const source = { table: articles, id: articles.article_id, columns: articleColumns, where: view.isAdmin ? undefined : liveArticles };
  const [article] = await loadByIds(db, source, [id], articleRelation(db, view, include), presentArticle(view), writes);
  if (!article) throw new ApiError(contentKinds.article.notFound);
  return article;
}

/** Edited content through the content pipeline, when either field is sent: the changes, or the fields' errors. */
function editedContent(body: Pick<ArticleEdit, "content_markdown" | "content_rendered">): { changes: ArticleChanges; errors: FieldErrors } {
  if (body.content_markdown === undefined && body.content_rendered === undefined) return { changes: {}, errors: {} };
  const result = processContent(body);
  return result.ok ? { changes: result.content, errors: {} } : { changes: {}, errors: result.errors };
}

const topicErrors = (wanted: number[], live: Set<number>): FieldErrors =>
  wanted.every((id) => live.has(id)) ? {} : { topic_ids: "every topic must exist and not be trashed" };

const liveTopicIds = (rows: { topic_id: number }[]) => new Set(rows.map((row) => row.topic_id));

/**
 * POST /articles: the article, its topic links, the topics' and the author's article_count, in one batch
 * that also reads the new article back. No auto-follow (behaviour.md 3.3).
 */
export async function createArticle(db: Db, view: View, userId: number, body: ArticleCreate, include: Set<ArticleInclude>): Promise<Article> {
  const content = processContent(body);
  const live = liveTopicIds(await selectLiveTopics(db, body.topic_ids));
  const errors = { ...(content.ok ? {} : content.errors), ...topicErrors(body.topic_ids, live) };
  if (!content.ok || Object.keys(errors).length > 0) throw validationError(errors);
  const time = now();
  const newId = newArticleId(userId);
  const writes = [
    insertArticle(db, { user_id: userId, title: body.title, ...content.content, time }),
    ...linkTopics(db, newId, body.topic_ids, time),
    countNewArticle(db, userId),
  ];
  const source = { table: articles, id: articles.article_id, columns: articleColumns };
  return loadInserted(db, source, newId, articleRelation(db, view, include), presentArticle(view), writes);
}

/**
 * Before a PATCH body is validated (behaviour.md 4.1): the article must be live (206001), then the author
 * rule. The topics the body names are looked up in the same round trip; their live ids are returned for
 * the validation that follows.
 */
export async function assertMayEditArticle(db: Db, caller: Caller, options: View["options"], id: number, topicIds: number[]): Promise<Set<number>> {
  const [rows, topicRows = []] = (await runBatch(db, [selectLiveArticle(db, id), ...(topicIds.length ? [selectLiveTopics(db, topicIds)] : [])])) as [
    ArticleRow[],
    { topic_id: number }[]?,
  ];
  const [article] = rows;
  if (!article) throw new ApiError(contentKinds.article.notFound);
  assertAuthorMay("article", "edit", article, caller, options, now());
  return liveTopicIds(topicRows);
}

/**
 * PATCH /articles/{id}: only the fields sent change. A title or content edit moves update_time; topic_ids
 * replaces the set, moving the topics' article_count, and alone leaves update_time (behaviour.md 3.1, 3.3).
 */
export function editArticle(db: Db, view: View, id: number, body: ArticleEdit, liveTopics: Set<number>, include: Set<ArticleInclude>): Promise<Article> {
  const content = editedContent(body);
  const errors = { ...content.errors, ...(body.topic_ids ? topicErrors(body.topic_ids, liveTopics) : {}) };
  if (Object.keys(errors).length > 0) throw validationError(errors);
  const changes: ArticleChanges = { ...content.changes, ...(body.title !== undefined && { title: body.title }) };
  const time = now();
  const writes: BatchStatement[] = [];
  if (Object.keys(changes).length > 0) writes.push(updateArticle(db, id, changes, time));
  if (body.topic_ids) writes.push(...unlinkTopicsExcept(db, id, body.topic_ids), ...linkTopics(db, id, body.topic_ids, time));
  return getArticle(db, view, id, include, writes);
}

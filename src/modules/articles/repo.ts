/** Queries on articles and their topics. */
import { and, eq, gt, inArray, notInArray, sql, type SQL } from "drizzle-orm";
import { followingJoin, followTargets } from "../../behaviours/followable";
import { inIds } from "../../behaviours/id-source";
import type { Db } from "../../db/client";
import { articles, follows, topicables, topics, users } from "../../db/schema";
import type { Order } from "../../lib/order";
import { contentKinds } from "../content/kinds";
import { orderBy, type ListSource } from "../content/page";
import type { ArticleOrderField } from "./schema";

export const articleColumns = contentKinds.article.columns;

export const liveArticles = eq(articles.delete_time, 0);

/** A list of articles: `where` on top of the order (the article id settles ties). */
export function articleSource(where: SQL | undefined, order: Order<ArticleOrderField>): ListSource {
  return { table: articles, id: articles.article_id, columns: articleColumns, where, orderBy: orderBy(articles, order, articles.article_id) };
}

export interface ArticleFilter {
  article_id?: number;
  user_id?: number;
  topic_id?: number;
  trashed: boolean;
}

const topicLinks = (topicId: number) =>
  sql`(SELECT ${topicables.topicable_id} FROM ${topicables} WHERE ${topicables.topic_id} = ${topicId} AND ${topicables.topicable_type} = 'article')`;

/** GET /articles: the filters, and either the trash or the live articles. */
export function filteredArticles(filter: ArticleFilter): SQL | undefined {
  return and(
    filter.trashed ? gt(articles.delete_time, 0) : liveArticles,
    filter.article_id === undefined ? undefined : eq(articles.article_id, filter.article_id),
    filter.user_id === undefined ? undefined : eq(articles.user_id, filter.user_id),
    filter.topic_id === undefined ? undefined : inArray(articles.article_id, topicLinks(filter.topic_id)),
  );
}

export const articlesBy = (userId: number) => and(eq(articles.user_id, userId), liveArticles);

/** The live articles a user follows, newest follow first. */
export function followedArticles(userId: number): ListSource {
  const join = followingJoin(followTargets.article, userId);
  return {
    table: articles,
    id: articles.article_id,
    columns: articleColumns,
    join: { table: follows, on: join.on },
    where: and(join.where, liveArticles),
    orderBy: join.orderBy,
  };
}

export const selectLiveArticle = (db: Db, id: number) => db.select().from(articles).where(and(eq(articles.article_id, id), liveArticles));

/** The live topics among `ids`. */
export const selectLiveTopics = (db: Db, ids: number[]) =>
  db.select({ topic_id: topics.topic_id }).from(topics).where(and(inIds(topics.topic_id, ids), eq(topics.delete_time, 0)));

export interface NewArticle {
  user_id: number;
  title: string;
  content_markdown: string;
  content_rendered: string;
  time: number;
}

export function insertArticle(db: Db, values: NewArticle) {
  const { time, ...fields } = values;
  return db.insert(articles).values({ ...fields, create_time: time, update_time: time });
}

/**
 * The id of the article a user has just inserted, for the statements after the insert in the same batch: a
 * batch is one transaction and ids only grow (AUTOINCREMENT), so it is the user's largest article id.
 */
export const newArticleId = (userId: number): SQL =>
  sql`(SELECT max(${articles.article_id}) FROM ${articles} WHERE ${articles.user_id} = ${userId})`;

export const countNewArticle = (db: Db, userId: number) =>
  db.update(users).set({ article_count: sql`${users.article_count} + 1` }).where(eq(users.user_id, userId));

const linksOf = (articleId: number | SQL) => and(eq(topicables.topicable_type, "article"), eq(topicables.topicable_id, articleId));

const linkedTopicIds = (articleId: number | SQL) => sql`(SELECT ${topicables.topic_id} FROM ${topicables} WHERE ${linksOf(articleId)})`;

/**
 * Links an article to topics it is not linked to yet, and counts it in those topics: the count comes first,
 * while the new links do not exist. In the order given, so the topics list in that order.
 */
export function linkTopics(db: Db, articleId: number | SQL, topicIds: number[], time: number) {
  return [
    db
      .update(topics)
      .set({ article_count: sql`${topics.article_count} + 1` })
      .where(and(inIds(topics.topic_id, topicIds), notInArray(topics.topic_id, linkedTopicIds(articleId)))),
    db
      .insert(topicables)
      .values(topicIds.map((topic_id) => ({ topic_id, topicable_id: articleId, topicable_type: "article" as const, create_time: time })))
      .onConflictDoNothing(),
  ];
}

/** Unlinks an article from every topic not in `keep`, and uncounts it there (never below 0). */
export function unlinkTopicsExcept(db: Db, articleId: number, keep: number[]) {
  const removed = and(inArray(topics.topic_id, linkedTopicIds(articleId)), sql`NOT (${inIds(topics.topic_id, keep)})`);
  return [
    db.update(topics).set({ article_count: sql`max(${topics.article_count} - 1, 0)` }).where(removed),
    db.delete(topicables).where(and(linksOf(articleId), sql`NOT (${inIds(topicables.topic_id, keep)})`)),
  ];
}

export interface ArticleChanges {
  title?: string;
  content_markdown?: string;
  content_rendered?: string;
}

export const updateArticle = (db: Db, id: number, changes: ArticleChanges, time: number) =>
  db.update(articles).set({ ...changes, update_time: time }).where(eq(articles.article_id, id));

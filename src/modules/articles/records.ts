/**
 * How article rows become Article records (spec "Article"), with the includes `user`, `topics`, `is_following`,
 * `voting`, `is_bookmarked`.
 */
import { bookmarkTargets } from "../../behaviours/bookmarkable";
import type { ContentRecords } from "../../behaviours/content/page";
import { type ArticleRow, presentRecord } from "../../behaviours/content/present";
import {
  authorRelation,
  bookmarkedRelation,
  followingRelation,
  includedRelations,
  topicsRelation,
  votingRelation,
} from "../../behaviours/content/relations";
import { followTargets } from "../../behaviours/followable";
import { articles } from "../../db/schema";
import { entities } from "../../domain/entities";
import { ARTICLE_INCLUDES, ARTICLE_ORDER, type Article, type ArticleInclude, ArticleSchema } from "./schema";

export const articleRecords: ContentRecords<ArticleRow, Article, ArticleInclude> = {
  kind: entities.article,
  includes: ARTICLE_INCLUDES,
  order: ARTICLE_ORDER,
  schema: ArticleSchema,
  relation: (db, view, include) =>
    includedRelations(include, (ids) => [
      include.has("user") && authorRelation(view, articles.user_id),
      include.has("topics") && topicsRelation(db, view, "article", ids),
      include.has("is_following") && followingRelation(view, followTargets.article, articles.article_id),
      include.has("voting") && votingRelation(view, "article", articles.article_id),
      include.has("is_bookmarked") && bookmarkedRelation(view, bookmarkTargets.article, articles.article_id),
    ]),
  present: (view) => (row, relationships) => presentRecord(row, view, relationships) as Article,
};

/**
 * Rules of articles (docs/operations.md#articles, docs/permissions.md#author-edit-and-delete-rules,
 * docs/content.md#validation): those of every titled post (behaviours/content/titled-posts.ts) over the article
 * records, writes and edit body.
 */
import { titledPosts } from "../../behaviours/content/titled-posts";
import { postEvents } from "../events/outbox";
import { articleRecords } from "./records";
import { insertArticle, updateArticle } from "./repo";
import { ArticleEditBody } from "./schema";

const articles = titledPosts(
  "article",
  articleRecords,
  { insert: insertArticle, update: updateArticle },
  ArticleEditBody,
  postEvents("article"),
);

export const {
  list: listArticles,
  listOfUser: listUserArticles,
  listOfTopic: listTopicArticles,
  listFollowed: listFollowedArticles,
  get: getArticle,
  create: createArticle,
  edit: editArticle,
  restore: restoreArticle,
} = articles;

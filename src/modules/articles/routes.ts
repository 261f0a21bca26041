/**
 * Articles (docs/operations.md#articles): create, edit, read and list them, the articles of a topic, of a user (spec
 * operation 8) and those a user follows, and the routes of an article's capabilities (voters, followers, comments,
 * trash and delete: modules/capabilities.ts).
 */
import { createRoute } from "@hono/zod-openapi";
import { ok } from "../../http/envelope";
import { laterCheckedBody, readBody } from "../../http/late-body";
import { pageOf, userListRoutes } from "../../http/list-routes";
import { loginRequired, requireUser } from "../../http/middleware/context";
import { authorAccess, authSecurity, jsonBody, okResponse, pageResponse, pathId } from "../../http/openapi";
import { createRouter } from "../../http/router";
import { viewOf } from "../../http/view";
import { parseInclude } from "../../lib/include";
import { mountCapabilities } from "../capabilities";
import {
  ARTICLE_INCLUDES,
  ArticleCreateBody,
  ArticleEditBody,
  ArticleIncludeQuery,
  ArticleListQuery,
  ArticlePageQuery,
  ArticleSchema,
  FollowingPageQuery,
} from "./schema";
import {
  createArticle,
  editArticle,
  getArticle,
  listArticles,
  listFollowedArticles,
  listTopicArticles,
  listUserArticles,
} from "./service";

const router = createRouter();
const tags = ["articles"];
const ArticleIdParam = pathId("article_id");
const includeOf = (query: { include?: string }) => parseInclude(query.include, ARTICLE_INCLUDES);

router.openapi(
  createRoute({
    method: "post",
    path: "/articles",
    operationId: "createArticle",
    tags,
    summary: "Publish an article",
    description: "title (2-80 characters), content (Markdown or HTML) and 1-10 live topics are required.",
    security: authSecurity,
    middleware: [loginRequired],
    request: { query: ArticleIncludeQuery, body: jsonBody(ArticleCreateBody) },
    responses: okResponse(ArticleSchema),
  }),
  async (c) => {
    const include = includeOf(c.req.valid("query"));
    return ok(c, await createArticle(c.get("db"), viewOf(c), requireUser(c).user_id, c.req.valid("json"), include));
  },
);

// Body checked late: a missing target or a refusal comes before a field error (http/late-body.ts).
router.openapi(
  createRoute({
    method: "patch",
    path: "/articles/{article_id}",
    operationId: "updateArticle",
    tags,
    summary: "Edit an article",
    description:
      "The article must be live (206001); then the author rule (206002-206005) applies, then the body is validated. " +
      "A title or content edit moves update_time; topic_ids alone does not.",
    ...authorAccess,
    middleware: [loginRequired],
    request: {
      params: ArticleIdParam,
      query: ArticleIncludeQuery,
      body: laterCheckedBody(router, "ArticleEdit", ArticleEditBody),
    },
    responses: okResponse(ArticleSchema),
  }),
  async (c) => {
    const include = includeOf(c.req.valid("query"));
    return ok(
      c,
      await editArticle(
        c.get("db"),
        viewOf(c),
        requireUser(c),
        c.req.valid("param").article_id,
        await readBody(c),
        include,
      ),
    );
  },
);

router.openapi(
  createRoute({
    method: "get",
    path: "/articles/{article_id}",
    operationId: "getArticle",
    tags,
    summary: "An article",
    description: "Administrators can read a trashed article (with `delete_time`); others get 206001.",
    request: { params: ArticleIdParam, query: ArticleIncludeQuery },
    responses: okResponse(ArticleSchema),
  }),
  async (c) =>
    ok(c, await getArticle(c.get("db"), viewOf(c), c.req.valid("param").article_id, includeOf(c.req.valid("query")))),
);

router.openapi(
  createRoute({
    method: "get",
    path: "/articles",
    operationId: "listArticles",
    tags,
    summary: "List articles",
    description: "Filters combine; `trashed=true` lists only the trash (administrators). Default order `-create_time`.",
    request: { query: ArticleListQuery },
    responses: pageResponse(ArticleSchema),
  }),
  (c) => {
    const query = c.req.valid("query");
    return pageOf(c, listArticles(c.get("db"), viewOf(c), query, includeOf(query)));
  },
);

router.openapi(
  createRoute({
    method: "get",
    path: "/topics/{topic_id}/articles",
    operationId: "listTopicArticles",
    tags: ["topics"],
    summary: "The articles of a topic",
    description: "Trashed articles are left out. Default order `-create_time`.",
    request: { params: pathId("topic_id"), query: ArticlePageQuery },
    responses: pageResponse(ArticleSchema),
  }),
  (c) => {
    const query = c.req.valid("query");
    return pageOf(c, listTopicArticles(c.get("db"), viewOf(c), c.req.valid("param").topic_id, query, includeOf(query)));
  },
);

const userArticles = userListRoutes({
  name: "articles",
  summaries: { user: "A user's articles", caller: "The caller's articles" },
  description: "Live ones only. Default order `-create_time`; `delete_time` for administrators only.",
  query: ArticlePageQuery,
  item: ArticleSchema,
  load: (db, view, userId, query) => listUserArticles(db, view, userId, query, includeOf(query)),
});
router.openapi(userArticles.ofUser, userArticles.handler);
router.openapi(userArticles.ofCaller, userArticles.handler);

const followingArticles = userListRoutes({
  name: "following_articles",
  summaries: { user: "The articles a user follows", caller: "The articles the caller follows" },
  description: "Live ones, newest follow first.",
  query: FollowingPageQuery,
  item: ArticleSchema,
  load: (db, view, userId, query) => listFollowedArticles(db, view, userId, query, includeOf(query)),
});
router.openapi(followingArticles.ofUser, followingArticles.handler);
router.openapi(followingArticles.ofCaller, followingArticles.handler);

mountCapabilities(router, "article");

export default router;

/**
 * Articles (behaviour.md 3.3): create, edit, read and list them, a user's articles (spec operation 8) and the
 * articles a user follows, and the FOLLOW family on articles. Their comments are mounted with the other
 * COMMENTS routes (modules/comments); trash and delete belong to the lifecycle module.
 */
import { createRoute } from "@hono/zod-openapi";
import { createRouter } from "../../app-router";
import { beforeBody } from "../../behaviours/commentable";
import { followTargets } from "../../behaviours/followable";
import { mountFollowerRoutes } from "../../behaviours/followable-routes";
import { ok, page } from "../../lib/envelope";
import { parseInclude } from "../../lib/include";
import { authSecurity, jsonBody, okResponse, pageResponse, pathId } from "../../lib/openapi";
import { viewOf } from "../../lib/view";
import { loginRequired, requireUser } from "../../middleware/context";
import {
  ARTICLE_INCLUDES,
  ArticleCreateBody,
  ArticleEditBody,
  ArticleIncludeQuery,
  ArticleListQuery,
  ArticlePageQuery,
  ArticleSchema,
  FollowingPageQuery,
  topicIdsIn,
} from "./schema";
import {
  assertMayEditArticle,
  createArticle,
  editArticle,
  getArticle,
  listArticles,
  listFollowedArticles,
  listUserArticles,
} from "./service";

const router = createRouter();
const tags = ["articles"];
const ArticleIdParam = pathId("article_id");
const UserIdParam = pathId("user_id");
const includeOf = (query: { include?: string }) => parseInclude(query.include, ARTICLE_INCLUDES);
// pathId names its key at run time, so its type is an index signature; validation guarantees the value.
const idOf = (params: Record<string, number | undefined>, name: string) => params[name] as number;

/**
 * The live topics an edit's body names: looked up with the article by the access check (one round trip for
 * both) and used by the validation after it. Keyed by the request's context, so it lives as long as the request.
 */
const liveTopicsOf = new WeakMap<object, Set<number>>();

const articleEditable = beforeBody("article_id", async (c, id) => {
  // Malformed JSON is refused by the body validator after this check (100006).
  const body: unknown = await c.req.json().catch(() => null);
  liveTopicsOf.set(c, await assertMayEditArticle(c.get("db"), requireUser(c), c.get("options"), id, topicIdsIn(body)));
});

router.openapi(
  createRoute({
    method: "post",
    path: "/articles",
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

router.openapi(
  createRoute({
    method: "patch",
    path: "/articles/{article_id}",
    tags,
    summary: "Edit an article",
    description:
      "The article must be live (206001); then the author rule (206002-206005) applies, then the body is validated. " +
      "A title or content edit moves update_time; topic_ids alone does not.",
    security: authSecurity,
    middleware: [loginRequired, articleEditable],
    request: { params: ArticleIdParam, query: ArticleIncludeQuery, body: jsonBody(ArticleEditBody) },
    responses: okResponse(ArticleSchema),
  }),
  async (c) => {
    const id = idOf(c.req.valid("param"), "article_id");
    const include = includeOf(c.req.valid("query"));
    return ok(c, await editArticle(c.get("db"), viewOf(c), id, c.req.valid("json"), liveTopicsOf.get(c) ?? new Set(), include));
  },
);

router.openapi(
  createRoute({
    method: "get",
    path: "/articles/{article_id}",
    tags,
    summary: "An article",
    description: "Administrators can read a trashed article (with `delete_time`); others get 206001.",
    request: { params: ArticleIdParam, query: ArticleIncludeQuery },
    responses: okResponse(ArticleSchema),
  }),
  async (c) => {
    const article = await getArticle(c.get("db"), viewOf(c), idOf(c.req.valid("param"), "article_id"), includeOf(c.req.valid("query")));
    return ok(c, article);
  },
);

router.openapi(
  createRoute({
    method: "get",
    path: "/articles",
    tags,
    summary: "List articles",
    description: "Filters combine; `trashed=true` lists only the trash (administrators). Default order `-create_time`.",
    request: { query: ArticleListQuery },
    responses: pageResponse(ArticleSchema),
  }),
  async (c) => {
    const query = c.req.valid("query");
    const filter = { article_id: query.article_id, user_id: query.user_id, topic_id: query.topic_id, trashed: query.trashed === "true" };
    const result = await listArticles(c.get("db"), viewOf(c), filter, query, includeOf(query));
    return page(c, result.data, result.pagination);
  },
);

router.openapi(
  createRoute({
    method: "get",
    path: "/users/{user_id}/articles",
    tags: ["users"],
    summary: "List articles of a user",
    description: "Live ones only; 201003 when the user does not exist. Default order `-create_time`; `delete_time` for administrators only.",
    request: { params: UserIdParam, query: ArticlePageQuery },
    responses: pageResponse(ArticleSchema),
  }),
  async (c) => {
    const query = c.req.valid("query");
    const result = await listUserArticles(c.get("db"), viewOf(c), idOf(c.req.valid("param"), "user_id"), query, includeOf(query));
    return page(c, result.data, result.pagination);
  },
);

router.openapi(
  createRoute({
    method: "get",
    path: "/user/articles",
    tags: ["users"],
    summary: "The caller's articles",
    security: authSecurity,
    middleware: [loginRequired],
    request: { query: ArticlePageQuery },
    responses: pageResponse(ArticleSchema),
  }),
  async (c) => {
    const query = c.req.valid("query");
    const result = await listUserArticles(c.get("db"), viewOf(c), requireUser(c).user_id, query, includeOf(query));
    return page(c, result.data, result.pagination);
  },
);

router.openapi(
  createRoute({
    method: "get",
    path: "/users/{user_id}/following_articles",
    tags: ["users"],
    summary: "The articles a user follows",
    description: "Live ones, newest follow first; 201003 when the user does not exist.",
    request: { params: UserIdParam, query: FollowingPageQuery },
    responses: pageResponse(ArticleSchema),
  }),
  async (c) => {
    const query = c.req.valid("query");
    const result = await listFollowedArticles(c.get("db"), viewOf(c), idOf(c.req.valid("param"), "user_id"), query, includeOf(query));
    return page(c, result.data, result.pagination);
  },
);

router.openapi(
  createRoute({
    method: "get",
    path: "/user/following_articles",
    tags: ["users"],
    summary: "The articles the caller follows",
    description: "Live ones, newest follow first.",
    security: authSecurity,
    middleware: [loginRequired],
    request: { query: FollowingPageQuery },
    responses: pageResponse(ArticleSchema),
  }),
  async (c) => {
    const query = c.req.valid("query");
    const result = await listFollowedArticles(c.get("db"), viewOf(c), requireUser(c).user_id, query, includeOf(query));
    return page(c, result.data, result.pagination);
  },
);

mountFollowerRoutes(router, followTargets.article, { resource: "articles", param: "article_id", tag: "articles" });

export default router;

/**
 * Topics (behaviour.md 3.5): the topic list and records, administrators' creation and edits, the articles
 * filed under a topic, followers (FOLLOW family) and the topics a user follows. A topic's questions are listed
 * by the questions module. Trash, untrash and delete are the lifecycle module's.
 */
import { createRoute } from "@hono/zod-openapi";
import { createRouter } from "../../app-router";
import { followTargets } from "../../behaviours/followable";
import { mountFollowerRoutes } from "../../behaviours/followable-routes";
import { ok, page } from "../../lib/envelope";
import { parseInclude } from "../../lib/include";
import { authSecurity, jsonBody, okResponse, pageResponse, pathId } from "../../lib/openapi";
import { viewOf } from "../../lib/view";
import { adminRequired, loginRequired, requireUser } from "../../middleware/context";
import { ARTICLE_INCLUDES, ArticlePageQuery, ArticleSchema } from "../articles/schema";
import { TOPIC_INCLUDES, TopicCreateBody, TopicEditBody, TopicIncludeQuery, TopicListQuery, TopicPageQuery, TopicSchema } from "./schema";
import { createTopic, editTopic, getTopic, listFollowedTopics, listTopicArticles, listTopics } from "./service";

const router = createRouter();
const tags = ["topics"];
const TopicIdParam = pathId("topic_id");
const UserIdParam = pathId("user_id");
const includeOf = (query: { include?: string }) => parseInclude(query.include, TOPIC_INCLUDES);
// pathId names its key at run time, so its type is an index signature; validation guarantees the value.
const idOf = (params: Record<string, number | undefined>, name: string) => params[name] as number;

router.openapi(
  createRoute({
    method: "get",
    path: "/topics",
    tags,
    summary: "List topics",
    description: "Default order `topic_id` ascending. Administrators may ask `trashed=true` (only trashed topics) and order by `delete_time`.",
    request: { query: TopicListQuery },
    responses: pageResponse(TopicSchema),
  }),
  async (c) => {
    const query = c.req.valid("query");
    const result = await listTopics(c.get("db"), viewOf(c), query, includeOf(query));
    return page(c, result.data, result.pagination);
  },
);

router.openapi(
  createRoute({
    method: "post",
    path: "/topics",
    tags,
    summary: "Create a topic (administrators)",
    description: "A name already used by a live topic (case-insensitively) is a 200001 on `name` with status 409.",
    security: authSecurity,
    middleware: [adminRequired],
    request: { query: TopicIncludeQuery, body: jsonBody(TopicCreateBody) },
    responses: okResponse(TopicSchema),
  }),
  async (c) => ok(c, await createTopic(c.get("db"), viewOf(c), c.req.valid("json"), includeOf(c.req.valid("query")))),
);

router.openapi(
  createRoute({
    method: "get",
    path: "/topics/{topic_id}",
    tags,
    summary: "A topic",
    description: "Administrators also get trashed topics, with `delete_time`; others get 205001.",
    request: { params: TopicIdParam, query: TopicIncludeQuery },
    responses: okResponse(TopicSchema),
  }),
  async (c) => ok(c, await getTopic(c.get("db"), viewOf(c), idOf(c.req.valid("param"), "topic_id"), includeOf(c.req.valid("query")))),
);

// The original edits topics with POST because its form carries a cover file; PATCH is the JSON client's verb.
for (const method of ["post", "patch"] as const) {
  router.openapi(
    createRoute({
      method,
      path: "/topics/{topic_id}",
      tags,
      summary: "Edit a topic (administrators)",
      description: "Only the fields sent change. A live topic only (205001); a taken name is a 200001 on `name` with status 409.",
      security: authSecurity,
      middleware: [adminRequired],
      request: { params: TopicIdParam, query: TopicIncludeQuery, body: jsonBody(TopicEditBody) },
      responses: okResponse(TopicSchema),
    }),
    async (c) => {
      const id = idOf(c.req.valid("param"), "topic_id");
      return ok(c, await editTopic(c.get("db"), viewOf(c), id, c.req.valid("json"), includeOf(c.req.valid("query"))));
    },
  );
}

router.openapi(
  createRoute({
    method: "get",
    path: "/topics/{topic_id}/articles",
    tags,
    summary: "The articles of a topic",
    description: "Trashed articles are left out. Default order `-create_time`.",
    request: { params: TopicIdParam, query: ArticlePageQuery },
    responses: pageResponse(ArticleSchema),
  }),
  async (c) => {
    const query = c.req.valid("query");
    const include = parseInclude(query.include, ARTICLE_INCLUDES);
    const result = await listTopicArticles(c.get("db"), viewOf(c), idOf(c.req.valid("param"), "topic_id"), query, include);
    return page(c, result.data, result.pagination);
  },
);

router.openapi(
  createRoute({
    method: "get",
    path: "/users/{user_id}/following_topics",
    tags,
    summary: "The topics a user follows",
    description: "Newest follow first; trashed topics are left out.",
    request: { params: UserIdParam, query: TopicPageQuery },
    responses: pageResponse(TopicSchema),
  }),
  async (c) => {
    const query = c.req.valid("query");
    const result = await listFollowedTopics(c.get("db"), viewOf(c), idOf(c.req.valid("param"), "user_id"), query, includeOf(query));
    return page(c, result.data, result.pagination);
  },
);

router.openapi(
  createRoute({
    method: "get",
    path: "/user/following_topics",
    tags,
    summary: "The topics the caller follows",
    description: "Newest follow first; trashed topics are left out.",
    security: authSecurity,
    middleware: [loginRequired],
    request: { query: TopicPageQuery },
    responses: pageResponse(TopicSchema),
  }),
  async (c) => {
    const query = c.req.valid("query");
    const result = await listFollowedTopics(c.get("db"), viewOf(c), requireUser(c).user_id, query, includeOf(query));
    return page(c, result.data, result.pagination);
  },
);

mountFollowerRoutes(router, followTargets.topic, { resource: "topics", param: "topic_id", tag: "topics" });

export default router;

/**
 * Topics (docs/operations.md#topics): the topic list and records, administrators' creation and edits, the topics a
 * user follows, and the routes of a topic's capabilities (followers, trash and delete: modules/capabilities.ts). A
 * topic's questions and articles are listed by their own modules.
 */
import { createRoute } from "@hono/zod-openapi";
import { ok } from "../../http/envelope";
import { pageOf, userListRoutes } from "../../http/list-routes";
import { adminRequired } from "../../http/middleware/context";
import { adminAccess, okResponse, pageResponse, pathId } from "../../http/openapi";
import { createRouter } from "../../http/router";
import { viewOf } from "../../http/view";
import { parseInclude } from "../../lib/include";
import { mountCapabilities } from "../capabilities";
import {
  createTopicFromForm,
  editTopicFromForm,
  isForm,
  readCreateForm,
  readEditForm,
  topicBody,
  validJson,
} from "./cover";
import {
  TOPIC_INCLUDES,
  TopicCreateBody,
  TopicEditBody,
  TopicIncludeQuery,
  TopicListQuery,
  TopicPageQuery,
  TopicSchema,
} from "./schema";
import { createTopic, editTopic, getTopic, listFollowedTopics, listTopics } from "./service";

const router = createRouter();
const tags = ["topics"];
const TopicIdParam = pathId("topic_id");
const includeOf = (query: { include?: string }) => parseInclude(query.include, TOPIC_INCLUDES);

router.openapi(
  createRoute({
    method: "get",
    path: "/topics",
    operationId: "listTopics",
    tags,
    summary: "List topics",
    description:
      "Default order `topic_id` ascending. " +
      "Administrators may ask `trashed=true` (only trashed topics) and order by `delete_time`.",
    request: { query: TopicListQuery },
    responses: pageResponse(TopicSchema),
  }),
  (c) => {
    const query = c.req.valid("query");
    return pageOf(c, listTopics(c.get("db"), viewOf(c), query, includeOf(query)));
  },
);

router.openapi(
  createRoute({
    method: "post",
    path: "/topics",
    operationId: "createTopic",
    tags,
    summary: "Create a topic (administrators)",
    description: "A name already used by a live topic (case-insensitively) is a 200001 on `name` with status 409.",
    ...adminAccess,
    middleware: [adminRequired],
    request: { query: TopicIncludeQuery, body: topicBody(TopicCreateBody, true) },
    responses: okResponse(TopicSchema),
  }),
  async (c) => {
    const [db, view, include] = [c.get("db"), viewOf(c), includeOf(c.req.valid("query"))];
    if (isForm(c.req.raw))
      return ok(c, await createTopicFromForm(db, c.env.BUCKET, view, await readCreateForm(c.req.raw), include));
    return ok(c, await createTopic(db, view, validJson(c, TopicCreateBody), include));
  },
);

router.openapi(
  createRoute({
    method: "get",
    path: "/topics/{topic_id}",
    operationId: "getTopic",
    tags,
    summary: "A topic",
    description: "Administrators also get trashed topics, with `delete_time`; others get 205001.",
    request: { params: TopicIdParam, query: TopicIncludeQuery },
    responses: okResponse(TopicSchema),
  }),
  async (c) =>
    ok(c, await getTopic(c.get("db"), viewOf(c), c.req.valid("param").topic_id, includeOf(c.req.valid("query")))),
);

// The original edits topics with POST because its form carries a cover file; PATCH is the JSON client's verb.
for (const method of ["post", "patch"] as const) {
  router.openapi(
    createRoute({
      method,
      path: "/topics/{topic_id}",
      operationId: method === "patch" ? "updateTopic" : "updateTopicWithForm",
      tags,
      summary: "Edit a topic (administrators)",
      description:
        "Only the fields sent change. A live topic only (205001); a taken name is a 200001 on `name` with status 409.",
      ...adminAccess,
      middleware: [adminRequired],
      request: { params: TopicIdParam, query: TopicIncludeQuery, body: topicBody(TopicEditBody, false) },
      responses: okResponse(TopicSchema),
    }),
    async (c) => {
      const [db, view, id, include] = [
        c.get("db"),
        viewOf(c),
        c.req.valid("param").topic_id,
        includeOf(c.req.valid("query")),
      ];
      if (isForm(c.req.raw))
        return ok(c, await editTopicFromForm(db, c.env.BUCKET, view, id, await readEditForm(c.req.raw), include));
      return ok(c, await editTopic(db, view, id, validJson(c, TopicEditBody), include));
    },
  );
}

const followingTopics = userListRoutes({
  name: "following_topics",
  summaries: { user: "The topics a user follows", caller: "The topics the caller follows" },
  description: "Newest follow first; trashed topics are left out.",
  query: TopicPageQuery,
  item: TopicSchema,
  load: (db, view, userId, query) => listFollowedTopics(db, view, userId, query, includeOf(query)),
});
router.openapi(followingTopics.ofUser, followingTopics.handler);
router.openapi(followingTopics.ofCaller, followingTopics.handler);

mountCapabilities(router, "topic");

export default router;

/**
 * Questions (behaviour.md 3.1): the question list and records, asking and editing, followers (FOLLOW family),
 * and the question lists of a topic, of a user and of what a user follows. Answers are the answers module's;
 * trash, untrash and delete are the lifecycle module's.
 */
import { createRoute } from "@hono/zod-openapi";
import { createRouter } from "../../app-router";
import { followTargets } from "../../behaviours/followable";
import { mountFollowerRoutes } from "../../behaviours/followable-routes";
import { ok, page } from "../../lib/envelope";
import { parseInclude } from "../../lib/include";
import { authSecurity, okResponse, pageResponse, pathId } from "../../lib/openapi";
import { viewOf } from "../../lib/view";
import { loginRequired, requireUser } from "../../middleware/context";
import { laterCheckedBody, readBody } from "./body";
import {
  QUESTION_INCLUDES,
  QuestionCreateBody,
  QuestionEditBody,
  QuestionFollowingQuery,
  QuestionIncludeQuery,
  QuestionListQuery,
  QuestionPageQuery,
  QuestionSchema,
} from "./schema";
import {
  createQuestion,
  editQuestion,
  getQuestion,
  listFollowedQuestions,
  listQuestions,
  listTopicQuestions,
  listUserQuestions,
} from "./service";

const router = createRouter();
const tags = ["questions"];
const QuestionIdParam = pathId("question_id");
const TopicIdParam = pathId("topic_id");
const UserIdParam = pathId("user_id");
const includeOf = (query: { include?: string }) => parseInclude(query.include, QUESTION_INCLUDES);
// pathId names its key at run time, so its type is an index signature; validation guarantees the value.
const idOf = (params: Record<string, number | undefined>, name: string) => params[name] as number;

router.openapi(
  createRoute({
    method: "get",
    path: "/questions",
    tags,
    summary: "List questions",
    description: "Default order `-update_time`. Administrators may ask `trashed=true` (only trashed questions) and order by `delete_time`.",
    request: { query: QuestionListQuery },
    responses: pageResponse(QuestionSchema),
  }),
  async (c) => {
    const query = c.req.valid("query");
    const result = await listQuestions(c.get("db"), viewOf(c), query, includeOf(query));
    return page(c, result.data, result.pagination);
  },
);

router.openapi(
  createRoute({
    method: "post",
    path: "/questions",
    tags,
    summary: "Ask a question",
    description: "`title` (2-80 characters, trimmed), content (markdown wins over HTML) and 1-10 live `topic_ids`.",
    security: authSecurity,
    middleware: [loginRequired],
    request: { query: QuestionIncludeQuery, body: laterCheckedBody(router, "QuestionCreate", QuestionCreateBody) },
    responses: okResponse(QuestionSchema),
  }),
  async (c) => {
    const include = includeOf(c.req.valid("query"));
    return ok(c, await createQuestion(c.get("db"), viewOf(c), requireUser(c), await readBody(c), include));
  },
);

router.openapi(
  createRoute({
    method: "get",
    path: "/questions/{question_id}",
    tags,
    summary: "A question",
    description: "Administrators also get trashed questions, with `delete_time`; others get 202001.",
    request: { params: QuestionIdParam, query: QuestionIncludeQuery },
    responses: okResponse(QuestionSchema),
  }),
  async (c) => ok(c, await getQuestion(c.get("db"), viewOf(c), idOf(c.req.valid("param"), "question_id"), includeOf(c.req.valid("query")))),
);

router.openapi(
  createRoute({
    method: "patch",
    path: "/questions/{question_id}",
    tags,
    summary: "Edit a question",
    description:
      "Checked in this order: the question is live (202001, administrators too), the author may edit it under the site " +
      "settings (202002-202006; administrators may always), then the body. Only the fields sent change.",
    security: authSecurity,
    middleware: [loginRequired],
    request: { params: QuestionIdParam, query: QuestionIncludeQuery, body: laterCheckedBody(router, "QuestionEdit", QuestionEditBody) },
    responses: okResponse(QuestionSchema),
  }),
  async (c) => {
    const id = idOf(c.req.valid("param"), "question_id");
    const include = includeOf(c.req.valid("query"));
    return ok(c, await editQuestion(c.get("db"), viewOf(c), requireUser(c), id, await readBody(c), include));
  },
);

router.openapi(
  createRoute({
    method: "get",
    path: "/topics/{topic_id}/questions",
    tags: ["topics"],
    summary: "The questions of a topic",
    description: "Trashed questions are left out. Default order `-update_time`.",
    request: { params: TopicIdParam, query: QuestionPageQuery },
    responses: pageResponse(QuestionSchema),
  }),
  async (c) => {
    const query = c.req.valid("query");
    const result = await listTopicQuestions(c.get("db"), viewOf(c), idOf(c.req.valid("param"), "topic_id"), query, includeOf(query));
    return page(c, result.data, result.pagination);
  },
);

router.openapi(
  createRoute({
    method: "get",
    path: "/users/{user_id}/questions",
    tags: ["users"],
    summary: "A user's questions",
    description: "Trashed questions are left out. Default order `-update_time`.",
    request: { params: UserIdParam, query: QuestionPageQuery },
    responses: pageResponse(QuestionSchema),
  }),
  async (c) => {
    const query = c.req.valid("query");
    const result = await listUserQuestions(c.get("db"), viewOf(c), idOf(c.req.valid("param"), "user_id"), query, includeOf(query));
    return page(c, result.data, result.pagination);
  },
);

router.openapi(
  createRoute({
    method: "get",
    path: "/user/questions",
    tags: ["users"],
    summary: "The caller's questions",
    description: "Trashed questions are left out. Default order `-update_time`.",
    security: authSecurity,
    middleware: [loginRequired],
    request: { query: QuestionPageQuery },
    responses: pageResponse(QuestionSchema),
  }),
  async (c) => {
    const query = c.req.valid("query");
    const result = await listUserQuestions(c.get("db"), viewOf(c), requireUser(c).user_id, query, includeOf(query));
    return page(c, result.data, result.pagination);
  },
);

router.openapi(
  createRoute({
    method: "get",
    path: "/users/{user_id}/following_questions",
    tags: ["users"],
    summary: "The questions a user follows",
    description: "Newest follow first; trashed questions are left out.",
    request: { params: UserIdParam, query: QuestionFollowingQuery },
    responses: pageResponse(QuestionSchema),
  }),
  async (c) => {
    const query = c.req.valid("query");
    const result = await listFollowedQuestions(c.get("db"), viewOf(c), idOf(c.req.valid("param"), "user_id"), query, includeOf(query));
    return page(c, result.data, result.pagination);
  },
);

router.openapi(
  createRoute({
    method: "get",
    path: "/user/following_questions",
    tags: ["users"],
    summary: "The questions the caller follows",
    description: "Newest follow first; trashed questions are left out.",
    security: authSecurity,
    middleware: [loginRequired],
    request: { query: QuestionFollowingQuery },
    responses: pageResponse(QuestionSchema),
  }),
  async (c) => {
    const query = c.req.valid("query");
    const result = await listFollowedQuestions(c.get("db"), viewOf(c), requireUser(c).user_id, query, includeOf(query));
    return page(c, result.data, result.pagination);
  },
);

mountFollowerRoutes(router, followTargets.question, { resource: "questions", param: "question_id", tag: "questions" });

export default router;

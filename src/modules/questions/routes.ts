/**
 * Questions (docs/operations.md#questions): the question list and records, asking and editing, the question lists of
 * a topic, of a user and of what a user follows, and the routes of a question's capabilities (voters, followers,
 * comments, trash and delete: modules/capabilities.ts). A question's answers are the answers module's.
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
import { acceptAnswer, withdrawAcceptedAnswer } from "./accepted-answer";
import {
  AcceptedAnswerBody,
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
const includeOf = (query: { include?: string }) => parseInclude(query.include, QUESTION_INCLUDES);

router.openapi(
  createRoute({
    method: "get",
    path: "/questions",
    operationId: "listQuestions",
    tags,
    summary: "List questions",
    description:
      "Default order `-update_time`. " +
      "Administrators may ask `trashed=true` (only trashed questions) and order by `delete_time`.",
    request: { query: QuestionListQuery },
    responses: pageResponse(QuestionSchema),
  }),
  (c) => {
    const query = c.req.valid("query");
    return pageOf(c, listQuestions(c.get("db"), viewOf(c), query, includeOf(query)));
  },
);

router.openapi(
  createRoute({
    method: "post",
    path: "/questions",
    operationId: "createQuestion",
    tags,
    summary: "Ask a question",
    description: "`title` (2-80 characters, trimmed), content (markdown wins over HTML) and 1-10 live `topic_ids`.",
    security: authSecurity,
    middleware: [loginRequired],
    request: { query: QuestionIncludeQuery, body: jsonBody(QuestionCreateBody) },
    responses: okResponse(QuestionSchema),
  }),
  async (c) => {
    const include = includeOf(c.req.valid("query"));
    return ok(c, await createQuestion(c.get("db"), viewOf(c), requireUser(c).user_id, c.req.valid("json"), include));
  },
);

router.openapi(
  createRoute({
    method: "get",
    path: "/questions/{question_id}",
    operationId: "getQuestion",
    tags,
    summary: "A question",
    description: "Administrators also get trashed questions, with `delete_time`; others get 202001.",
    request: { params: QuestionIdParam, query: QuestionIncludeQuery },
    responses: okResponse(QuestionSchema),
  }),
  async (c) =>
    ok(c, await getQuestion(c.get("db"), viewOf(c), c.req.valid("param").question_id, includeOf(c.req.valid("query")))),
);

// Body checked late: a missing target or a refusal comes before a field error (http/late-body.ts).
router.openapi(
  createRoute({
    method: "patch",
    path: "/questions/{question_id}",
    operationId: "updateQuestion",
    tags,
    summary: "Edit a question",
    description:
      "Checked in this order: the question is live (202001, administrators too), the author may edit it under the " +
      "site settings (202002-202006; administrators may always), then the body. Only the fields sent change.",
    ...authorAccess,
    middleware: [loginRequired],
    request: {
      params: QuestionIdParam,
      query: QuestionIncludeQuery,
      body: laterCheckedBody(router, "QuestionEdit", QuestionEditBody),
    },
    responses: okResponse(QuestionSchema),
  }),
  async (c) => {
    const include = includeOf(c.req.valid("query"));
    return ok(
      c,
      await editQuestion(
        c.get("db"),
        viewOf(c),
        requireUser(c),
        c.req.valid("param").question_id,
        await readBody(c),
        include,
      ),
    );
  },
);

router.openapi(
  createRoute({
    method: "get",
    path: "/topics/{topic_id}/questions",
    operationId: "listTopicQuestions",
    tags: ["topics"],
    summary: "The questions of a topic",
    description: "Trashed questions are left out. Default order `-update_time`.",
    request: { params: pathId("topic_id"), query: QuestionPageQuery },
    responses: pageResponse(QuestionSchema),
  }),
  (c) => {
    const query = c.req.valid("query");
    return pageOf(
      c,
      listTopicQuestions(c.get("db"), viewOf(c), c.req.valid("param").topic_id, query, includeOf(query)),
    );
  },
);

const userQuestions = userListRoutes({
  name: "questions",
  summaries: { user: "A user's questions", caller: "The caller's questions" },
  description: "Trashed questions are left out. Default order `-update_time`.",
  query: QuestionPageQuery,
  item: QuestionSchema,
  load: (db, view, userId, query) => listUserQuestions(db, view, userId, query, includeOf(query)),
});
router.openapi(userQuestions.ofUser, userQuestions.handler);
router.openapi(userQuestions.ofCaller, userQuestions.handler);

const followingQuestions = userListRoutes({
  name: "following_questions",
  summaries: { user: "The questions a user follows", caller: "The questions the caller follows" },
  description: "Newest follow first; trashed questions are left out.",
  query: QuestionFollowingQuery,
  item: QuestionSchema,
  load: (db, view, userId, query) => listFollowedQuestions(db, view, userId, query, includeOf(query)),
});
router.openapi(followingQuestions.ofUser, followingQuestions.handler);
router.openapi(followingQuestions.ofCaller, followingQuestions.handler);

// Body checked late: a missing question or a refusal comes before a field error (http/late-body.ts).
router.openapi(
  createRoute({
    method: "put",
    path: "/questions/{question_id}/accepted_answer",
    operationId: "acceptAnswer",
    tags,
    summary: "Accept an answer",
    description:
      "Checked in this order: the question is live (202001), the caller is its author or an administrator (210001), " +
      "the body, the answer is live (203001) and answers this question (210002). Another answer accepted before is " +
      "replaced. The answer's author gets `answer_accepted` (not under MDCLUB_COMPAT). update_time stays.",
    ...authorAccess,
    middleware: [loginRequired],
    request: {
      params: QuestionIdParam,
      query: QuestionIncludeQuery,
      body: laterCheckedBody(router, "AcceptedAnswer", AcceptedAnswerBody),
    },
    responses: okResponse(QuestionSchema),
  }),
  async (c) => {
    const { question_id } = c.req.valid("param");
    const include = includeOf(c.req.valid("query"));
    return ok(c, await acceptAnswer(c.get("db"), viewOf(c), requireUser(c), question_id, await readBody(c), include));
  },
);

router.openapi(
  createRoute({
    method: "delete",
    path: "/questions/{question_id}/accepted_answer",
    operationId: "withdrawAcceptedAnswer",
    tags,
    summary: "Withdraw the accepted answer",
    description:
      "The question is live (202001) and the caller its author or an administrator (210001). The question then has " +
      "no accepted answer; withdrawing none changes nothing.",
    ...authorAccess,
    middleware: [loginRequired],
    request: { params: QuestionIdParam, query: QuestionIncludeQuery },
    responses: okResponse(QuestionSchema),
  }),
  async (c) => {
    const include = includeOf(c.req.valid("query"));
    const id = c.req.valid("param").question_id;
    return ok(c, await withdrawAcceptedAnswer(c.get("db"), viewOf(c), requireUser(c), id, include));
  },
);

mountCapabilities(router, "question");

export default router;

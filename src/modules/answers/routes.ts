/**
 * Answers (spec operation 2, docs/operations.md#answers): answering a question, the answers of a question and of a
 * user, single answers, edits, the administrators' list of all answers, and the routes of an answer's capabilities
 * (voters, comments, trash and delete: modules/capabilities.ts).
 */
import { createRoute } from "@hono/zod-openapi";
import { ok } from "../../http/envelope";
import { laterCheckedBody, readBody } from "../../http/late-body";
import { pageOf, userListRoutes } from "../../http/list-routes";
import { adminRequired, loginRequired, requireUser } from "../../http/middleware/context";
import { adminAccess, authorAccess, authSecurity, okResponse, pageResponse, pathId } from "../../http/openapi";
import { createRouter } from "../../http/router";
import { viewOf } from "../../http/view";
import { parseInclude } from "../../lib/include";
import { mountCapabilities } from "../capabilities";
import {
  ANSWER_INCLUDES,
  AnswerBody,
  AnswerIncludeQuery,
  AnswerListQuery,
  AnswerPageQuery,
  AnswerSchema,
  QuestionAnswerPageQuery,
} from "./schema";
import { createAnswer, editAnswer, getAnswer, listAnswers, listQuestionAnswers, listUserAnswers } from "./service";

const router = createRouter();
const tags = ["answers"];
const AnswerIdParam = pathId("answer_id");
const QuestionIdParam = pathId("question_id");
const answerBody = laterCheckedBody(router, "AnswerContent", AnswerBody);
const includeOf = (query: { include?: string }) => parseInclude(query.include, ANSWER_INCLUDES);

// Body checked late: a missing target or a refusal comes before a field error (http/late-body.ts).
router.openapi(
  createRoute({
    method: "post",
    path: "/questions/{question_id}/answers",
    operationId: "createAnswer",
    tags,
    summary: "Answer a question",
    description:
      "The question must be live (202001, checked before the body). Moves the question's answer_count, " +
      "last_answer_time and update_time, and the author's answer_count.",
    security: authSecurity,
    middleware: [loginRequired],
    request: { params: QuestionIdParam, query: AnswerIncludeQuery, body: answerBody },
    responses: okResponse(AnswerSchema),
  }),
  async (c) => {
    const include = includeOf(c.req.valid("query"));
    return ok(
      c,
      await createAnswer(
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
    path: "/questions/{question_id}/answers",
    operationId: "listQuestionAnswers",
    tags,
    summary: "The answers of a question",
    description:
      "The question must be live (202001); trashed answers are left out. Default order `-create_time`; " +
      "`-accepted` puts the accepted answer first.",
    request: { params: QuestionIdParam, query: QuestionAnswerPageQuery },
    responses: pageResponse(AnswerSchema),
  }),
  (c) => {
    const query = c.req.valid("query");
    return pageOf(
      c,
      listQuestionAnswers(c.get("db"), viewOf(c), c.req.valid("param").question_id, query, includeOf(query)),
    );
  },
);

router.openapi(
  createRoute({
    method: "get",
    path: "/answers",
    operationId: "listAnswers",
    tags,
    summary: "List all answers (administrators)",
    description: "Default order `-create_time`; `trashed=true` lists only trashed answers.",
    ...adminAccess,
    middleware: [adminRequired],
    request: { query: AnswerListQuery },
    responses: pageResponse(AnswerSchema),
  }),
  (c) => {
    const query = c.req.valid("query");
    return pageOf(c, listAnswers(c.get("db"), viewOf(c), query, includeOf(query)));
  },
);

router.openapi(
  createRoute({
    method: "get",
    path: "/answers/{answer_id}",
    operationId: "getAnswer",
    tags,
    summary: "An answer",
    description: "Administrators also get trashed answers, with `delete_time`; others get 203001.",
    request: { params: AnswerIdParam, query: AnswerIncludeQuery },
    responses: okResponse(AnswerSchema),
  }),
  async (c) =>
    ok(c, await getAnswer(c.get("db"), viewOf(c), c.req.valid("param").answer_id, includeOf(c.req.valid("query")))),
);

// Body checked late: a missing target or a refusal comes before a field error (http/late-body.ts).
router.openapi(
  createRoute({
    method: "patch",
    path: "/answers/{answer_id}",
    operationId: "updateAnswer",
    tags,
    summary: "Edit an answer",
    description:
      "Checked in this order: the answer is live (203001, administrators too), the author may edit it under the site " +
      "settings (203002-203005; administrators may always), then the body. No content field changes nothing.",
    ...authorAccess,
    middleware: [loginRequired],
    request: { params: AnswerIdParam, query: AnswerIncludeQuery, body: answerBody },
    responses: okResponse(AnswerSchema),
  }),
  async (c) => {
    const include = includeOf(c.req.valid("query"));
    return ok(
      c,
      await editAnswer(
        c.get("db"),
        viewOf(c),
        requireUser(c),
        c.req.valid("param").answer_id,
        await readBody(c),
        include,
      ),
    );
  },
);

const userAnswers = userListRoutes({
  name: "answers",
  summaries: { user: "A user's answers", caller: "The caller's answers" },
  description: "Trashed answers are left out. Default order `-create_time`.",
  query: AnswerPageQuery,
  item: AnswerSchema,
  load: (db, view, userId, query) => listUserAnswers(db, view, userId, query, includeOf(query)),
});
router.openapi(userAnswers.ofUser, userAnswers.handler);
router.openapi(userAnswers.ofCaller, userAnswers.handler);

mountCapabilities(router, "answer");

export default router;

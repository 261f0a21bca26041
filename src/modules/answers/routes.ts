/**
 * Answers (spec operation 2, behaviour.md 3.2): answering a question, the answers of a question and of a
 * user, single answers, edits, and the administrators' list of all answers. Trash, untrash and delete are the
 * lifecycle module's.
 */
import { createRoute } from "@hono/zod-openapi";
import { createRouter } from "../../app-router";
import { ok, page } from "../../lib/envelope";
import { parseInclude } from "../../lib/include";
import { authSecurity, okResponse, pageResponse, pathId } from "../../lib/openapi";
import { viewOf } from "../../lib/view";
import { adminRequired, loginRequired, requireUser } from "../../middleware/context";
import { laterCheckedBody, readBody } from "../questions/body";
import { ANSWER_INCLUDES, AnswerBody, AnswerIncludeQuery, AnswerListQuery, AnswerPageQuery, AnswerSchema } from "./schema";
import { createAnswer, editAnswer, getAnswer, listAnswers, listQuestionAnswers, listUserAnswers } from "./service";

const router = createRouter();
const tags = ["answers"];
const AnswerIdParam = pathId("answer_id");
const QuestionIdParam = pathId("question_id");
const UserIdParam = pathId("user_id");
const answerBody = laterCheckedBody(router, "AnswerContent", AnswerBody);
const includeOf = (query: { include?: string }) => parseInclude(query.include, ANSWER_INCLUDES);
// pathId names its key at run time, so its type is an index signature; validation guarantees the value.
const idOf = (params: Record<string, number | undefined>, name: string) => params[name] as number;

router.openapi(
  createRoute({
    method: "post",
    path: "/questions/{question_id}/answers",
    tags,
    summary: "Answer a question",
    description:
      "The question must be live (202001, checked before the body). Moves the question's answer_count, last_answer_time " +
      "and update_time, and the author's answer_count.",
    security: authSecurity,
    middleware: [loginRequired],
    request: { params: QuestionIdParam, query: AnswerIncludeQuery, body: answerBody },
    responses: okResponse(AnswerSchema),
  }),
  async (c) => {
    const questionId = idOf(c.req.valid("param"), "question_id");
    const include = includeOf(c.req.valid("query"));
    return ok(c, await createAnswer(c.get("db"), viewOf(c), requireUser(c), questionId, await readBody(c), include));
  },
);

router.openapi(
  createRoute({
    method: "get",
    path: "/questions/{question_id}/answers",
    tags,
    summary: "The answers of a question",
    description: "The question must be live (202001); trashed answers are left out. Default order `-create_time`.",
    request: { params: QuestionIdParam, query: AnswerPageQuery },
    responses: pageResponse(AnswerSchema),
  }),
  async (c) => {
    const query = c.req.valid("query");
    const result = await listQuestionAnswers(c.get("db"), viewOf(c), idOf(c.req.valid("param"), "question_id"), query, includeOf(query));
    return page(c, result.data, result.pagination);
  },
);

router.openapi(
  createRoute({
    method: "get",
    path: "/answers",
    tags,
    summary: "List all answers (administrators)",
    description: "Default order `-create_time`; `trashed=true` lists only trashed answers.",
    security: authSecurity,
    middleware: [adminRequired],
    request: { query: AnswerListQuery },
    responses: pageResponse(AnswerSchema),
  }),
  async (c) => {
    const query = c.req.valid("query");
    const result = await listAnswers(c.get("db"), viewOf(c), query, includeOf(query));
    return page(c, result.data, result.pagination);
  },
);

router.openapi(
  createRoute({
    method: "get",
    path: "/answers/{answer_id}",
    tags,
    summary: "An answer",
    description: "Administrators also get trashed answers, with `delete_time`; others get 203001.",
    request: { params: AnswerIdParam, query: AnswerIncludeQuery },
    responses: okResponse(AnswerSchema),
  }),
  async (c) => ok(c, await getAnswer(c.get("db"), viewOf(c), idOf(c.req.valid("param"), "answer_id"), includeOf(c.req.valid("query")))),
);

router.openapi(
  createRoute({
    method: "patch",
    path: "/answers/{answer_id}",
    tags,
    summary: "Edit an answer",
    description:
      "Checked in this order: the answer is live (203001, administrators too), the author may edit it under the site " +
      "settings (203002-203005; administrators may always), then the body. No content field changes nothing.",
    security: authSecurity,
    middleware: [loginRequired],
    request: { params: AnswerIdParam, query: AnswerIncludeQuery, body: answerBody },
    responses: okResponse(AnswerSchema),
  }),
  async (c) => {
    const id = idOf(c.req.valid("param"), "answer_id");
    const include = includeOf(c.req.valid("query"));
    return ok(c, await editAnswer(c.get("db"), viewOf(c), requireUser(c), id, await readBody(c), include));
  },
);

router.openapi(
  createRoute({
    method: "get",
    path: "/users/{user_id}/answers",
    tags: ["users"],
    summary: "A user's answers",
    description: "Trashed answers are left out. Default order `-create_time`.",
    request: { params: UserIdParam, query: AnswerPageQuery },
    responses: pageResponse(AnswerSchema),
  }),
  async (c) => {
    const query = c.req.valid("query");
    const result = await listUserAnswers(c.get("db"), viewOf(c), idOf(c.req.valid("param"), "user_id"), query, includeOf(query));
    return page(c, result.data, result.pagination);
  },
);

router.openapi(
  createRoute({
    method: "get",
    path: "/user/answers",
    tags: ["users"],
    summary: "The caller's answers",
    description: "Trashed answers are left out. Default order `-create_time`.",
    security: authSecurity,
    middleware: [loginRequired],
    request: { query: AnswerPageQuery },
    responses: pageResponse(AnswerSchema),
  }),
  async (c) => {
    const query = c.req.valid("query");
    const result = await listUserAnswers(c.get("db"), viewOf(c), requireUser(c).user_id, query, includeOf(query));
    return page(c, result.data, result.pagination);
  },
);

export default router;

/**
 * A question's accepted answer (docs/operations.md#accepted-answer): chosen and withdrawn by the asker or an
 * administrator. Each write is one read batch (the question and the answer, for the checks) and one write batch
 * carrying the change, the `answer_accepted` notification with its unread recount, and the Question record.
 */
import { oneRecord } from "../../behaviours/content/page";
import type { QuestionRow } from "../../behaviours/content/present";
import { selectLiveRow } from "../../behaviours/content/repo";
import { answerAccepted } from "../../behaviours/notification-events";
import type { CallerId } from "../../core/caller";
import { ApiError } from "../../core/errors";
import { type BatchStatement, batch, type Db, writeThenRead } from "../../db/client";
import { entities } from "../../domain/entities";
import { assertMayAccept } from "../../domain/permissions";
import { parseBody } from "../../http/late-body";
import type { View } from "../../http/view";
import { now } from "../../lib/time";
import { emitNotified } from "../events/outbox";
import { questionRecords } from "./records";
import { selectAnswerOf, setAcceptedAnswer } from "./repo";
import { AcceptedAnswerBody, type Question, type QuestionInclude } from "./schema";

/** The answer id a body seems to send, looked up with the question before the body is validated. */
function answerIdIn(raw: unknown): number | null {
  const id = (raw as { answer_id?: unknown } | null | undefined)?.answer_id;
  return typeof id === "number" && Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** The live question, else 202001 (administrators too, as for an edit); then the caller must be its asker. */
function assertAsker(question: QuestionRow | undefined, caller: CallerId): asserts question is QuestionRow {
  if (!question) throw new ApiError(entities.question.notFound);
  assertMayAccept(question, caller);
}

/**
 * PUT /questions/{id}/accepted_answer, checked in this order: the question is live (202001), the caller is its
 * author or an administrator (210001), the body (200001), the answer is live (203001) and answers this question
 * (210002). Accepting the answer already accepted changes nothing; another one replaces it. The answer's author is
 * told (`answer_accepted`) unless they accepted it themself or the deployment serves MDClub's front ends. Neither
 * the question's update_time nor any counter but the receiver's unread count moves.
 */
export async function acceptAnswer(
  db: Db,
  view: View,
  caller: CallerId,
  questionId: number,
  raw: unknown,
  include: Set<QuestionInclude>,
): Promise<Question> {
  const wanted = answerIdIn(raw);
  const found = await batch(db, {
    question: selectLiveRow(db, entities.question, questionId),
    answer: wanted === null ? undefined : selectAnswerOf(db, wanted),
  });
  const [question] = found.question as QuestionRow[];
  assertAsker(question, caller);
  const { answer_id } = parseBody(AcceptedAnswerBody, raw);
  const [answer] = found.answer ?? [];
  if (!answer || answer.delete_time > 0) throw new ApiError(entities.answer.notFound);
  if (answer.question_id !== questionId) throw new ApiError("ANSWER_OF_ANOTHER_QUESTION");

  const writes: BatchStatement[] = [];
  const time = now();
  const notifies = question.accepted_answer_id !== answer_id && !view.compat;
  if (question.accepted_answer_id !== answer_id) writes.push(setAcceptedAnswer(db, questionId, answer_id));
  if (notifies) writes.push(...answerAccepted(db, questionId, answer_id, caller.user_id, time));
  const record = await writeThenRead(db, writes, oneRecord(db, view, questionRecords, questionId, include));
  if (notifies) {
    emitNotified(db, {
      type: "answer_accepted",
      column: "answer_id",
      ids: [answer_id],
      receivers: { authorsOf: "answer", ids: [answer_id] },
      sender_id: caller.user_id,
      create_time: time,
    });
  }
  return record;
}

/**
 * DELETE /questions/{id}/accepted_answer: the question is live (202001), the caller its author or an administrator
 * (210001); the question then has no accepted answer. Withdrawing none changes nothing; nobody is notified.
 */
export async function withdrawAcceptedAnswer(
  db: Db,
  view: View,
  caller: CallerId,
  questionId: number,
  include: Set<QuestionInclude>,
): Promise<Question> {
  const [question] = (await batch(db, selectLiveRow(db, entities.question, questionId))) as QuestionRow[];
  assertAsker(question, caller);
  const writes = question.accepted_answer_id === 0 ? [] : [setAcceptedAnswer(db, questionId, 0)];
  return writeThenRead(db, writes, oneRecord(db, view, questionRecords, questionId, include));
}

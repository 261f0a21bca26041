/**
 * Rules of the questions routes (docs/operations.md#questions, docs/counters.md,
 * docs/permissions.md#author-edit-and-delete-rules, docs/content.md#validation): those of every titled post
 * (behaviours/content/titled-posts.ts) over the question records, writes and edit body.
 */
import { titledPosts } from "../../behaviours/content/titled-posts";
import { postEvents } from "../events/outbox";
import { questionRecords } from "./records";
import { insertQuestion, updateQuestion } from "./repo";
import { QuestionEditBody } from "./schema";

const questions = titledPosts(
  "question",
  questionRecords,
  { insert: insertQuestion, update: updateQuestion },
  QuestionEditBody,
  postEvents("question"),
);

export const {
  list: listQuestions,
  listOfUser: listUserQuestions,
  listOfTopic: listTopicQuestions,
  listFollowed: listFollowedQuestions,
  get: getQuestion,
  create: createQuestion,
  edit: editQuestion,
  restore: restoreQuestion,
} = questions;

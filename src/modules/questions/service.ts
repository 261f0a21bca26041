/**
 * Rules of the questions routes (behaviour.md 3.1, 3.11, 4.1, 4.6): those of every titled post
 * (behaviours/content/titled-posts.ts) over the question records, writes and edit body.
 */
import { titledPosts } from "../../behaviours/content/titled-posts";
import { questionRecords } from "./records";
import { insertQuestion, updateQuestion } from "./repo";
import { QuestionEditBody } from "./schema";

const questions = titledPosts(
  "question",
  questionRecords,
  { insert: insertQuestion, update: updateQuestion },
  QuestionEditBody,
);

export const {
  list: listQuestions,
  listOfUser: listUserQuestions,
  listOfTopic: listTopicQuestions,
  listFollowed: listFollowedQuestions,
  get: getQuestion,
  create: createQuestion,
  edit: editQuestion,
} = questions;

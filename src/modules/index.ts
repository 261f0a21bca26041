/** Every resource router, mounted under /api by app.ts. */
import answers from "./answers/routes";
import articles from "./articles/routes";
import auth from "./auth/routes";
import comments from "./comments/routes";
import lifecycle from "./lifecycle/routes";
import options from "./options/routes";
import questions from "./questions/routes";
import topics from "./topics/routes";
import users from "./users/routes";
import votes from "./votes/routes";

export const routers = [options, auth, users, topics, questions, answers, articles, comments, votes, lifecycle];

/** Every router: `routers` are mounted under /api by app.ts, `fileRouter` at the root (stored files). */
import answers from "./answers/routes";
import articles from "./articles/routes";
import auth from "./auth/routes";
import avatars from "./avatars/routes";
import blocks from "./blocks/routes";
import bookmarks from "./bookmarks/routes";
import comments from "./comments/routes";
import emails from "./emails/routes";
import files from "./files/routes";
import images from "./images/routes";
import inbox from "./inbox/routes";
import live from "./live/routes";
import notifications from "./notifications/routes";
import options from "./options/routes";
import questions from "./questions/routes";
import reports from "./reports/routes";
import search from "./search/routes";
import stats from "./stats/routes";
import topics from "./topics/routes";
import users from "./users/routes";
import webhooks from "./webhooks/routes";

export const routers = [
  options,
  auth,
  users,
  avatars,
  bookmarks,
  topics,
  questions,
  answers,
  articles,
  search,
  comments,
  reports,
  notifications,
  images,
  stats,
  emails,
  inbox,
  blocks,
  live,
  webhooks,
];

export const fileRouter = files;

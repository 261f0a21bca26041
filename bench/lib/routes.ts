/**
 * The benchmarked requests, numbered so that a server's k-th request is the same on every run: the two reads of
 * issue 10 with a normal user's token, an anonymous list and a vote.
 */
import type { Fetch } from "./api";
import type { BenchRoute } from "./load";
import { loginAll, PLAN, type Seeded, username } from "./seed";

export interface Tokens {
  /** A normal user's token (bench02): the reads. */
  reader: string;
  /** Other users' tokens: the votes. */
  voters: string[];
}

const VOTERS = 32;

/** Logs in the reader (bench02) and the voters (the last 32 users). */
export async function logInBenchUsers(origin: string, fetcher?: Fetch): Promise<Tokens> {
  const voters = Array.from({ length: VOTERS }, (_, i) => username(PLAN.users - VOTERS + i));
  const [reader, ...others] = await loginAll(origin, [username(1), ...voters], fetcher);
  return { reader: reader?.token as string, voters: others.map((voter) => voter.token) };
}

/** Articles the votes go to: none of the author's, so the reads' rows do not move. */
const VOTE_ARTICLES = 200;

export function benchRoutes(seeded: Seeded, tokens: Tokens): BenchRoute[] {
  // Every third comment of the first 300: a spread of articles, authors and votes of the reader.
  const comments = seeded.commentIds.filter((_, j) => j % 3 === 0).slice(0, 100);
  const voteArticles = seeded.articleIds.slice(PLAN.authorArticles, PLAN.authorArticles + VOTE_ARTICLES);
  const voters = tokens.voters.length;
  return [
    {
      name: "comment",
      label: "GET /api/comments/{id}?include=user,voting",
      call: (k) => ({
        method: "GET",
        path: `/api/comments/${comments[k % comments.length]}?include=user,voting`,
        token: tokens.reader,
      }),
    },
    {
      name: "user-articles",
      label: "GET /api/users/{id}/articles?per_page=100&include=user,topics,is_following,voting",
      call: () => ({
        method: "GET",
        path: `/api/users/${seeded.authorId}/articles?per_page=100&include=user,topics,is_following,voting`,
        token: tokens.reader,
      }),
    },
    {
      name: "articles",
      label: "GET /api/articles?include=user,topics (anonymous)",
      call: () => ({ method: "GET", path: "/api/articles?include=user,topics" }),
    },
    {
      // Voter k % V on the (k / V)-th article, the type flipping on every pass over the pairs: a vote is inserted,
      // replaced or (when a seeded vote already matches) left, as real traffic would.
      name: "vote",
      label: "POST /api/articles/{id}/voters {type}",
      call: (k) => {
        const pass = Math.floor(k / (voters * voteArticles.length));
        return {
          method: "POST",
          path: `/api/articles/${voteArticles[Math.floor(k / voters) % voteArticles.length]}/voters`,
          token: tokens.voters[k % voters],
          body: { type: pass % 2 === 0 ? "down" : "up" },
        };
      },
    },
  ];
}

/** Full-text search (docs/search.md, docs/operations.md#search). */
import { createRoute } from "@hono/zod-openapi";
import { pageOf } from "../../http/list-routes";
import { pageResponse } from "../../http/openapi";
import { createRouter } from "../../http/router";
import { viewOf } from "../../http/view";
import { SearchQuery, SearchResultSchema } from "./schema";
import { search } from "./service";

const router = createRouter();

router.openapi(
  createRoute({
    method: "get",
    path: "/search",
    operationId: "search",
    tags: ["search"],
    summary: "Search",
    description:
      "The records of one kind (`type`, default question) whose text matches `q`, best match first (bm25, a " +
      "title's match weighing more; then votes, or followers for topics and users, then the newest), each as the " +
      "kind's own lists show it and with the kind's `include` names, plus `relationships.highlight`. Trashed " +
      "items and disabled users are never found, by anyone. A query that is empty, too long, has too many terms, " +
      "control characters or nothing to search for is 200001 naming `q`; FTS5 syntax in it is searched as text. " +
      "Rate limited per user and per address (100002).",
    request: { query: SearchQuery },
    responses: pageResponse(SearchResultSchema),
  }),
  (c) => pageOf(c, search(c.get("db"), viewOf(c), c.req.valid("query"))),
);

export default router;

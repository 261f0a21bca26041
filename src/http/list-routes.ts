/**
 * GET routes that answer a page of records: the answer (the route's loader, then the page envelope) and the pair
 * of routes every list about one user comes in.
 */
import { createRoute, type z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { Db } from "../db/client";
import type { Pagination } from "../lib/pagination";
import type { AppEnv } from "./app-env";
import { page } from "./envelope";
import { loginRequired } from "./middleware/context";
import { authSecurity, pageResponse, pascal, pathId } from "./openapi";
import { requireViewer, type View, viewOf } from "./view";

type Loaded = Promise<{ data: unknown[]; pagination: Pagination }>;

/**
 * A list route's answer: the page a loader produced in the page envelope. The records are the loader's presented
 * rows, typed as whatever the route documents.
 */
export const pageOf = async (c: Context, loaded: Loaded) => {
  const { data, pagination } = await loaded;
  return page(c, data as never[], pagination);
};

export interface UserList<Q extends z.ZodObject, I extends z.ZodType> {
  /** The last path segment, e.g. `questions` or `following_topics`. */
  name: string;
  /** The two routes' summaries, e.g. "A user's questions" and "The caller's questions". */
  summaries: { user: string; caller: string };
  description: string;
  query: Q;
  item: I;
  load(db: Db, view: View, userId: number, query: z.output<Q>): Loaded;
}

/** What a route's validators produced, read by a handler that serves two routes. */
const valid = <T>(c: Context<AppEnv>, target: "param" | "query") =>
  (c.req as unknown as { valid(target: string): T }).valid(target);

/**
 * A list about one user (docs/operations.md#users) comes as two routes: `/users/{user_id}/<name>` for anyone (201003
 * when the user is missing) and `/user/<name>` for the logged-in caller (201001 for anyone else).
 */
export function userListRoutes<Q extends z.ZodObject, I extends z.ZodType>(list: UserList<Q, I>) {
  const { query, item } = list;
  const ofUser = createRoute({
    method: "get",
    path: `/users/{user_id}/${list.name}`,
    operationId: `listUser${pascal(list.name)}`,
    tags: ["users"],
    summary: list.summaries.user,
    description: `${list.description} 201003 when the user does not exist.`,
    request: { params: pathId("user_id"), query },
    responses: pageResponse(item),
  });
  const ofCaller = createRoute({
    method: "get",
    path: `/user/${list.name}`,
    operationId: `listMy${pascal(list.name)}`,
    tags: ["users"],
    summary: list.summaries.caller,
    description: list.description,
    security: authSecurity,
    middleware: [loginRequired],
    request: { query },
    responses: pageResponse(item),
  });
  // `/user/<name>` has no path id: its user is the caller, whom loginRequired has let through.
  const handler = (c: Context<AppEnv>) => {
    const userId = valid<{ user_id: number } | undefined>(c, "param")?.user_id ?? requireViewer(viewOf(c)).user_id;
    return pageOf(c, list.load(c.get("db"), viewOf(c), userId, valid<z.output<Q>>(c, "query")));
  };
  return { ofUser, ofCaller, handler };
}

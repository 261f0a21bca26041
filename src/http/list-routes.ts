/**
 * GET routes that answer a page of records. Each declares its path, documentation, query and record schemas and
 * a loader; the handler (validated query and path, the loader, the page envelope) is written once here.
 */
import { createRoute, type OpenAPIHono, type RouteConfig, type z } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import type { Db } from "../db/client";
import type { Pagination } from "../lib/pagination";
import type { AppEnv } from "./app-env";
import { page } from "./envelope";
import { adminRequired, loginRequired } from "./middleware/context";
import { adminAccess, authSecurity, pageResponse, pathId } from "./openapi";
import { requireViewer, type View, viewOf } from "./view";

type Loaded = Promise<{ data: unknown[]; pagination: Pagination }>;

export interface ListRoute<Q extends z.ZodObject, P extends z.ZodObject> {
  path: string;
  tags: string[];
  summary: string;
  description: string;
  /** `loginRequired` or `adminRequired`, documented as needing a token; anyone may list without it. */
  access?: MiddlewareHandler<AppEnv>;
  params?: P;
  query: Q;
  item: z.ZodType;
  load(db: Db, view: View, query: z.output<Q>, params: z.output<P>): Loaded;
}

/**
 * What a route's validators produced: the one handler below serves every list, so its routes are typed as any route.
 */
const valid = <T>(c: Context<AppEnv>, target: "param" | "query") =>
  (c.req as unknown as { valid(target: string): T }).valid(target);

export function mountList<Q extends z.ZodObject, P extends z.ZodObject>(
  router: OpenAPIHono<AppEnv>,
  route: ListRoute<Q, P>,
) {
  const config: RouteConfig = createRoute({
    method: "get",
    path: route.path,
    tags: route.tags,
    summary: route.summary,
    description: route.description,
    ...(route.access && {
      ...(route.access === adminRequired ? adminAccess : { security: authSecurity }),
      middleware: [route.access],
    }),
    request: { params: route.params, query: route.query },
    responses: pageResponse(route.item),
  });
  router.openapi(config, async (c) => {
    const result = await route.load(
      c.get("db"),
      viewOf(c),
      valid<z.output<Q>>(c, "query"),
      valid<z.output<P>>(c, "param"),
    );
    return page(c, result.data, result.pagination);
  });
}

export interface UserList<Q extends z.ZodObject> {
  /** The last path segment, e.g. `questions` or `following_topics`. */
  name: string;
  /** The two routes' summaries, e.g. "A user's questions" and "The caller's questions". */
  summaries: { user: string; caller: string };
  description: string;
  query: Q;
  item: z.ZodType;
  load(db: Db, view: View, userId: number, query: z.output<Q>): Loaded;
}

/**
 * A list about one user (docs/operations.md#users), mounted twice: `/users/{user_id}/<name>` for anyone (201003 when
 * the user is missing) and `/user/<name>` for the logged-in caller (201001 for anyone else).
 */
export function mountUserList<Q extends z.ZodObject>(router: OpenAPIHono<AppEnv>, list: UserList<Q>) {
  const { query, item } = list;
  mountList(router, {
    path: `/users/{user_id}/${list.name}`,
    tags: ["users"],
    summary: list.summaries.user,
    description: `${list.description} 201003 when the user does not exist.`,
    params: pathId("user_id"),
    query,
    item,
    load: (db, view, query, params) => list.load(db, view, params.user_id, query),
  });
  mountList(router, {
    path: `/user/${list.name}`,
    tags: ["users"],
    summary: list.summaries.caller,
    description: list.description,
    access: loginRequired,
    query,
    item,
    load: (db, view, query) => list.load(db, view, requireViewer(view).user_id, query),
  });
}

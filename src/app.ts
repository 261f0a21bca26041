/**
 * The Hono app: middleware in order (metered D1 + Server-Timing, CORS, the anonymous edge cache, caller and
 * settings, write limits, body normalisation, ETag), every resource's router under /api, the OpenAPI document,
 * and the single error exit.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { etag } from "hono/etag";
import { HTTPException } from "hono/http-exception";
import { errorsAsOk } from "./core/env";
import { ApiError } from "./core/errors";
import { version } from "./core/version";
import { apiReference } from "./http/api-reference";
import type { AppEnv } from "./http/app-env";
import { staleClaimIn } from "./http/attempt";
import { normaliseBody } from "./http/middleware/body";
import { confirmClaim, resolveCaller } from "./http/middleware/caller";
import { cors } from "./http/middleware/cors";
import { readCredential } from "./http/middleware/credential";
import { d1Session } from "./http/middleware/d1-session";
import { edgeCache } from "./http/middleware/edge-cache";
import { rateLimit } from "./http/middleware/rate-limit";
import { requestLog } from "./http/middleware/request-log";
import { meteredDb } from "./http/middleware/server-timing";
import { siteSettings } from "./http/middleware/site-settings";
import { authSecurity } from "./http/openapi";
import { createRouter } from "./http/router";
import { reportError } from "./lib/error-report";
import { fileRouter, routers } from "./modules";
import { publishEvents } from "./modules/events/publish";

/**
 * The one exit for errors. `LEGACY_ERROR_STATUS=true` answers them with HTTP 200, as the original did: the
 * official MDClub SDK's default adapters (mdui.jq, jQuery, axios) turn any non-2xx answer into their own
 * "network error" 999999 and drop the body, so front ends built on them would lose the code, the field
 * messages and the captcha a refused login carries.
 */
function errorResponse(c: Context<AppEnv>, error: ApiError) {
  c.set("errorCode", error.code);
  return c.json(error.toBody(), errorsAsOk(c.env) ? 200 : error.status, error.headers);
}

/**
 * Route patterns with their methods, to tell an unknown path (100004) from a wrong method (100005). Parameter
 * constraints (`:id{[0-9]+}`) are not checked, so a pattern can match a path its route refused.
 */
function methodsForPath(app: OpenAPIHono<AppEnv>, path: string): string[] {
  const found = new Set<string>();
  for (const route of app.routes) {
    if (route.method === "ALL") continue;
    const pattern = route.path
      .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
      .replace(/\/:[^/]+/g, "/[^/]+")
      .replace(/\*/g, ".*");
    if (new RegExp(`^${pattern}/?$`).test(path)) found.add(route.method);
  }
  return [...found];
}

const TITLE = "MDClub-compatible community API";

/** The document's fixed parts: GET /api/openapi.json, and the file scripts/openapi-document.mjs writes. */
export const documentConfig = (origin: string): Parameters<OpenAPIHono["getOpenAPIDocument"]>[0] => ({
  openapi: "3.0.3",
  info: {
    title: TITLE,
    version,
    license: { name: "MIT", url: "https://opensource.org/license/mit" },
    description: "Responses are `{code, data}` or `{code, data, pagination}`; errors `{code, message, errors?}`.",
  },
  servers: [{ url: origin }],
  // An operation without its own `security` needs no login; a token, when sent, is still read (`{}`: optional).
  security: [{}, ...authSecurity],
});

/**
 * The query parameters of each GET route, by its Hono path, from the OpenAPI routes (the schemas that validate them):
 * the edge cache keeps an answer under those alone. Made on the first request, once every route is mounted.
 */
function queryNamesOf(app: OpenAPIHono<AppEnv>): (path: string) => ReadonlySet<string> | undefined {
  let names: Map<string, ReadonlySet<string>> | undefined;
  return (path) => {
    names ??= new Map(
      app.openAPIRegistry.definitions.flatMap((definition) => {
        if (definition.type !== "route" || definition.route.method !== "get") return [];
        const query = definition.route.request?.query as { shape?: Record<string, unknown> } | undefined;
        const honoPath = definition.route.path.replace(/\{([^}]+)\}/g, ":$1");
        return [[honoPath, new Set(Object.keys(query?.shape ?? {}))] as const];
      }),
    );
    return names.get(path);
  };
}

export function createApp() {
  const app = createRouter();
  app.use("*", meteredDb, requestLog, cors);
  // The edge cache comes first, so that a hit reads neither D1 nor KV. Then the request's context, one concern each:
  // its credential, its D1 session, the settings, its caller. The limit needs the caller (only checked callers are
  // counted, administrators not at all) and comes before the body is read and before `confirmClaim`, so that a
  // refusal costs no D1. The ETag is the SHA-1 of a successful GET's body (made with the body by http/envelope.ts for
  // the JSON answers, by hono/etag for the others), compared innermost, so that the middleware above still add their
  // headers (CORS, Cache-Control, Server-Timing) to a 304. What the request's writes emitted is published after its
  // answer, once the middleware inside have done (docs/events.md#one-event-path).
  app.use(
    "/api/*",
    edgeCache(queryNamesOf(app)),
    readCredential,
    d1Session,
    publishEvents,
    siteSettings,
    resolveCaller,
    rateLimit,
    confirmClaim,
    normaliseBody,
    etag(),
  );

  for (const router of routers) app.route("/api", router);
  app.route("/", fileRouter);

  app.openAPIRegistry.registerComponent("securitySchemes", "token", { type: "apiKey", in: "header", name: "token" });
  app.openAPIRegistry.registerComponent("securitySchemes", "bearer", { type: "http", scheme: "bearer" });
  app.doc("/api/openapi.json", (c) => documentConfig(new URL(c.req.url).origin));
  app.get("/api/docs", apiReference(TITLE));

  app.notFound((c) => {
    const allowed = methodsForPath(app, new URL(c.req.url).pathname);
    // Hono routes HEAD as GET. A method that is allowed here means a parameter constraint refused the path.
    const method = c.req.method === "HEAD" ? "GET" : c.req.method;
    if (allowed.length && !allowed.includes(method)) {
      const extra = { extra_message: `allowed: ${allowed.join(", ")}` };
      return errorResponse(c, new ApiError("METHOD_NOT_ALLOWED", { extra, headers: { Allow: allowed.join(", ") } }));
    }
    return errorResponse(c, new ApiError("ROUTE_NOT_FOUND"));
  });

  app.onError((err, c) => {
    const stale = staleClaimIn(err);
    if (stale) {
      // Served again by the Worker's entry (http/attempt.ts): this answer is never sent.
      c.get("attempt").retry = stale.retry;
      return c.body(null, 503);
    }
    if (err instanceof ApiError) return errorResponse(c, err);
    if (err instanceof HTTPException) {
      if (err.status === 413) return errorResponse(c, new ApiError("BODY_TOO_LARGE"));
      if (err.status === 400 && /json/i.test(err.message)) return errorResponse(c, new ApiError("JSON_MALFORMED"));
      if (err.status < 500) {
        return errorResponse(c, new ApiError("VALIDATION", { status: 400, errors: { body: err.message } }));
      }
    }
    // Logged under the request's id (docs/decisions.md#request-ids-and-one-log-line-per-request).
    const { id } = c.get("attempt");
    console.error(JSON.stringify({ id, error: reportError(err) }));
    return errorResponse(c, new ApiError("SERVER_ERROR", { message: `Server error (request id ${id})` }));
  });

  return app;
}

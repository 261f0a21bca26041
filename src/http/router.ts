/** Every resource router is an OpenAPIHono whose validation failures become 200001 errors naming the field. */
import { OpenAPIHono } from "@hono/zod-openapi";
import { zodToApiError } from "../lib/validation";
import type { AppEnv } from "./app-env";

export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    strict: false,
    defaultHook: (result) => {
      if (!result.success) throw zodToApiError(result.error, result.target === "json" ? "body" : result.target);
    },
  });
}

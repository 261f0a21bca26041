/**
 * GET /api/docs: Scalar's interactive reference for GET /api/openapi.json (docs/api-reference.md#the-reference-page).
 * Everything it loads comes from this origin, so it works with no internet: its script is served by Static Assets
 * (scripts/copy-assets.mjs), it uses the system's fonts, and the parts that call Scalar's services (the AI agent, MCP,
 * telemetry, the developer toolbar) are off.
 */
import { Scalar } from "@scalar/hono-api-reference";
import { version } from "../core/version";

export const apiReference = (title: string) =>
  Scalar({
    url: "/api/openapi.json",
    cdn: "/scalar/standalone.js",
    // The release in the browser tab too, so a reader knows which version of the API the page describes.
    pageTitle: `${title} ${version}`,
    withDefaultFonts: false,
    telemetry: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    showDeveloperTools: "never",
  });

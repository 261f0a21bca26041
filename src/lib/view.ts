/** Who is looking and from where: what every presenter needs to decide visibility and build URLs. */
import type { Context } from "hono";
import type { AppEnv, Caller } from "../env";
import { isAdmin } from "../middleware/context";
import type { SiteOptions } from "../modules/options/fields";
import { ApiError } from "./errors";

export interface View {
  viewer: Caller | null;
  isAdmin: boolean;
  options: SiteOptions;
  /** The request's origin, for default file URLs. */
  origin: string;
}

/** The logged-in caller, or 201001 (a route behind `loginRequired` has refused anyone else already). */
export function requireViewer(view: View): Caller {
  if (!view.viewer) throw new ApiError("LOGIN_REQUIRED");
  return view.viewer;
}

export function viewOf(c: Context<AppEnv>): View {
  const viewer = c.get("caller");
  return { viewer, isAdmin: isAdmin(viewer), options: c.get("options"), origin: new URL(c.req.url).origin };
}

const trimSlash = (url: string) => url.replace(/\/+$/, "");

/** Base URL of static assets: `site_static_url`, or the Worker's own /static. */
export const staticBase = (view: View) => trimSlash(view.options.site_static_url || `${view.origin}/static`);

/** Base URL of stored files: `storage_url`, or the Worker's own route that serves them from R2. */
export const storageBase = (view: View) => trimSlash(view.options.storage_url || `${view.origin}/upload`);

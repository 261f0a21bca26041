/** Who is looking and from where: what every presenter needs to decide visibility and build URLs. */
import type { Context } from "hono";
import { type CallerId, isAdmin } from "../core/caller";
import { mdclubCompat } from "../core/env";
import { ApiError } from "../core/errors";
import type { SiteOptions } from "../domain/site-options";
import type { AppEnv } from "./app-env";
import { siteOptions } from "./middleware/context";

export interface View {
  viewer: CallerId | null;
  isAdmin: boolean;
  options: SiteOptions;
  /** The request's origin, for default file URLs. */
  origin: string;
  /**
   * MDClub's own front ends are served (MDCLUB_COMPAT): nothing they cannot show is written for them, such as the
   * notification kinds beyond the spec (docs/notifications.md#kinds-beyond-the-spec).
   */
  compat: boolean;
}

/** The logged-in caller, or 201001 (a route behind `loginRequired` has refused anyone else already). */
export function requireViewer(view: View): CallerId {
  if (!view.viewer) throw new ApiError("LOGIN_REQUIRED");
  return view.viewer;
}

export function viewOf(c: Context<AppEnv>): View {
  const viewer = c.get("caller");
  return {
    viewer,
    isAdmin: isAdmin(viewer),
    // Read by presenters, after the first round trip, which loads them when KV has lost them.
    get options() {
      return siteOptions(c);
    },
    origin: new URL(c.req.url).origin,
    compat: mdclubCompat(c.env),
  };
}

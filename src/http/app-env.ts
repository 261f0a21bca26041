/** What a request's context carries: the Worker's bindings and the variables the middleware sets. */
import type { Caller } from "../core/caller";
import type { Bindings } from "../core/env";
import type { D1Meter, Db } from "../db/client";
import type { SiteOptions } from "../domain/site-options";

export interface AppEnv {
  Bindings: Bindings;
  Variables: {
    db: Db;
    meter: D1Meter;
    caller: Caller | null;
    /** SHA-256 of the presented token, when it is valid. */
    tokenHash: string | null;
    options: SiteOptions;
  };
}

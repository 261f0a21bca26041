/** What a request's context carries: the Worker's bindings and the variables the middleware sets. */
import type { Caller, ClaimedCaller } from "../core/caller";
import type { Bindings } from "../core/env";
import type { D1Meter, Db } from "../db/client";
import type { SiteOptions } from "../domain/site-options";
import type { TokenClaim } from "../lib/token-claims";
import type { Attempt } from "./attempt";

export interface AppEnv {
  Bindings: Bindings;
  Variables: {
    attempt: Attempt;
    db: Db;
    meter: D1Meter;
    /** The presented token's hash and its claim (http/middleware/credential.ts); null when none counts. */
    credential: { tokenHash: string; claim: TokenClaim | null } | null;
    /** Where the request's D1 session started (http/middleware/d1-session.ts). */
    sessionStart: string;
    /** A claim until D1 has checked the token, then the confirmed caller (http/middleware/caller.ts). */
    caller: Caller | ClaimedCaller | null;
    /** SHA-256 of the presented token, when it is valid (or claims to be, until D1 has checked it). */
    tokenHash: string | null;
    /** Null until the request's first round trip when KV had lost them: read them through `siteOptions(c)`. */
    options: SiteOptions | null;
    /** SHA-256 of a token a login has just issued, whose first reads must see the login. */
    issuedTokenHash?: string;
    /** The `code` of the error the request is answered with (http/middleware/request-log.ts). */
    errorCode?: number;
  };
}

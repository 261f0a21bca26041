/**
 * When a token is live, stated once (docs/auth.md#tokens): its row joins an enabled user and has not expired, and,
 * for a token that claims its holder, the user is the one it names, with the role it names. The token check's
 * select and the guard that rides in front of writes are both built from these conditions, so they cannot disagree.
 */
import { type SQL, sql } from "drizzle-orm";
import { tokens, users } from "../../db/schema";

/** Values a condition compares with: numbers, or placeholders filled per request (db/row-mapping.ts, Prebuilt). */
type Value = number | string | ReturnType<typeof sql.placeholder>;

/** The letter a claim gives the role of the user's row: `a` for an administrator, `u` for any other role. */
const roleLetter = sql<string>`CASE WHEN ${users.role} = 'admin' THEN 'a' ELSE 'u' END`;

/** The row of `token` joined to its user is live at `time`. */
export const tokenLive = (time: Value): SQL => sql`(${tokens.expire_time} > ${time} AND ${users.disable_time} = 0)`;

/** The joined user is the one a claim names, in the role it names (`a` or `u`). */
export const claimHolds = (userId: Value, letter: Value): SQL =>
  sql`(${users.user_id} = ${userId} AND ${roleLetter} = ${letter})`;

/** The letter a claim carries for a role (lib/token-claims.ts): the JS side of {@link roleLetter}. */
export const claimLetter = (admin: boolean): "a" | "u" => (admin ? "a" : "u");

/** Who makes a request: the logged-in user, as every layer above sees them. */
import { getTableColumns } from "drizzle-orm";
import { type UserRow, users } from "../db/schema";

const { password: _password, ...columns } = getTableColumns(users);
/** Every user column but the password hash: the one selection of users anywhere in the app. */
export const userColumns = columns;

/** The logged-in user making the request, as D1 confirmed them (never carries the password hash). */
export type Caller = Omit<UserRow, "password">;

/** What every layer may read of a caller: who they are and their role, known before D1 has checked the token. */
export type CallerId = Pick<Caller, "user_id" | "role">;

/**
 * The caller a token's claim names (docs/auth.md#what-a-claim-may-do), until D1 has checked it: its own type, so that
 * nothing reads a field of the user's row before the row has been read.
 */
export interface ClaimedCaller extends CallerId {
  readonly claimed: true;
}

export const isAdmin = (caller: CallerId | null): boolean => caller?.role === "admin";

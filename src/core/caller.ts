/** Who makes a request: the logged-in user, as every layer above sees them. */
import { getTableColumns } from "drizzle-orm";
import { type UserRow, users } from "../db/schema";

const { password: _password, ...columns } = getTableColumns(users);
/** Every user column but the password hash: the one selection of users anywhere in the app. */
export const userColumns = columns;

/** The logged-in user making the request (never carries the password hash). */
export type Caller = Omit<UserRow, "password">;

export const isAdmin = (caller: Caller | null): boolean => caller?.role === "admin";

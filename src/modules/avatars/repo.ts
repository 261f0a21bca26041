/** Queries of avatar and cover changes: the stored path columns of users (empty: the default image). */
import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { users } from "../../db/schema";

export type UserImageColumn = "avatar" | "cover";

/** What a reset needs: the name the default avatar draws, and the paths of the current files. */
export function selectUserImages(db: Db, userId: number) {
  return db
    .select({ username: users.username, avatar: users.avatar, cover: users.cover })
    .from(users)
    .where(eq(users.user_id, userId));
}

/** Points the column at a new file set ("" for the default). */
export function setUserImage(db: Db, userId: number, column: UserImageColumn, path: string) {
  return db
    .update(users)
    .set({ [column]: path })
    .where(eq(users.user_id, userId));
}

/**
 * The generated avatar of a new account: only while the account still shows the static default, so an upload
 * that lands first is never overwritten.
 */
export function setFirstAvatar(db: Db, userId: number, path: string) {
  return db
    .update(users)
    .set({ avatar: path })
    .where(and(eq(users.user_id, userId), eq(users.avatar, "")));
}

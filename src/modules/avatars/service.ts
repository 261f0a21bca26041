/**
 * Avatars and user covers (docs/images.md#avatars-and-user-covers): uploads, resets and the avatar generated for new
 * accounts. Files are written before the row points at them and the old ones deleted after, so a row never names a
 * missing file; every change stores files under new random names, so every change gives new URLs
 * (docs/decisions.md#platform).
 */
import type { Context } from "hono";
import { avatarUrls } from "../../behaviours/content/present";
import type { Caller } from "../../core/caller";
import { ApiError } from "../../core/errors";
import { backgroundDb, batch, type Db } from "../../db/client";
import type { AppEnv } from "../../http/app-env";
import type { View } from "../../http/view";
import type { ImageUrls } from "../../lib/image-urls";
import { renderDefaultAvatar } from "../../lib/images/default-avatar";
import {
  AVATAR_SIZES,
  deleteImageSet,
  type ImageSize,
  type OwnerFolder,
  ownerFolder,
  storeImageSet,
  USER_COVER_SIZES,
} from "../../lib/storage";
import { coverUrls } from "../users/present";
import { selectUserImages, setFirstAvatar, setUserImage, type UserImageColumn } from "./repo";

/** The reference sets no limit of its own (docs/images.md); 5 MiB, as for content images, keeps a decode in memory. */
export const USER_IMAGE_UPLOAD_LIMIT = 5 * 1024 * 1024;

interface Kind {
  folder: OwnerFolder;
  sizes: readonly ImageSize[];
  urls: (path: string, view: View) => ImageUrls;
}

export const USER_IMAGE_KINDS: Record<UserImageColumn, Kind> = {
  avatar: { folder: "user-avatar", sizes: AVATAR_SIZES, urls: (avatar, view) => avatarUrls({ avatar }, view) },
  cover: { folder: "user-cover", sizes: USER_COVER_SIZES, urls: (cover, view) => coverUrls({ cover }, view) },
};

/** Stores the file set of a user's avatar or cover in its owner folder; ImageErrors for bad files. */
async function storeFor(bucket: R2Bucket, column: UserImageColumn, userId: number, bytes: Uint8Array): Promise<string> {
  const kind = USER_IMAGE_KINDS[column];
  const folder = await ownerFolder(kind.folder, userId);
  return (await storeImageSet(bucket, (name) => `${folder}/${name}`, bytes, kind.sizes)).path;
}

/** Old files go after the row moved on: failing to delete them only leaves unnamed files, never fails the change. */
async function deleteQuietly(bucket: R2Bucket, path: string, sizes: readonly ImageSize[]): Promise<void> {
  await deleteImageSet(bucket, path, sizes).catch((error) =>
    console.error(`deleting the old files of ${path} failed:`, error),
  );
}

/**
 * Points the column at `path` ("" = the default) in one round trip: the batch is a transaction, so the path read
 * first is exactly the one replaced. A missing user is 201003 and the new files go again.
 */
async function replace(
  db: Db,
  bucket: R2Bucket,
  view: View,
  userId: number,
  column: UserImageColumn,
  path: string,
): Promise<ImageUrls> {
  const kind = USER_IMAGE_KINDS[column];
  let before: { avatar: string; cover: string } | undefined;
  try {
    // Read before the update, in its batch: the files the update stops pointing at.
    const found = await batch(db, {
      images: selectUserImages(db, userId),
      update: setUserImage(db, userId, column, path),
    });
    before = found.images[0];
  } finally {
    if (!before && path) await deleteImageSet(bucket, path, kind.sizes);
  }
  if (!before) throw new ApiError("USER_NOT_FOUND");
  const old = before[column];
  if (old && old !== path) await deleteQuietly(bucket, old, kind.sizes);
  return kind.urls(path, view);
}

/** POST /user/avatar, POST /user/cover: the uploaded file replaces the current one. */
export async function uploadUserImage(
  db: Db,
  bucket: R2Bucket,
  view: View,
  userId: number,
  column: UserImageColumn,
  bytes: Uint8Array,
) {
  return replace(db, bucket, view, userId, column, await storeFor(bucket, column, userId, bytes));
}

/**
 * DELETE /user/avatar, /users/{id}/avatar: a freshly generated default avatar. `username` is known for the
 * caller; for anyone else it is read first (201003 before any file is drawn).
 */
export async function resetAvatar(
  db: Db,
  bucket: R2Bucket,
  view: View,
  userId: number,
  username?: string,
): Promise<ImageUrls> {
  let name = username;
  if (name === undefined) {
    const [row] = await batch(db, selectUserImages(db, userId));
    if (!row) throw new ApiError("USER_NOT_FOUND");
    name = row.username;
  }
  return replace(
    db,
    bucket,
    view,
    userId,
    "avatar",
    await storeFor(bucket, "avatar", userId, renderDefaultAvatar(name)),
  );
}

/** DELETE /user/cover, /users/{id}/cover: back to the site's default cover (`users.cover = ''`). */
export function resetCover(db: Db, bucket: R2Bucket, view: View, userId: number): Promise<ImageUrls> {
  return replace(db, bucket, view, userId, "cover", "");
}

/**
 * The generated avatar of a new account (docs/images.md), once its id is known. The files are written during
 * the request, so the registration answers with their URLs; the row update runs after the response
 * (`waitUntil`), keeping registration at its two D1 round trips. A failure never fails the registration: it is
 * logged and the account keeps the static default avatar.
 */
export async function withDefaultAvatar(c: Context<AppEnv>, user: Caller): Promise<Caller> {
  let path: string;
  try {
    path = await storeFor(c.env.BUCKET, "avatar", user.user_id, renderDefaultAvatar(user.username));
  } catch (error) {
    console.error(`default avatar of user ${user.user_id} failed:`, error);
    return user;
  }
  // A background statement: the request's meter (Server-Timing) stops counting when the response leaves.
  const background = backgroundDb(c.env.DB);
  c.executionCtx.waitUntil(
    (async () => {
      try {
        const result = await setFirstAvatar(background, user.user_id, path).run();
        // Another avatar got there first: these files would be named by nothing.
        if (result.meta.changes === 0) await deleteImageSet(c.env.BUCKET, path, AVATAR_SIZES);
      } catch (error) {
        console.error(`saving the default avatar of user ${user.user_id} failed:`, error);
      }
    })(),
  );
  return { ...user, avatar: path };
}

/**
 * Avatars and covers of users (docs/images.md#avatars-and-user-covers): the caller uploads or resets their own;
 * administrators reset anyone's. Each answers the new `{original, small, middle, large}` URLs.
 */
import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import { ApiError, type ErrorName } from "../../core/errors";
import type { AppEnv } from "../../http/app-env";
import { ok } from "../../http/envelope";
import { adminRequired, loginRequired, requireCheckedUser, requireUser } from "../../http/middleware/context";
import { adminAccess, authSecurity, ImageUrlsSchema, okResponse, pascal, pathId } from "../../http/openapi";
import { createRouter } from "../../http/router";
import { viewOf } from "../../http/view";
import { readUploadedFile } from "../../lib/images/upload";
import { MAX_PIXELS } from "../../lib/images/variants";
import { ImageError } from "../../lib/storage";
import type { UserImageColumn } from "./repo";
import { resetAvatar, resetCover, USER_IMAGE_KINDS, USER_IMAGE_UPLOAD_LIMIT, uploadUserImage } from "./service";

const router = createRouter();
const tags = ["users"];
const UserIdParam = pathId("user_id");

const sizesOf = (column: UserImageColumn) =>
  USER_IMAGE_KINDS[column].sizes.map((s) => `${s.name} ${s.width}x${s.height}`).join(", ");

/** Refusals of each upload: 201007 for avatars, 201008 for covers (docs/errors.md#codes), with the reason. */
const FAILURE: Record<UserImageColumn, ErrorName> = { avatar: "AVATAR_UPLOAD_FAILED", cover: "COVER_UPLOAD_FAILED" };

const fileBody = (field: UserImageColumn) => ({
  required: true,
  content: {
    "multipart/form-data": {
      schema: {
        type: "object" as const,
        required: [field],
        properties: {
          [field]: {
            type: "string" as const,
            format: "binary",
            description: `a PNG, JPEG, GIF or WebP file of at most ${USER_IMAGE_UPLOAD_LIMIT} bytes`,
          },
        },
      },
    },
  },
});

async function upload(c: Context<AppEnv>, column: UserImageColumn) {
  const caller = requireUser(c);
  try {
    const file = await readUploadedFile(c.req.raw, column, USER_IMAGE_UPLOAD_LIMIT);
    return ok(c, await uploadUserImage(c.get("db"), c.env.BUCKET, viewOf(c), caller.user_id, column, file.bytes));
  } catch (error) {
    if (!(error instanceof ImageError)) throw error;
    throw new ApiError(FAILURE[column], {
      status: error.tooLarge ? 413 : 400,
      extra: { extra_message: error.message },
    });
  }
}

for (const column of ["avatar", "cover"] as const) {
  router.openapi(
    createRoute({
      method: "post",
      path: `/user/${column}`,
      operationId: `uploadMy${pascal(column)}`,
      tags,
      summary: `Upload the caller's ${column}`,
      description:
        `Multipart field \`${column}\`: a PNG, JPEG, GIF or WebP file (told by its bytes) of at most 5 MiB and ` +
        `${MAX_PIXELS / 1_000_000} megapixels. Stored with centre-cropped sizes ${sizesOf(column)} ` +
        "(never enlarged) under new names, so the URLs change; the old files are deleted. " +
        `Refusals are ${column === "avatar" ? 201007 : 201008} ` +
        "with `extra_message` (HTTP 413 when too large).",
      security: authSecurity,
      middleware: [loginRequired],
      request: { body: fileBody(column) },
      responses: okResponse(ImageUrlsSchema),
    }),
    (c) => upload(c, column),
  );
}

const resetDescription = {
  avatar:
    "A new default avatar is generated (a coloured circle with the username's initial, PNG) under new names; " +
    "the old files are deleted.",
  cover: "The cover goes back to the site's default; the old files are deleted.",
};

for (const column of ["avatar", "cover"] as const) {
  const reset = (c: Context<AppEnv>, userId: number, username?: string) => {
    const [db, bucket, view] = [c.get("db"), c.env.BUCKET, viewOf(c)];
    return column === "avatar" ? resetAvatar(db, bucket, view, userId, username) : resetCover(db, bucket, view, userId);
  };

  router.openapi(
    createRoute({
      method: "delete",
      path: `/user/${column}`,
      operationId: `deleteMy${pascal(column)}`,
      tags,
      summary: `Reset the caller's ${column}`,
      description: resetDescription[column],
      security: authSecurity,
      middleware: [loginRequired],
      responses: okResponse(ImageUrlsSchema),
    }),
    async (c) => {
      // The generated avatar draws the username: the caller's row, which the token check reads anyway.
      const caller = await requireCheckedUser(c);
      return ok(c, await reset(c, caller.user_id, caller.username));
    },
  );

  router.openapi(
    createRoute({
      method: "delete",
      path: `/users/{user_id}/${column}`,
      operationId: `deleteUser${pascal(column)}`,
      tags,
      summary: `Reset a user's ${column} (administrators)`,
      description: `${resetDescription[column]} An unknown user is 201003.`,
      ...adminAccess,
      middleware: [adminRequired],
      request: { params: UserIdParam },
      responses: okResponse(ImageUrlsSchema),
    }),
    async (c) => ok(c, await reset(c, c.req.valid("param").user_id)),
  );
}

export default router;

/**
 * Content images (docs/operations.md#images): `POST /images` (logged in), `GET /images` (administrators), and
 * `GET` (anyone), `PATCH` and `DELETE` (administrators) `/images/{key}`, where DELETE also takes a comma list.
 * A key works in both forms, `<32 hex>_jpg` and `<32 hex>.jpg` (docs/decisions.md#platform).
 */
import { createRoute } from "@hono/zod-openapi";
import { ApiError } from "../../core/errors";
import { ok, page } from "../../http/envelope";
import { adminRequired, loginRequired, requireUser } from "../../http/middleware/context";
import { adminAccess, authSecurity, jsonBody, nullResponse, okResponse, pageResponse } from "../../http/openapi";
import { createRouter } from "../../http/router";
import { viewOf } from "../../http/view";
import { readUploadedFile } from "../../lib/images/upload";
import { MAX_PIXELS } from "../../lib/images/variants";
import { ImageError } from "../../lib/storage";
import {
  ImageIncludeQuery,
  ImageKeyParams,
  ImageKeysParams,
  ImageListQuery,
  ImageRenameBody,
  ImageSchema,
  imageUploadBody,
} from "./schema";
import { deleteImages, getImage, listImages, parseKeyList, renameImage, uploadImage } from "./service";

/**
 * The reference sets no limit of its own (docs/decisions.md#upload-limits); 5 MiB keeps a decode inside a Worker's
 * memory.
 */
export const IMAGE_UPLOAD_LIMIT = 5 * 1024 * 1024;

const router = createRouter();
const tags = ["images"];

router.openapi(
  createRoute({
    method: "post",
    path: "/images",
    operationId: "uploadImage",
    tags,
    summary: "Upload an image",
    description:
      "Multipart field `image`: a PNG, JPEG, GIF or WebP file (told by its bytes, whatever its name or MIME type " +
      `says) of at most 5 MiB and ${MAX_PIXELS / 1_000_000} megapixels. ` +
      "Stores it with a 132x88 centre crop (`thumb`) and a copy 702 pixels wide (`release`, never enlarged), in its " +
      "own format. Refusals are 200004 with `extra_message` (HTTP 413 when too large).",
    security: authSecurity,
    middleware: [loginRequired],
    request: { body: imageUploadBody(IMAGE_UPLOAD_LIMIT) },
    responses: okResponse(ImageSchema),
  }),
  async (c) => {
    const caller = requireUser(c);
    try {
      const upload = await readUploadedFile(c.req.raw, "image", IMAGE_UPLOAD_LIMIT);
      return ok(c, await uploadImage(c.get("db"), c.env.BUCKET, viewOf(c), caller, upload));
    } catch (error) {
      if (!(error instanceof ImageError)) throw error;
      throw new ApiError("IMAGE_UPLOAD_FAILED", {
        status: error.tooLarge ? 413 : 400,
        extra: { extra_message: error.message },
      });
    }
  },
);

router.openapi(
  createRoute({
    method: "get",
    path: "/images",
    operationId: "listImages",
    tags,
    summary: "List images (administrators)",
    ...adminAccess,
    middleware: [adminRequired],
    request: { query: ImageListQuery },
    responses: pageResponse(ImageSchema),
  }),
  async (c) => {
    const result = await listImages(c.get("db"), viewOf(c), c.req.valid("query"));
    return page(c, result.data, result.pagination);
  },
);

router.openapi(
  createRoute({
    method: "get",
    path: "/images/{key}",
    operationId: "getImage",
    tags,
    summary: "Get an image",
    description: "An unknown key is 200005.",
    request: { params: ImageKeyParams, query: ImageIncludeQuery },
    responses: okResponse(ImageSchema),
  }),
  async (c) => ok(c, await getImage(c.get("db"), viewOf(c), c.req.valid("param").key, c.req.valid("query").include)),
);

router.openapi(
  createRoute({
    method: "patch",
    path: "/images/{key}",
    operationId: "updateImage",
    tags,
    summary: "Rename an image (administrators)",
    description: "`filename`: tags stripped, trimmed, 1 to 255 characters. An unknown key is 200005.",
    ...adminAccess,
    middleware: [adminRequired],
    request: { params: ImageKeyParams, body: jsonBody(ImageRenameBody) },
    responses: okResponse(ImageSchema),
  }),
  async (c) => ok(c, await renameImage(c.get("db"), viewOf(c), c.req.valid("param").key, c.req.valid("json").filename)),
);

router.openapi(
  createRoute({
    method: "delete",
    path: "/images/{key}",
    operationId: "deleteImage",
    tags,
    summary: "Delete images for good (administrators)",
    description:
      "Deletes the rows and every stored file. One key that is unknown is 200005; a comma list (at most 100) " +
      "deletes the images it names and skips unknown keys.",
    ...adminAccess,
    middleware: [adminRequired],
    request: { params: ImageKeysParams },
    responses: nullResponse,
  }),
  async (c) => {
    const raw = c.req.valid("param").key;
    await deleteImages(c.get("db"), c.env.BUCKET, parseKeyList(raw), !raw.includes(","));
    return ok(c, null);
  },
);

export default router;

/**
 * Zod schemas of the images routes (docs/conventions.md#image, docs/operations.md#images): the record, the list query,
 * the PATCH body.
 */
import { includeQuery, pageQuery, z } from "../../http/openapi";
import type { OrderRule } from "../../lib/order";
import { stripTags } from "../../lib/sanitize";
import { codePointLength } from "../../lib/text-length";

/** `user` is the uploader; the others are the item the image is linked to (null until linked, or when trashed). */
export const IMAGE_INCLUDES = ["user", "question", "answer", "article"] as const;
export type ImageInclude = (typeof IMAGE_INCLUDES)[number];

export const ITEM_TYPES = ["question", "answer", "article"] as const;

export type ImageOrderField = "create_time";
export const IMAGE_ORDER: OrderRule<ImageOrderField> = { fields: ["create_time"], default: "-create_time" };

/** The reference's key on the wire: `<32 hex>_<ext>`; both that and `<32 hex>.<ext>` are accepted in paths. */
const KeyParam = z
  .string()
  .openapi({ param: { name: "key", in: "path" }, example: "5f8e2d9c0a7b4e1f9d3c6b2a1e0f4d8c_jpg" });

export const ImageKeyParams = z.object({ key: KeyParam });

export const ImageKeysParams = z.object({
  key: KeyParam.openapi({ description: "one key, or up to 100 keys separated by commas (`_ext` or `.ext` form)" }),
});

const urlsSchema = z
  .object({ original: z.string(), thumb: z.string(), release: z.string() })
  .openapi({ description: "the stored file, its 132x88 centre crop and its 702-wide copy (never enlarged)" });

const summary = (shape: z.ZodRawShape) => z.object(shape).nullable().optional();

export const ImageSchema = z
  .object({
    key: z.string().openapi({
      description: "the stored name with `.` replaced by `_`",
      example: "5f8e2d9c0a7b4e1f9d3c6b2a1e0f4d8c_jpg",
    }),
    filename: z.string().openapi({ description: "the uploaded file's name" }),
    width: z.number().int(),
    height: z.number().int(),
    create_time: z.number().int(),
    item_type: z.enum(ITEM_TYPES).nullable().openapi({ description: "null until the image is linked to content" }),
    item_id: z.number().int().openapi({ description: "0 until the image is linked to content" }),
    user_id: z.number().int(),
    urls: urlsSchema,
    relationships: z
      .object({
        user: summary({
          user_id: z.number().int(),
          username: z.string(),
          headline: z.string(),
          avatar: z.record(z.string(), z.string()),
        }),
        question: summary({
          question_id: z.number().int(),
          title: z.string(),
          create_time: z.number().int(),
          update_time: z.number().int(),
        }),
        answer: summary({
          answer_id: z.number().int(),
          question_id: z.number().int(),
          content_summary: z.string(),
          create_time: z.number().int(),
          update_time: z.number().int(),
        }),
        article: summary({
          article_id: z.number().int(),
          title: z.string(),
          create_time: z.number().int(),
          update_time: z.number().int(),
        }),
      })
      .optional()
      .openapi({ description: "present when `include` names any of user, question, answer, article" }),
  })
  .openapi("Image");

export type Image = z.infer<typeof ImageSchema>;

const include = includeQuery(IMAGE_INCLUDES);

export const ImageIncludeQuery = z.object({ include });

/** A filter on an id column: digits only, else a 200001 naming it (as path ids are). */
const idFilter = (description: string) =>
  z
    .string()
    .regex(/^\d{1,15}$/, "must be a non-negative integer")
    .transform(Number)
    .optional()
    .openapi({ type: "integer", description });

export const ImageListQuery = z.object({
  ...pageQuery,
  include,
  order: z
    .string()
    .optional()
    .openapi({ description: "`create_time` or `-create_time` (default); anything else is the default" }),
  key: z.string().optional().openapi({ description: "one image, by key in either form" }),
  item_type: z.enum(ITEM_TYPES).optional(),
  item_id: idFilter("the linked item's id (0: not linked)"),
  user_id: idFilter("the uploader"),
});

export type ImageListFilter = z.infer<typeof ImageListQuery>;

/** docs/operations.md#images: tags stripped, trimmed, 1-255 characters. */
export const ImageRenameBody = z
  .object({
    filename: z
      .string({ error: (issue) => (issue.input === undefined ? "required" : "must be a string") })
      .transform((value) => stripTags(value).trim())
      .refine((value) => value.length > 0, "must not be empty")
      .refine((value) => codePointLength(value) <= 255, "at most 255 characters")
      .openapi({ minLength: 1, maxLength: 255 }),
  })
  .openapi("ImageRename");

/** The multipart body of POST /api/images, for the OpenAPI document only: the route reads it with a size limit. */
export const imageUploadBody = (maxBytes: number) => ({
  required: true,
  content: {
    "multipart/form-data": {
      schema: {
        type: "object" as const,
        required: ["image"],
        properties: {
          image: {
            type: "string" as const,
            format: "binary",
            description: `a PNG, JPEG, GIF or WebP file of at most ${maxBytes} bytes`,
          },
        },
      },
    },
  },
});

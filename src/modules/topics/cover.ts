/**
 * Topic covers (docs/images.md#topic-covers): creation and edits also come as multipart/form-data with `name`,
 * `description` and an optional file `cover`. The cover is stored under the topic's owner folder in its three
 * sizes; a new cover deletes the old files after the row points at the new ones. A bad cover is a 200001 on
 * `cover` (the reference's 205002 is never used).
 */
import type { Context } from "hono";
import { topicCover } from "../../behaviours/content/present";
import { type ApiError, validationError } from "../../core/errors";
import { batch, commit, type Db } from "../../db/client";
import type { View } from "../../http/view";
import { formFile, readUploadForm } from "../../lib/images/upload";
import { inspectImage } from "../../lib/images/variants";
import { deleteImageSet, ImageError, ownerFolder, storeImageSet, TOPIC_COVER_SIZES } from "../../lib/storage";
import { zodToApiError } from "../../lib/validation";
import { deleteNewTopic, selectLiveCover, setCover } from "./cover-repo";
import { type Topic, type TopicChanges, TopicCreateBody, TopicEditBody, type TopicInclude } from "./schema";
import { createTopic, editTopic } from "./service";

/** As for avatars and content images: 5 MiB keeps a decode inside a Worker's memory. */
export const TOPIC_COVER_LIMIT = 5 * 1024 * 1024;

const coverError = (error: ImageError): ApiError =>
  validationError({ cover: error.message }, error.tooLarge ? 413 : 400);

/** Runs `work`, turning its ImageErrors into the cover's 200001. */
async function asCoverError<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw error instanceof ImageError ? coverError(error) : error;
  }
}

export interface TopicForm<T> {
  fields: T;
  cover: Uint8Array | null;
}

/**
 * The text fields (those sent, so an edit changes only them) and the cover of a multipart request. An empty
 * `cover` (a browser's untouched file input, or an empty text value) means no new cover.
 */
async function readForm<S extends typeof TopicCreateBody | typeof TopicEditBody>(request: Request, schema: S) {
  const form = await asCoverError(() => readUploadForm(request, "cover", TOPIC_COVER_LIMIT));
  const sent: Record<string, unknown> = {};
  for (const name of ["name", "description"]) if (form.has(name)) sent[name] = form.get(name);
  const parsed = schema.safeParse(sent);
  if (!parsed.success) throw zodToApiError(parsed.error);
  const entry = form.get("cover");
  const empty = entry === null || entry === "" || (entry instanceof File && entry.size === 0 && !entry.name);
  if (!empty && !(entry instanceof File)) throw validationError({ cover: "send the cover as a file" });
  const cover = empty ? null : (await asCoverError(() => formFile(form, "cover", TOPIC_COVER_LIMIT))).bytes;
  // Refused by its header before any write: not an image, or too many pixels.
  if (cover) await asCoverError(async () => inspectImage(cover));
  return { fields: parsed.data as S["_output"], cover };
}

export const readCreateForm = (request: Request) => readForm(request, TopicCreateBody);
export const readEditForm = (request: Request) => readForm(request, TopicEditBody);

async function storeCover(bucket: R2Bucket, id: number, cover: Uint8Array): Promise<string> {
  const folder = await ownerFolder("topic-cover", id);
  return asCoverError(
    async () => (await storeImageSet(bucket, (name) => `${folder}/${name}`, cover, TOPIC_COVER_SIZES)).path,
  );
}

/**
 * POST /topics as a form. The id (the cover's folder) exists only after the insert, so the cover is stored
 * after it and saved by a second write; a cover that fails to decode removes the new topic again. Either way
 * two round trips after authentication.
 */
export async function createTopicFromForm(
  db: Db,
  bucket: R2Bucket,
  view: View,
  form: { fields: { name: string; description: string }; cover: Uint8Array | null },
  include: Set<TopicInclude>,
): Promise<Topic> {
  const topic = await createTopic(db, view, form.fields, include);
  if (!form.cover) return topic;
  let path: string;
  try {
    path = await storeCover(bucket, topic.topic_id, form.cover);
  } catch (error) {
    await deleteNewTopic(db, topic.topic_id);
    throw error;
  }
  try {
    await commit(db, setCover(db, topic.topic_id, path));
  } catch (error) {
    await deleteImageSet(bucket, path, TOPIC_COVER_SIZES);
    throw error;
  }
  return { ...topic, cover: topicCover(path, view) };
}

/**
 * POST|PATCH /topics/{id} as a form. With a cover: the live topic's current cover is read (205001 before any
 * file is written), the new set stored, then the fields and the cover change in editTopic's one batch, so a
 * taken name changes nothing (and the new files go again). The old files are deleted last.
 */
export async function editTopicFromForm(
  db: Db,
  bucket: R2Bucket,
  view: View,
  id: number,
  form: { fields: TopicChanges; cover: Uint8Array | null },
  include: Set<TopicInclude>,
): Promise<Topic> {
  if (!form.cover) return editTopic(db, view, id, form.fields, include);
  const [before] = await batch(db, selectLiveCover(db, id));
  // Missing or trashed: editTopic answers 205001 exactly as without a cover, and nothing is stored.
  if (!before) return editTopic(db, view, id, form.fields, include);
  const path = await storeCover(bucket, id, form.cover);
  let topic: Topic;
  try {
    topic = await editTopic(db, view, id, { ...form.fields, cover: path }, include);
  } catch (error) {
    await deleteImageSet(bucket, path, TOPIC_COVER_SIZES);
    throw error;
  }
  // After the row moved on, a failed delete only leaves unnamed files: logged, never failing the edit.
  if (before.cover && before.cover !== path) {
    await deleteImageSet(bucket, before.cover, TOPIC_COVER_SIZES).catch((error) =>
      console.error(`deleting topic cover ${before.cover} failed:`, error),
    );
  }
  return topic;
}

/** The body is a multipart form (the body middleware turned every other body into JSON). */
export const isForm = (request: Request) => /^multipart\/form-data/i.test(request.headers.get("content-type") ?? "");

/**
 * The body declaration of topic writes: JSON, or a multipart form with the same text fields and an optional
 * `cover` file. Declared not required so that @hono/zod-openapi validates JSON bodies only and leaves a
 * multipart body unread for the form reader (a JSON body is always there: the body middleware makes `{}`).
 */
export function topicBody(json: typeof TopicCreateBody | typeof TopicEditBody, required: boolean) {
  return {
    required: false,
    content: {
      "application/json": { schema: json },
      "multipart/form-data": {
        schema: {
          type: "object" as const,
          // OpenAPI 3.0 forbids an empty `required` list: an edit names no required field at all.
          ...(required && { required: ["name", "description"] }),
          properties: {
            name: { type: "string" as const, description: "trimmed, 1 to 20 characters" },
            description: { type: "string" as const, description: "trimmed, 1 to 1000 characters" },
            cover: {
              type: "string" as const,
              format: "binary",
              description:
                `optional: a PNG, JPEG, GIF or WebP file of at most ${TOPIC_COVER_LIMIT} bytes, stored in the sizes ` +
                `${TOPIC_COVER_SIZES.map((s) => `${s.name} ${s.width}x${s.height}`).join(", ")}; ` +
                "a bad file is a 200001 on `cover`",
            },
          },
        },
      },
    },
  };
}

/**
 * The validated JSON body of a topic write. @hono/zod-openapi types `valid("json")` only when every declared
 * media type has a zod schema, and the multipart one cannot (a zod form schema would make it read the body
 * without the upload limit); the runtime validation is the same.
 */
export function validJson<S extends typeof TopicCreateBody | typeof TopicEditBody>(
  c: Context,
  _schema: S,
): S["_output"] {
  return (c.req as unknown as { valid(target: "json"): S["_output"] }).valid("json");
}

/**
 * The file of one multipart field, read with a size limit. The body middleware only checks a declared
 * Content-Length; a chunked body declares none, so the limit is also enforced while reading, before the
 * isolate buffers more than it will accept.
 */
import { readLimited } from "../read-limited";
import { stripTags } from "../sanitize";
import { ImageError } from "./image-error";

/** Room for the multipart boundaries, part headers and small text fields around the file. */
const MULTIPART_OVERHEAD = 64 * 1024;
const MAX_FILENAME = 255;

export interface UploadedFile {
  bytes: Uint8Array;
  /** The client's file name, tags stripped, trimmed, at most 255 characters; may be empty. */
  filename: string;
}

const mebibytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;

/**
 * A multipart/form-data body whose file (named `field` in refusals) may be at most `limit` bytes, parsed; the
 * text fields beside the file share the overhead allowance. Refusals are ImageErrors.
 */
export async function readUploadForm(request: Request, field: string, limit: number): Promise<FormData> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data/i.test(type))
    throw new ImageError(`send the file as multipart/form-data in the field \`${field}\``);
  const tooLarge = new ImageError(`the file is too large: at most ${mebibytes(limit)}`, true);
  if (Number(request.headers.get("content-length") ?? 0) > limit + MULTIPART_OVERHEAD) throw tooLarge;

  const body = await readLimited(request.body, limit + MULTIPART_OVERHEAD, () => tooLarge);
  try {
    return await new Response(body, { headers: { "content-type": type } }).formData();
  } catch {
    throw new ImageError("the multipart/form-data body is malformed");
  }
}

/** The file of `field` in a parsed form, at most `limit` bytes; else an ImageError. */
export async function formFile(form: FormData, field: string, limit: number): Promise<UploadedFile> {
  const file = form.get(field);
  if (!(file instanceof File)) throw new ImageError(`no file in the field \`${field}\``);
  if (file.size > limit) throw new ImageError(`the file is too large: at most ${mebibytes(limit)}`, true);
  if (file.size === 0) throw new ImageError("the file is empty");
  const filename = Array.from(stripTags(file.name).trim()).slice(0, MAX_FILENAME).join("").trim();
  return { bytes: new Uint8Array(await file.arrayBuffer()), filename };
}

/** The file of `field` in a multipart/form-data request, at most `limit` bytes; else an ImageError. */
export async function readUploadedFile(request: Request, field: string, limit: number): Promise<UploadedFile> {
  return formFile(await readUploadForm(request, field, limit), field, limit);
}

/**
 * Why an uploaded file was refused, in words for the error's `extra_message`. Each upload route maps it to its
 * own code (docs/images.md: 200004 content images, 201007 avatars, 201008 user covers, 200001 topic covers).
 */
export class ImageError extends Error {
  constructor(
    message: string,
    /** The file or body is over the size limit: answered with HTTP 413. */
    readonly tooLarge = false,
  ) {
    super(message);
    this.name = "ImageError";
  }
}

/**
 * Lengths of text besides its UTF-16 length, counted in one pass without copying it: the bytes it takes as UTF-8,
 * and its code points, as the reference counts multibyte text (docs/content.md#validation).
 */

/** Bytes as UTF-8. */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // Two-byte and three-byte code units; a surrogate pair (four bytes) is two units of two bytes each.
    if (code >= 0x80) bytes += code >= 0x800 && (code < 0xd800 || code > 0xdfff) ? 2 : 1;
  }
  return bytes;
}

/** The code points of text, as the reference counts multibyte text: a surrogate pair is one. */
export function codePointLength(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (
      code >= 0xdc00 &&
      code <= 0xdfff &&
      i > 0 &&
      text.charCodeAt(i - 1) >= 0xd800 &&
      text.charCodeAt(i - 1) <= 0xdbff
    ) {
      count--;
    }
  }
  return count;
}

/**
 * Reads PHP's `serialize()` format, in which MDClub kept a deleted item's row in `mc_notification.content_deleted`
 * (this API keeps it as JSON: docs/notifications.md). Only what such a row holds: arrays (`a:N:{…}`), strings
 * (`s:LEN:"…";`, LEN in UTF-8 bytes), integers, floats, booleans and null. Anything else is refused.
 */
const encoder = new TextEncoder();
const decoder = new TextDecoder();

type PhpValue = string | number | boolean | null | PhpArray;
interface PhpArray {
  [key: string]: PhpValue;
}

class Reader {
  at = 0;
  constructor(readonly bytes: Uint8Array) {}
  char(): string {
    return String.fromCharCode(this.bytes[this.at++] ?? 0);
  }
  expect(text: string) {
    for (const c of text) if (this.char() !== c) throw new Error(`expected ${text}`);
  }
  until(end: string): string {
    const start = this.at;
    const code = end.charCodeAt(0);
    while (this.at < this.bytes.length && this.bytes[this.at] !== code) this.at++;
    if (this.at >= this.bytes.length) throw new Error("unexpected end");
    const text = decoder.decode(this.bytes.subarray(start, this.at));
    this.at++;
    return text;
  }
  value(): PhpValue {
    const type = this.char();
    if (type === "N") {
      this.expect(";");
      return null;
    }
    this.expect(":");
    if (type === "i" || type === "d") return Number(this.until(";"));
    if (type === "b") return this.until(";") === "1";
    if (type === "s") {
      const length = Number(this.until(":"));
      this.expect('"');
      const text = decoder.decode(this.bytes.subarray(this.at, this.at + length));
      this.at += length;
      this.expect('";');
      return text;
    }
    if (type === "a") {
      const count = Number(this.until(":"));
      this.expect("{");
      const array: PhpArray = {};
      for (let i = 0; i < count; i++) {
        const key = this.value();
        array[String(key)] = this.value();
      }
      this.expect("}");
      return array;
    }
    throw new Error(`unsupported type ${type}`);
  }
}

/** The value of a PHP-serialized string; throws on anything this reader does not know. */
export function phpUnserialize(text: string): PhpValue {
  const reader = new Reader(encoder.encode(text));
  const value = reader.value();
  if (reader.at !== reader.bytes.length) throw new Error("trailing data");
  return value;
}

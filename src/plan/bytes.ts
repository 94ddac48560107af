/** Any character outside ASCII: a string without one is as many UTF-8 bytes as characters. */
const NON_ASCII = /[\u0080-\uffff]/;

/** UTF-8 length of a string, without Node's Buffer: workflow code uses it too. */
export function utf8Bytes(text: string): number {
  // The run measures every event it records this way; nearly all are ASCII, which the regex engine confirms far
  // faster than a loop over the characters.
  if (!NON_ASCII.test(text)) return text.length;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}

/** Size of a value as JSON, in bytes: what it weighs in a Temporal payload. */
export function jsonBytes(value: unknown): number {
  const json = JSON.stringify(value);
  return json === undefined ? 0 : utf8Bytes(json);
}

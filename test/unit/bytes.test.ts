import { describe, expect, it } from 'vitest';
import { jsonBytes, utf8Bytes } from '../../src/plan/bytes';

describe('the UTF-8 size the run bounds its state by (no Buffer in workflow code)', () => {
  it.each(['', 'plain ascii', '\u007f', 'é', '€ 100', 'a😀b', '\ud800 lone surrogate', 'x'.repeat(5_000) + 'ß'])(
    'measures %j as Buffer.byteLength does',
    (text) => {
      expect(utf8Bytes(text)).toBe(Buffer.byteLength(text));
    },
  );

  it("measures a value as its JSON's bytes", () => {
    const value = { key: 'naïve', n: 1, list: ['😀'] };
    expect(jsonBytes(value)).toBe(Buffer.byteLength(JSON.stringify(value)));
    expect(jsonBytes(undefined)).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { StreamCapture } from '../../src/activities/executors/output-stream';
import { Redactor } from '../../src/activities/redact';

const SECRET = 'sk-SECRET-OPENAI-0123456789abcdef';
const redactor = new Redactor([{ name: 'OPENAI_API_KEY', value: SECRET }]);
const MARK = '[redacted:OPENAI_API_KEY]';

describe("redaction of the worker's secrets", () => {
  it('catches the secret as is, JSON-escaped, URL-encoded, hex and base64 at any alignment', () => {
    const forms = [
      SECRET,
      Buffer.from(SECRET).toString('hex'),
      Buffer.from(SECRET).toString('base64'),
      Buffer.from(`A=${SECRET}\n`).toString('base64'),
      Buffer.from(`AB=${SECRET}\n`).toString('base64'),
      Buffer.from(`PATH=/bin\nKEY=${SECRET}\n`).toString('base64url'),
    ];
    for (const text of forms) {
      const out = redactor.text(`before ${text} after`);
      expect(out).toContain('[redacted:OPENAI_API_KEY]');
      expect(out).not.toContain(SECRET);
      expect(out).not.toContain(Buffer.from(SECRET).toString('base64').slice(4, 30));
    }
  });

  it('catches a secret with special characters URL-encoded (both ways) and JSON-escaped', () => {
    const password = 'db p@ss/w"rd';
    const r = new Redactor([{ name: 'DB_PASSWORD', value: password }]);
    for (const text of [
      encodeURIComponent(password),
      encodeURIComponent(password).replace(/%20/g, '+'),
      JSON.stringify(password),
    ]) {
      expect(r.text(`x=${text}&y`)).toContain('[redacted:DB_PASSWORD]');
    }
  });

  it('redacts object keys and values at any depth, and leaves everything else alone', () => {
    const value = { [SECRET]: { list: [1, `x${SECRET}y`, null, true], ok: 'plain' } };
    expect(redactor.deep(value)).toEqual({ [MARK]: { list: [1, `x${MARK}y`, null, true], ok: 'plain' } });
    expect(redactor.deep({ __proto__: 'x', a: 1 })).toEqual({ a: 1 });
  });

  it('ignores values too short to be told apart from ordinary text', () => {
    expect(new Redactor([{ name: 'PIN', value: '1234' }]).text('1234 and 12345')).toBe('1234 and 12345');
  });

  it('redacts a log tail before cutting it: a secret the cut would split is replaced whole, never half shown', () => {
    for (let at = 0; at < 60; at++) {
      const text = `${'x'.repeat(100 + at)}${SECRET}${'y'.repeat(40)}`;
      const capture = new StreamCapture({ keepBytes: 64 + redactor.margin, maxLineBytes: 1024 });
      // Fed in chunks that split the secret too.
      for (let i = 0; i < text.length; i += 7) capture.push(Buffer.from(text.slice(i, i + 7)));
      const tail = capture.tail(64, redactor);
      expect(Buffer.byteLength(tail)).toBeLessThanOrEqual(64);
      for (let n = 6; n <= SECRET.length; n++) {
        // No piece of the secret longer than the marker's shared prefix "sk-" shows.
        if (n > 5) expect(tail).not.toContain(SECRET.slice(SECRET.length - n));
      }
      expect(tail).not.toContain(SECRET.slice(0, 8));
    }
  });

  it('never shows the end of a secret whose start was dropped from the kept bytes', () => {
    const capture = new StreamCapture({ keepBytes: 64 + redactor.margin, maxLineBytes: 1024 });
    capture.push(Buffer.from(`${'x'.repeat(500)}${SECRET}`));
    capture.push(Buffer.from('z'.repeat(64 + redactor.margin - 10)));
    const tail = capture.tail(64, redactor);
    expect(tail).toBe('z'.repeat(64));
  });
});

describe('StreamCapture', () => {
  it('hands over directive lines whole, however they are chunked, and drops the ones over the line limit', async () => {
    const lines: string[] = [];
    const capture = new StreamCapture({ keepBytes: 16, maxLineBytes: 1024, onDirective: (l) => void lines.push(l) });
    const text = `plain\n::teamrun-output::{"a":1}\r\n::teamrun-usage::${'9'.repeat(2000)}\n::teamrun-link::{}`;
    for (let i = 0; i < text.length; i += 3) capture.push(Buffer.from(text.slice(i, i + 3)));
    await capture.end();
    expect(lines).toEqual(['::teamrun-output::{"a":1}', '::teamrun-link::{}']);
    expect(capture.droppedDirectiveLines).toBe(1);
    expect(capture.droppedDirectives).toEqual(['::teamrun-usage::']);
    expect(capture.total).toBe(Buffer.byteLength(text));
  });

  it('holds no more than its bound of one endless line, of a directive line and of many lines', () => {
    const capture = new StreamCapture({ keepBytes: 4096, maxLineBytes: 1024 });
    const chunk = Buffer.alloc(1 << 20, 0x61);
    let most = 0;
    for (let i = 0; i < 64; i++) {
      capture.push(chunk);
      most = Math.max(most, capture.heldBytes);
    }
    // The kept end (keepBytes, and at most keepBytes of the newest chunk) and nothing of the line.
    expect(most).toBeLessThanOrEqual(2 * 4096);
    expect(capture.total).toBe(64 << 20);
    expect(capture.longLines).toBe(1);
    expect(capture.tail(4096, new Redactor([]))).toBe('a'.repeat(4096));

    // A directive line is held up to maxLineBytes (plus the chunk that crosses it), then dropped.
    const directive = new StreamCapture({ keepBytes: 4096, maxLineBytes: 1024 });
    directive.push(Buffer.from('::teamrun-output::'));
    const small = Buffer.alloc(256, 0x61);
    let held = 0;
    for (let i = 0; i < 4096; i++) {
      directive.push(small);
      held = Math.max(held, directive.heldBytes - Math.min(directive.total, 4096 + 256));
    }
    expect(held).toBeLessThanOrEqual(1024 + 256);
    expect(directive.droppedDirectiveLines).toBe(1);

    const lines = new StreamCapture({ keepBytes: 4096, maxLineBytes: 1024 });
    const many = Buffer.from('0123456789\n'.repeat(6000));
    for (let i = 0; i < 100; i++) lines.push(many);
    expect(lines.heldBytes).toBeLessThanOrEqual(4096 + many.length);
  });
});

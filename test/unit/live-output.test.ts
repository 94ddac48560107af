import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LIVE_LIMITS, LivePublisher } from '../../src/activities/live-output';
import { Redactor } from '../../src/activities/redact';

const SECRET = 'sk-live-0123456789abcdef';
const redactor = new Redactor([{ name: 'MODEL_KEY', value: SECRET }]);

describe('ctx.live: what an attempt publishes of a model call in progress', () => {
  let beats: number;
  let live: LivePublisher;
  beforeEach(() => {
    vi.useFakeTimers();
    beats = 0;
    live = new LivePublisher(redactor, () => beats++);
  });
  afterEach(() => vi.useRealTimers());

  it('publishes at most once a second, the latest state winning', () => {
    for (let i = 1; i <= 50; i++) live.partial({ turn: 1, text: 'word '.repeat(i) });
    vi.advanceTimersByTime(0);
    expect(beats).toBe(1);
    expect(live.view()?.text).toBe('word '.repeat(50));
    for (let i = 51; i <= 100; i++) {
      live.partial({ turn: 1, text: 'word '.repeat(i) });
      vi.advanceTimersByTime(20);
    }
    // 50 pieces over a second: one more publish, with the last of them.
    vi.advanceTimersByTime(1_000);
    expect(beats).toBe(2);
    expect(live.view()?.text).toBe('word '.repeat(100));
  });

  it('drops the partial output when its call is done, and publishes nothing after the executor ended', () => {
    live.partial({ turn: 2, text: 'thinking' });
    vi.advanceTimersByTime(0);
    live.done(1); // another turn: nothing changes
    vi.advanceTimersByTime(2_000);
    expect(live.view()?.turn).toBe(2);
    live.done(2);
    vi.advanceTimersByTime(1_000);
    expect(live.view()).toBeUndefined();
    expect(beats).toBe(2);
    // The next call began before the last one's end was published: ending the old one keeps the new one.
    live.partial({ turn: 3, text: 'first' });
    vi.advanceTimersByTime(1_000);
    live.partial({ turn: 4, text: 'second' });
    live.done(3);
    vi.advanceTimersByTime(1_000);
    expect(live.view()).toMatchObject({ turn: 4, text: 'second' });
    expect(beats).toBe(4);
    live.end();
    live.partial({ turn: 5, text: 'late' });
    vi.advanceTimersByTime(2_000);
    expect(live.view()).toBeUndefined();
    expect(beats).toBe(4);
  });

  it('keeps the tail of a long text and of each tool call, and the last tool calls only', () => {
    const text = `${'a'.repeat(50_000)}THE-END`;
    const toolCalls = Array.from({ length: 20 }, (_, i) => ({ name: `tool_${i}`, args: `${'x'.repeat(5_000)}${i}` }));
    live.partial({ turn: 1, text, toolCalls });
    vi.advanceTimersByTime(0);
    const view = live.view()!;
    expect(Buffer.byteLength(view.text)).toBe(LIVE_LIMITS.textBytes);
    expect(view.text.endsWith('THE-END')).toBe(true);
    expect(view.cut).toBe(true);
    expect(view.toolCalls!.map((c) => c.name)).toEqual(Array.from({ length: 8 }, (_, i) => `tool_${12 + i}`));
    expect(view.toolCalls!.every((c) => Buffer.byteLength(c.args) <= LIVE_LIMITS.argsBytes)).toBe(true);
  });

  it('redacts a secret in the text and in tool-call arguments, and holds back one still being written', () => {
    live.partial({
      turn: 1,
      text: `key is ${SECRET.slice(0, 10)}`,
      toolCalls: [{ name: 'h', args: `{"k":"${SECRET}"` }],
    });
    vi.advanceTimersByTime(0);
    expect(live.view()!.text).toBe('key is ');
    expect(live.view()!.toolCalls![0].args).toBe('{"k":"[redacted:MODEL_KEY]"');
    live.partial({ turn: 1, text: `key is ${SECRET} ok` });
    vi.advanceTimersByTime(1_000);
    expect(live.view()!.text).toBe('key is [redacted:MODEL_KEY] ok');
    // A secret across the 4 KB cut is replaced whole, never shown in part.
    live.partial({ turn: 1, text: `${SECRET}${'b'.repeat(LIVE_LIMITS.textBytes - 5)}` });
    vi.advanceTimersByTime(1_000);
    expect(live.view()!.text).not.toContain(SECRET.slice(-5));
  });
});

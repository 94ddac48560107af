import { afterEach, describe, expect, it, vi } from 'vitest';
import { Introductions } from '../../src/ledger/introductions';

/** A send that answers when told to, counting when it was sent. */
function held(sent: string[], name: string) {
  let answer = (_ok: boolean) => {};
  const send = () => {
    sent.push(name);
    return new Promise<string>((resolve, reject) => (answer = (ok) => (ok ? resolve(name) : reject(new Error(name)))));
  };
  return { send, answer: (ok: boolean) => answer(ok) };
}

/** Every promise chain started so far has run: one turn of the event loop, no clock. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

afterEach(() => {
  vi.useRealTimers();
});

describe("a worker's first update to a ledger goes alone (src/ledger/introductions.ts)", () => {
  it('holds the others until the first is answered, then sends them at once; another ledger is not held', async () => {
    const intro = new Introductions();
    const sent: string[] = [];
    const [first, second, third] = ['first', 'second', 'third'].map((n) => held(sent, n));
    const answers = [intro.send('L', first.send), intro.send('L', second.send), intro.send('L', third.send)];
    const other = held(sent, 'other ledger');
    void intro.send('M', other.send);
    await settle();
    expect(sent).toEqual(['first', 'other ledger']);
    first.answer(true);
    await settle();
    expect(sent).toEqual(['first', 'other ledger', 'second', 'third']);
    second.answer(true);
    third.answer(true);
    expect(await Promise.all(answers)).toEqual(['first', 'second', 'third']);
    // Introduced: the next goes at once.
    const fourth = held(sent, 'fourth');
    void intro.send('L', fourth.send);
    expect(sent.at(-1)).toBe('fourth');
  });

  it('lets the next update introduce after a failed first, and the rest wait for that one', async () => {
    const intro = new Introductions();
    const sent: string[] = [];
    const [first, second, third] = ['first', 'second', 'third'].map((n) => held(sent, n));
    const failed = intro.send('L', first.send);
    const later = [intro.send('L', second.send), intro.send('L', third.send)];
    first.answer(false);
    await expect(failed).rejects.toThrow('first');
    await settle();
    expect(sent).toEqual(['first', 'second']);
    second.answer(true);
    await settle();
    expect(sent).toEqual(['first', 'second', 'third']);
    third.answer(true);
    expect(await Promise.all(later)).toEqual(['second', 'third']);
  });

  it('sends an update beside an introduction that is not answered within the wait', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const intro = new Introductions(100);
    const sent: string[] = [];
    const [first, second] = ['first', 'second'].map((n) => held(sent, n));
    void intro.send('L', first.send);
    void intro.send('L', second.send);
    await vi.advanceTimersByTimeAsync(99);
    expect(sent).toEqual(['first']);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toEqual(['first', 'second']);
  });
});

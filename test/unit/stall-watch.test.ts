import { describe, expect, it } from 'vitest';
import { StallWatch, stallMessage, type Stall } from '../../src/activities/stall-watch';

/** A watch whose clock the test moves: `look(now)` is what its timer calls. */
function watch(afterMs: number) {
  const fired: Stall[] = [];
  const w = new StallWatch(afterMs, (stall) => fired.push(stall), 0);
  w.end();
  return { w, fired };
}

describe('the stall watch of an attempt', () => {
  it('fires once past stallAfterMs without a step, naming no step when none was made', () => {
    const { w, fired } = watch(5_000);
    expect(w.look(4_999)).toBe(false);
    expect(w.look(5_200)).toBe(true);
    expect(w.look(9_000)).toBe(true);
    expect(fired).toEqual([{ afterMs: 5_000, step: null, agoMs: 5_200 }]);
    expect(stallMessage(fired[0])).toBe(
      'the attempt made no progress for its stallAfterMs (5000 ms) and was stopped; ' +
        'no progress since the attempt started 5.2 s ago',
    );
  });

  it('each step starts the bound again, and the last one is named with how long ago it was', () => {
    const { w, fired } = watch(2_000);
    for (let t = 1_000; t <= 10_000; t += 1_000) {
      w.moved(`output line ${t}`, t);
      expect(w.look(t + 1_999)).toBe(false);
    }
    expect(w.look(12_500)).toBe(true);
    expect(fired[0]).toEqual({ afterMs: 2_000, step: 'output line 10000', agoMs: 2_500 });
    expect(stallMessage(fired[0])).toContain('last step: output line 10000, 2.5 s ago');
    // Past the stall nothing moves it again.
    w.moved('late', 13_000);
    expect(w.stalled?.step).toBe('output line 10000');
  });

  it('progress reports count only for an executor that names no steps of its own', () => {
    const plain = watch(1_000);
    plain.w.progressed(800);
    expect(plain.w.look(1_500)).toBe(false);
    const named = watch(1_000);
    named.w.moved('model call 1 started', 100);
    named.w.progressed(800);
    expect(named.w.look(1_200)).toBe(true);
    expect(named.fired[0].step).toBe('model call 1 started');
  });
});

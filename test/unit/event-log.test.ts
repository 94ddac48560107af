import { describe, expect, it } from 'vitest';
import { jsonBytes } from '../../src/plan/bytes';
import { EventLog } from '../../src/team/events';

/** What the ring must hold: the newest `capacity` events, then the newest within `maxBytes` (always the last one). */
function expected(all: Array<{ seq: number }>, capacity: number, maxBytes: number) {
  const kept = all.slice(-capacity);
  let bytes = kept.reduce((sum, e) => sum + jsonBytes(e), 0);
  while (kept.length > 1 && bytes > maxBytes) bytes -= jsonBytes(kept.shift()!);
  return kept;
}

describe("the run's event log", () => {
  it('keeps the newest events within its count and byte bounds, pages them by sequence, and snapshots what it keeps', () => {
    const capacity = 50;
    const maxBytes = 3_000;
    const log = new EventLog(undefined, capacity, maxBytes);
    const all: Array<{ seq: number }> = [];
    for (let i = 0; i < 1_000; i++) {
      // Mostly small events, now and then a large one that pushes several out by bytes.
      const fields = i % 97 === 0 ? { note: 'x'.repeat(1_500) } : { key: `t${i}` };
      all.push(log.record('task:claimed', 1_000 + i, fields));
      const want = expected(all, capacity, maxBytes);
      const { events } = log.snapshot();
      expect(events.map((e) => e.seq)).toEqual(want.map((e) => e.seq));
    }
    const { events } = log.snapshot();
    const first = events[0].seq;
    expect(log.page(0, 5).events.map((e) => e.seq)).toEqual([first, first + 1, first + 2, first + 3, first + 4]);
    expect(log.page(first + 10, 3).events.map((e) => e.seq)).toEqual([first + 11, first + 12, first + 13]);
    expect(log.page(1_000, 10)).toEqual({ events: [], nextSeq: 1_000 });
    // A log rebuilt from its snapshot (a continue-as-new) goes on where it was.
    const next = new EventLog(log.snapshot(), capacity, maxBytes);
    expect(next.record('run:end', 9_999).seq).toBe(1_001);
  });
});

import { describe, expect, it } from 'vitest';
import { withIsoTimes } from '../../src/workflows/iso-times';

describe('query answers carry ISO twins of their timestamps', () => {
  it('adds <field>Iso beside every epoch-ms time, keeping the epoch field', () => {
    const at = Date.UTC(2026, 10, 30, 12, 0, 0);
    expect(
      withIsoTimes({
        name: 'docs',
        startedAt: at,
        tasks: [{ key: 'a', startedAt: null, settledAt: at + 1_500 }],
        adjudications: [{ requestedAt: at, decision: { decidedAt: at + 60_000 } }],
        events: [{ seq: 1, type: 'run:start', at }],
      }),
    ).toEqual({
      name: 'docs',
      startedAt: at,
      startedAtIso: '2026-11-30T12:00:00.000Z',
      tasks: [{ key: 'a', startedAt: null, settledAt: at + 1_500, settledAtIso: '2026-11-30T12:00:01.500Z' }],
      adjudications: [
        {
          requestedAt: at,
          requestedAtIso: '2026-11-30T12:00:00.000Z',
          decision: { decidedAt: at + 60_000, decidedAtIso: '2026-11-30T12:01:00.000Z' },
        },
      ],
      events: [{ seq: 1, type: 'run:start', at, atIso: '2026-11-30T12:00:00.000Z' }],
    });
  });

  it("leaves a task's own output and result alone, whatever their fields are called", () => {
    const answer = { key: 'a', output: { createdAt: 5 }, result: { at: 7 }, usage: { costUsd: 1 } };
    expect(withIsoTimes(answer)).toEqual(answer);
  });
});

import { describe, expect, it } from 'vitest';
import { describeSpec, fingerprint, formatMs, parseEvery, type TeamScheduleSpec } from '../../src/client/schedules';

describe('schedule intervals', () => {
  it.each([
    ['90s', 90_000],
    ['15m', 900_000],
    ['1h30m', 5_400_000],
    ['1d', 86_400_000],
    ['1500ms', 1_500],
  ])('--every %s is %d ms', (text, ms) => {
    expect(parseEvery(text)).toBe(ms);
  });

  it.each(['', 'hourly', '1h 30m', '10', '-5m', '500ms'])(
    'refuses --every "%s" with a message that shows the form',
    (text) => {
      expect(() => parseEvery(text)).toThrow(/--every/);
    },
  );

  it('prints intervals back the way they are written', () => {
    expect([90_000, 5_400_000, 86_400_000, 1_500].map(formatMs)).toEqual(['1m30s', '1h30m', '1d', '1s500ms']);
  });
});

describe('what sync compares', () => {
  const spec: TeamScheduleSpec = {
    id: 'nightly',
    plan: { name: 'docs', tasks: [{ key: 'a', executor: { kind: 'noop' } }] },
    cron: '0 3 * * *',
    overlap: 'skip',
    paused: false,
    taskQueue: 'teamrun',
  };

  it('the fingerprint ignores key order but not content', () => {
    const reordered = {
      taskQueue: 'teamrun',
      paused: false,
      overlap: 'skip',
      cron: '0 3 * * *',
      plan: { tasks: [{ executor: { kind: 'noop' }, key: 'a' }], name: 'docs' },
      id: 'nightly',
    } as TeamScheduleSpec;
    expect(fingerprint(reordered)).toBe(fingerprint(spec));
    for (const changed of [
      { ...spec, cron: '0 4 * * *' },
      { ...spec, overlap: 'buffer-one' as const },
      { ...spec, paused: true },
      { ...spec, timezone: 'Europe/Paris' },
      { ...spec, taskQueue: 'other' },
      { ...spec, plan: { ...spec.plan, teammates: 3 } },
    ]) {
      expect(fingerprint(changed)).not.toBe(fingerprint(spec));
    }
  });

  it('shows a compiled calendar briefly', () => {
    const at3 = {
      second: [{ start: 0, end: 0, step: 1 }],
      minute: [{ start: 0, end: 0, step: 1 }],
      hour: [{ start: 3, end: 3, step: 1 }],
    };
    expect(describeSpec({ calendars: [at3], timezone: 'Europe/Paris' } as never)).toBe('at 03:00:00 (Europe/Paris)');
    const weekdays = {
      second: [{ start: 0, end: 0, step: 1 }],
      minute: [{ start: 0, end: 59, step: 5 }],
      hour: [{ start: 9, end: 17, step: 1 }],
      dayOfWeek: [{ start: 'MONDAY', end: 'FRIDAY', step: 1 }],
    };
    expect(describeSpec({ calendars: [weekdays] } as never)).toBe(
      'second 0, minute */5, hour 9-17, dayOfWeek MONDAY-FRIDAY',
    );
    expect(describeSpec({ intervals: [{ every: 3_600_000 }] } as never)).toBe('every 1h');
  });
});

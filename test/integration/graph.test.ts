import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRun, startTestWorker, type TestWorker } from '../helpers/env';

describe('a diamond plan on a real dev server', () => {
  let worker: TestWorker;
  beforeAll(async () => {
    worker = await startTestWorker();
  });
  afterAll(async () => {
    await worker?.stop();
  });

  it('runs each task once, after its dependencies, and ends succeeded', async () => {
    const handle = await startRun(
      {
        name: 'diamond',
        teammates: 3,
        tasks: [
          { key: 'a', executor: { kind: 'noop' } },
          { key: 'b', dependsOn: ['a'], executor: { kind: 'sleep', ms: 200 } },
          { key: 'c', dependsOn: ['a'], executor: { kind: 'sleep', ms: 200 } },
          { key: 'd', dependsOn: ['b', 'c'], executor: { kind: 'noop' } },
        ],
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    expect(result.tasks.map((t) => [t.key, t.attempts])).toEqual([['a', 1], ['b', 1], ['c', 1], ['d', 1]]);
    const byKey = Object.fromEntries(result.tasks.map((t) => [t.key, t]));
    expect(byKey.b.startedAt!).toBeGreaterThanOrEqual(byKey.a.settledAt!);
    expect(byKey.d.startedAt!).toBeGreaterThanOrEqual(Math.max(byKey.b.settledAt!, byKey.c.settledAt!));
  });
});

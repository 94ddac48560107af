import { describe, expect, it } from 'vitest';
import { historyAttempts } from '../helpers/history';
import { runForTest, workerForTest } from '../helpers/scenario';

const sq = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

describe('tasks a task prints that cannot be added', () => {
  it('a planner whose tasks form a cycle fails once, naming the cycle, and is not retried', async () => {
    const cycle = {
      tasks: [
        { key: 'x', dependsOn: ['y'], executor: { kind: 'noop' } },
        { key: 'y', dependsOn: ['x'], executor: { kind: 'noop' } },
      ],
    };
    const worker = await workerForTest();
    const handle = await runForTest(
      {
        name: 'spawn-cycle',
        retry: { maxAttempts: 3, backoffMs: 100 },
        tasks: [
          {
            key: 'planner',
            allowSpawn: true,
            executor: { kind: 'shell', command: `printf '%s\\n' ${sq(`::teamrun-tasks::${JSON.stringify(cycle)}`)}` },
          },
        ],
      },
      worker,
    );
    const result = await handle.result();
    expect(result.status).toBe('failed');
    expect(result.tasks.map((t) => [t.key, t.status, t.attempts])).toEqual([['planner', 'failed', 1]]);
    expect(result.tasks[0].lastError).toMatch(/^cycle: addTasks: .*cycle/);
    // One attempt in the history: the same tasks would have been refused the same way again.
    expect((await historyAttempts(handle)).map((a) => a.activityId)).toEqual(['planner#1']);
  });
});

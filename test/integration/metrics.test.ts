import { describe, expect, it } from 'vitest';
import { freePort } from '../../src/devserver/server';
import { spawnWorkerProcess, startRun, uniqueQueue, waitFor } from '../helpers/env';

describe("teamrun's own metrics, on the SDK's Prometheus endpoint", () => {
  it('counts settled tasks by outcome and reports the budget used', async () => {
    const port = await freePort();
    const taskQueue = uniqueQueue('metrics');
    const worker = await spawnWorkerProcess({
      taskQueue,
      identity: 'metrics-worker',
      env: { TEAMRUN_METRICS_ADDRESS: `127.0.0.1:${port}` },
    });
    const team = uniqueQueue('metered');
    const handle = await startRun(
      {
        name: team,
        retry: { maxAttempts: 1 },
        tasks: [
          {
            key: 'a',
            executor: { kind: 'shell', command: `echo '::teamrun-usage::{"inputTokens":7,"outputTokens":5}'` },
          },
          { key: 'b', executor: { kind: 'noop' } },
          { key: 'c', executor: { kind: 'shell', command: 'exit 1' } },
          { key: 'd', dependsOn: ['c'], executor: { kind: 'noop' } },
        ],
      },
      taskQueue,
    );
    await handle.result();

    const line = (text: string, name: string, labels: string[]) =>
      text.split('\n').find((l) => l.startsWith(`${name}{`) && labels.every((label) => l.includes(label)));
    const metrics = await waitFor(
      'teamrun metrics on /metrics',
      async () => {
        const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
        return line(text, 'teamrun_tasks_settled', ['outcome="skipped"']) ? text : null;
      },
      30_000,
      500,
    );
    worker.child.kill('SIGTERM');
    await worker.exited;

    const value = (name: string, labels: string[]) => Number(line(metrics, name, labels)?.split(' ').pop());
    expect(value('teamrun_tasks_settled', ['outcome="succeeded"', `taskQueue="${taskQueue}"`])).toBe(2);
    expect(value('teamrun_tasks_settled', ['outcome="failed"'])).toBe(1);
    expect(value('teamrun_tasks_settled', ['outcome="skipped"'])).toBe(1);
    expect(value('teamrun_budget_tokens', [`team="${team}"`, 'kind="used"'])).toBe(12);
    expect(value('teamrun_adjudications_pending', [`team="${team}"`])).toBe(0);
  });
});

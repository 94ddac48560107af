import { describe, it } from 'vitest';
import * as msg from '../../src/workflows/messages';
import { spawnWorkerProcess, startRun, uniqueQueue, waitFor } from '../helpers/env';
import { claimOf, waitForStatus } from './takeover-helpers';

describe("the worker's terminal", () => {
  it('logs an interrupted attempt as one line with its activity id, and never prints a task token', async ({
    expect,
  }) => {
    const taskQueue = uniqueQueue('log-queue');
    const worker = await spawnWorkerProcess({ taskQueue, identity: 'log-worker' });
    try {
      const handle = await startRun(
        {
          name: 'log-lines',
          lease: { ttlMs: 15_000, heartbeatEveryMs: 1_500 },
          tasks: [{ key: 'long', executor: { kind: 'sleep', ms: 600_000 } }],
        },
        taskQueue,
      );
      const claim = await claimOf(handle, 'long');
      await handle.executeUpdate(msg.interruptTaskUpdate, {
        args: [{ key: 'long', fencingToken: claim.fencingToken, actor: 'alice' }],
      });
      await waitForStatus(handle, 'long', 'adjudication');
      const line = await waitFor('the worker to log the cancelled attempt', () =>
        worker
          .output()
          .split('\n')
          .find((l) => l.includes('attempt cancelled by its run')),
      );
      expect(line).toMatch(
        /^\S+Z \[WARN\] attempt cancelled by its run \(activityId=long#1 workflowId=\S+ taskQueue=\S+\)$/,
      );
      expect(worker.output()).not.toContain('taskToken');
      await handle.terminate('test finished');
    } finally {
      worker.child.kill('SIGKILL');
      await worker.exited;
    }
  });
});

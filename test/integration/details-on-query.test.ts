import { describe, it } from 'vitest';
import * as msg from '../../src/workflows/messages';
import { startRun, waitFor } from '../helpers/env';
import { currentDetailsOf, workerForTest } from '../helpers/scenario';

/**
 * A run's current details (the Web UI's, the `__temporal_workflow_metadata` query's) are made when they are read
 * (src/sdk/details-on-query.ts), not on every workflow step: what they say is the run as it stands at the query, including
 * what changed without a step of its own (an attempt announcing that it runs).
 */
describe('current details', () => {
  it('are the run as it stands when they are read', async ({ expect, onTestFinished }) => {
    const worker = await workerForTest({}, onTestFinished);
    const handle = await startRun(
      {
        name: 'details-query',
        teammates: 2,
        tasks: [
          { key: 'quick', executor: { kind: 'noop' } },
          { key: 'slow', executor: { kind: 'sleep', ms: 60_000 } },
        ],
      },
      worker.taskQueue,
    );
    onTestFinished(async () => {
      await handle.terminate('test done').catch(() => undefined);
    });
    await waitFor('quick to succeed', async () =>
      (await handle.query(msg.tasksQuery)).some((t) => t.key === 'quick' && t.status === 'succeeded'),
    );
    // The attempt's announcement (a signal) is no step of the loop: the details show it all the same.
    const text = await waitFor('the details to show slow running', async () => {
      const now = await currentDetailsOf(handle);
      return now.includes('`slow#1` (') && now.includes(', running)') ? now : undefined;
    });
    expect(text).toContain('**details-query** · running');
    expect(text).toContain('- tasks: 1/2 done (1 succeeded, 0 failed, 0 skipped), 1 running');
  });
});

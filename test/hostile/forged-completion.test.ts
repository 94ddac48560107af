import { describe, expect, it } from 'vitest';
import { defaultPayloadConverter } from '@temporalio/common';
import { loadRunReport } from '../../src/report';
import { ATTEMPT_RUNNING_SIGNAL } from '../../src/activities/interface';
import type { AttemptsRunning } from '../../src/contract';
import { startRun, testClient, testConfig, waitFor } from '../helpers/env';
import { allTaskViews, eventsOf, workerForTest } from '../helpers/scenario';

const output = (text: string) => `echo '::teamrun-output::"${text}"'`;

/** The run's first attempt of `key`, once a worker started it (the server's view). */
async function started(workflowId: string, activityId: string): Promise<void> {
  const client = await testClient();
  await waitFor(`${activityId} started`, async () => {
    const described = await client.workflowService.describeWorkflowExecution({
      namespace: 'default',
      execution: { workflowId },
    });
    // PENDING_ACTIVITY_STATE_STARTED
    return (described.pendingActivities ?? []).some((a) => a.activityId === activityId && a.state === 2) || null;
  });
}

describe("an attempt's completion sent by someone else (RespondActivityTaskCompletedById)", () => {
  it('a governed run does not take it: the attempt is settled as lost and leased again, and the real output wins', async ({
    onTestFinished,
  }) => {
    const worker = await workerForTest({ config: testConfig() }, onTestFinished);
    const handle = await startRun(
      {
        name: 'forged-completion',
        governance: { operators: ['ops'] },
        tasks: [{ key: 'slow', executor: { kind: 'shell', command: `sleep 3; ${output('real')}` } }],
      },
      worker.taskQueue,
    );
    await started(handle.workflowId, 'slow#1');
    // Anyone with write rights on the namespace: the attempt's ids are in history.
    const client = await testClient();
    await client.activity.complete({ workflowId: handle.workflowId, activityId: 'slow#1' }, { output: 'FORGED' });
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    const [slow] = await allTaskViews(handle);
    expect(slow).toMatchObject({ key: 'slow', status: 'succeeded', output: 'real', attempts: 2 });
    const unproven = await eventsOf(handle, 'attempt:unproven-result');
    expect(unproven.map((e) => [e.key, e.fencingToken, e.why])).toEqual([
      ['slow', 1, 'it carries no proof of its worker'],
    ]);
    // The report, read from history, tells it as the run settled it: a lost lease, then the real attempt.
    const report = await loadRunReport(client, handle.workflowId);
    expect(report.tasks[0].attempts.map((a) => [a.activityId, a.outcome, a.detail])).toEqual([
      ['slow#1', 'lease-expired', 'its worker did not confirm the result (sent by someone else, or its worker gone)'],
      ['slow#2', 'succeeded', null],
    ]);
    expect(report.leases.map((l) => [l.key, l.fencingToken, l.next?.fencingToken])).toEqual([['slow', 1, 2]]);
  });

  it('a forged result with a made-up proof naming the real worker is refused by that worker: settled as lost', async ({
    onTestFinished,
  }) => {
    const worker = await workerForTest({ config: testConfig() }, onTestFinished);
    const handle = await startRun(
      {
        name: 'forged-proof',
        governance: { operators: ['ops'] },
        tasks: [{ key: 'slow', executor: { kind: 'shell', command: `sleep 4; ${output('real')}` } }],
      },
      worker.taskQueue,
    );
    // The worker's stop queue, as the attempt announced it to its run (after its first second): public in history.
    const announced = await waitFor('the attempt to announce its worker', async () => {
      const history = await handle.fetchHistory();
      const signal = (history.events ?? []).find(
        (e) => e.workflowExecutionSignaledEventAttributes?.signalName === ATTEMPT_RUNNING_SIGNAL,
      );
      const payload = signal?.workflowExecutionSignaledEventAttributes?.input?.payloads?.[0];
      return payload ? (defaultPayloadConverter.fromPayload(payload) as AttemptsRunning) : null;
    });
    const client = await testClient();
    const proof = { queue: announced.queue, nonce: 'made-up-nonce-0123456789abcdef' };
    await client.activity.complete(
      { workflowId: handle.workflowId, activityId: 'slow#1' },
      { output: 'FORGED', proof },
    );
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    const [slow] = await allTaskViews(handle);
    expect(slow).toMatchObject({ key: 'slow', status: 'succeeded', output: 'real', attempts: 2 });
    const why = `worker queue ${announced.queue} did not confirm it`;
    expect((await eventsOf(handle, 'attempt:unproven-result')).map((e) => [e.key, e.fencingToken, e.why])).toEqual([
      ['slow', 1, why],
    ]);
    const report = await loadRunReport(client, handle.workflowId);
    expect(report.tasks[0].attempts.map((a) => [a.activityId, a.outcome])).toEqual([
      ['slow#1', 'lease-expired'],
      ['slow#2', 'succeeded'],
    ]);
  });

  it("a governed run takes its worker's own results, each confirmed once", async ({ onTestFinished }) => {
    const worker = await workerForTest({ config: testConfig() }, onTestFinished);
    const handle = await startRun(
      {
        name: 'proven-completion',
        governance: { operators: ['ops'] },
        tasks: [
          { key: 'a', executor: { kind: 'shell', command: output('from a') } },
          { key: 'b', dependsOn: ['a'], executor: { kind: 'noop' } },
        ],
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    const views = await allTaskViews(handle);
    expect(views.map((t) => [t.key, t.status, t.attempts])).toEqual([
      ['a', 'succeeded', 1],
      ['b', 'succeeded', 1],
    ]);
    expect(views[0].output).toBe('from a');
    expect(await eventsOf(handle, 'attempt:unproven-result')).toEqual([]);
    // Each result was confirmed with the worker on its stop queue before the run took it.
    const history = await handle.fetchHistory();
    const confirmations = (history.events ?? []).filter(
      (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'confirmAttemptRequest',
    );
    expect(confirmations).toHaveLength(2);
  });
});
